package dev.proofline.cli;

import java.io.Console;

/** Whether the CLI's output goes to a person at a terminal, or to a log, a pipe or a file. */
final class Terminal {
    private Terminal() {}

    /**
     * True when stdout is a terminal. On Java 17 to 21 a {@link Console} exists only then; from 22
     * one may exist for redirected output too, and {@code Console.isTerminal()} (22 and later) says
     * which. Asked by name, so the CLI still builds and runs on 17.
     */
    static boolean isStdout() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (NoSuchMethodException before22) {
            return true;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false; // unsure: a secret is not printed
        }
    }
}
