package dev.proofline.cli;

import java.util.concurrent.CountDownLatch;

/**
 * How the long-running commands end: on Ctrl-C or SIGTERM the JVM's shutdown hook closes what they
 * started, and the command returns once it is closed.
 */
final class UntilStopped {
    private UntilStopped() {}

    /** Registers the hook first, then says it is ready, so a Ctrl-C right after the line still closes it. */
    static void await(AutoCloseable running, String hookName, Runnable announceReady) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                running.close();
                            } catch (Exception e) {
                                // stopping anyway
                            } finally {
                                stopped.countDown();
                            }
                        },
                        hookName));
        announceReady.run();
        stopped.await();
    }
}
