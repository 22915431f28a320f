package dev.proofline.client;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * An answer's body as text, read up to {@value #MAX_BYTES} bytes: no answer of Proofline's comes
 * near that (a receipt's lists are capped), and a server or proxy that sends more is not read into
 * memory. Past the cap the exchange is cancelled and the answer fails as {@code answer_too_large}.
 */
final class BoundedBody implements HttpResponse.BodySubscriber<String> {
    static final int MAX_BYTES = 16 * 1024 * 1024;

    private final CompletableFuture<String> body = new CompletableFuture<>();
    private final int status;
    private Flow.Subscription subscription;
    private byte[] bytes = new byte[8192];
    private int size;

    private BoundedBody(int status) {
        this.status = status;
    }

    /** The handler: one bounded body per answer. */
    static HttpResponse.BodyHandler<String> handler() {
        return info -> new BoundedBody(info.statusCode());
    }

    @Override
    public CompletionStage<String> getBody() {
        return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        this.subscription = subscription;
        subscription.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        if (body.isDone()) {
            return; // refused already; buffers still in flight are dropped
        }
        for (ByteBuffer buffer : buffers) {
            int more = buffer.remaining();
            if (more > MAX_BYTES - size) {
                // Completed before cancelling: a cancelled stream may fail the body with its own error.
                body.completeExceptionally(new ProoflineException(
                        "answer_too_large", status, false, "the answer is larger than " + MAX_BYTES + " bytes", null));
                subscription.cancel();
                return;
            }
            if (size + more > bytes.length) {
                bytes = java.util.Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
            }
            buffer.get(bytes, size, more);
            size += more;
        }
        subscription.request(1);
    }

    @Override
    public void onError(Throwable error) {
        body.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        body.complete(new String(bytes, 0, size, StandardCharsets.UTF_8));
    }
}
