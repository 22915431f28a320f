package dev.proofline.query.http;

import dev.proofline.query.access.Refusal;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.ee10.servlet.ServletContextRequest;
import org.eclipse.jetty.io.Connection;

/**
 * A request's body must arrive whole within a deadline, however it trickles in.
 *
 * <p>Why: Jetty's idle timeout bounds only the silence between two bytes. A body sent a byte every
 * few seconds kept its server thread in a blocking read for as long as the sender liked, and a few
 * hundred such connections left no thread for anybody else. At the deadline the read still waiting
 * is ended exactly as the idle timeout ends it, so the caller gets the same 408
 * {@code body_not_received}, and the thread is free again.
 *
 * <p>Only requests that carry a body are watched, and only until the body has been read: the wait for
 * a receipt that follows it is bounded by {@code verify.timeout.seconds}, not by this.
 */
final class BodyDeadline implements Filter, AutoCloseable {
    private final Duration deadline;
    private final ScheduledThreadPoolExecutor timer;

    BodyDeadline(Duration deadline) {
        this.deadline = deadline;
        this.timer = new ScheduledThreadPoolExecutor(1, work -> {
            Thread thread = new Thread(work, "proofline-body-deadline");
            thread.setDaemon(true);
            return thread;
        });
        // Nearly every deadline is cancelled long before it is due: drop those at once rather than
        // keep one task per request for the whole deadline.
        timer.setRemoveOnCancelPolicy(true);
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) request;
        if (!Refusal.hasBody(http)) {
            chain.doFilter(request, response);
            return;
        }
        Watched watched = new Watched(http);
        ScheduledFuture<?> due = timer.schedule(watched::expire, deadline.toNanos(), TimeUnit.NANOSECONDS);
        try {
            chain.doFilter(watched, response);
        } finally {
            watched.finished();
            due.cancel(false);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    /** The request, with a body stream that notices its own end. */
    private final class Watched extends HttpServletRequestWrapper {
        /** The request's connection, taken now: once this request is done it may carry the next one. */
        private final Connection connection;

        private final long declared;
        /** The body was read to its end, or its read failed: nothing left to watch. */
        private volatile boolean received;
        /** The deadline passed with the body unread: every later read fails too. */
        private volatile boolean expired;
        /** The request was handled; guarded by {@code this}, so a late expiry cannot touch the next one. */
        private boolean finished;

        private long read;
        private ServletInputStream stream;

        Watched(HttpServletRequest original) {
            super(original);
            this.connection = ServletContextRequest.getServletContextRequest(original)
                    .getConnectionMetaData()
                    .getConnection();
            this.declared = original.getContentLengthLong();
        }

        /**
         * Ends the read that waits for more of the body, as Jetty's idle timeout would, and marks
         * the body late so that a read not waiting at this moment fails when it comes. Run on the
         * timer's thread, as Jetty runs its own idle timeouts on its scheduler's.
         */
        synchronized void expire() {
            if (finished || received) {
                return;
            }
            expired = true;
            connection.onIdleExpired(late());
        }

        synchronized void finished() {
            finished = true;
        }

        private TimeoutException late() {
            return new TimeoutException("the body did not arrive within " + deadline.toSeconds() + " s");
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new Counted(super.getInputStream());
            }
            return stream;
        }

        /**
         * No route here reads its body as characters; one that did is not watched, since its reads
         * cannot be seen (a deadline that cannot tell the body's end could cut the answer instead).
         */
        @Override
        public BufferedReader getReader() throws IOException {
            received = true;
            return super.getReader();
        }

        /** Counts what is read, so the body's end is known whether or not the reader reads past it. */
        private final class Counted extends ServletInputStream {
            private final ServletInputStream body;

            Counted(ServletInputStream body) {
                this.body = body;
            }

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                int n = read(one, 0, 1);
                return n < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                if (expired) {
                    received = true;
                    throw new IOException(late()); // as Jetty fails a read whose idle timeout passed
                }
                int n;
                try {
                    n = body.read(buffer, offset, length);
                } catch (IOException failed) {
                    // Failed by the idle timeout, the deadline or the client: whichever came first
                    // answers, and this deadline must not fail the answer being written.
                    received = true;
                    throw failed;
                }
                counted(n);
                return n;
            }

            private void counted(int n) {
                if (n < 0) {
                    received = true;
                } else {
                    read += n;
                    if (declared >= 0 && read >= declared) {
                        received = true;
                    }
                }
            }

            @Override
            public boolean isFinished() {
                return body.isFinished();
            }

            @Override
            public boolean isReady() {
                return body.isReady();
            }

            @Override
            public void setReadListener(ReadListener listener) {
                body.setReadListener(listener);
            }
        }
    }
}
