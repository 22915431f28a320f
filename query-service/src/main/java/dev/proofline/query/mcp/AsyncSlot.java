package dev.proofline.query.mcp;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One request's hold on a limited slot, given back exactly once: when the dispatch returns for a
 * request answered at once, or when an asynchronous answer's handler calls {@code complete()}, or
 * it times out or fails.
 *
 * <p>Why at {@code complete()} and not at the container's {@code onComplete}: Jetty calls
 * {@code onComplete} after it has sent the last byte and, under {@code Connection: close}, closed
 * the connection. A client that sends its next request as soon as it has the answer would find the
 * slot still held and be refused 503 for a request that was in fact over.
 */
final class AsyncSlot {
    private final Runnable release;
    private final AtomicBoolean released = new AtomicBoolean();
    /** The context handed out once the handler started asynchronous mode; null until then. */
    private volatile AsyncContext handedOut;

    AsyncSlot(Runnable release) {
        this.release = release;
    }

    /** Called once the filter chain has returned: the slot is free unless an answer is still open. */
    void dispatchReturned() {
        if (handedOut == null) {
            giveBack();
        }
    }

    private void giveBack() {
        if (released.compareAndSet(false, true)) {
            release.run();
        }
    }

    private AsyncContext track(AsyncContext context) {
        context.addListener(new GiveBackWhenDone());
        handedOut = new Completing(context);
        return handedOut;
    }

    /** The request as the handler sees it: starting asynchronous mode hands out a tracked context. */
    static final class Request extends HttpServletRequestWrapper {
        private final AsyncSlot slot;

        Request(HttpServletRequest request, AsyncSlot slot) {
            super(request);
            this.slot = slot;
        }

        @Override
        public AsyncContext startAsync() {
            return slot.track(super.startAsync());
        }

        @Override
        public AsyncContext startAsync(ServletRequest request, ServletResponse response) {
            return slot.track(super.startAsync(request, response));
        }

        @Override
        public AsyncContext getAsyncContext() {
            AsyncContext context = super.getAsyncContext(); // throws as the container does when not started
            AsyncContext tracked = slot.handedOut;
            return tracked != null ? tracked : context;
        }
    }

    /** However an asynchronous answer ends without {@code complete()}, the slot comes back. */
    private final class GiveBackWhenDone implements AsyncListener {
        @Override
        public void onComplete(AsyncEvent event) {
            giveBack();
        }

        @Override
        public void onTimeout(AsyncEvent event) {
            giveBack();
        }

        @Override
        public void onError(AsyncEvent event) {
            giveBack();
        }

        @Override
        public void onStartAsync(AsyncEvent event) {
            // Started again (an async dispatch): still the same request, still the same slot.
            event.getAsyncContext().addListener(this);
        }
    }

    /** The container's context, except that {@code complete()} gives the slot back first. */
    private final class Completing implements AsyncContext {
        private final AsyncContext context;

        Completing(AsyncContext context) {
            this.context = context;
        }

        @Override
        public void complete() {
            giveBack();
            context.complete();
        }

        @Override
        public ServletRequest getRequest() {
            return context.getRequest();
        }

        @Override
        public ServletResponse getResponse() {
            return context.getResponse();
        }

        @Override
        public boolean hasOriginalRequestAndResponse() {
            return context.hasOriginalRequestAndResponse();
        }

        @Override
        public void dispatch() {
            context.dispatch();
        }

        @Override
        public void dispatch(String path) {
            context.dispatch(path);
        }

        @Override
        public void dispatch(ServletContext servletContext, String path) {
            context.dispatch(servletContext, path);
        }

        @Override
        public void start(Runnable run) {
            context.start(run);
        }

        @Override
        public void addListener(AsyncListener listener) {
            context.addListener(listener);
        }

        @Override
        public void addListener(AsyncListener listener, ServletRequest request, ServletResponse response) {
            context.addListener(listener, request, response);
        }

        @Override
        public <T extends AsyncListener> T createListener(Class<T> type) throws ServletException {
            return context.createListener(type);
        }

        @Override
        public void setTimeout(long timeout) {
            context.setTimeout(timeout);
        }

        @Override
        public long getTimeout() {
            return context.getTimeout();
        }
    }
}
