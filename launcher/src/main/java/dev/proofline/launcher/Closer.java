package dev.proofline.launcher;

import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything a node started, closed in reverse order of starting: what started last depends on
 * what started first. A failure to close one thing is logged and the rest still close.
 */
final class Closer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Closer.class);

    private final Deque<AutoCloseable> started = new ArrayDeque<>();

    <T extends AutoCloseable> T add(T resource) {
        started.push(resource);
        return resource;
    }

    @Override
    public void close() {
        while (!started.isEmpty()) {
            try {
                started.pop().close();
            } catch (Exception e) {
                LOG.warn("while stopping: {}", e.toString());
            }
        }
    }
}
