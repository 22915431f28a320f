package dev.proofline.query.http;

import dev.proofline.contract.ErrorDocument;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * What Jetty itself answers before any route runs (a URL it cannot decode, a header too large, a
 * body over the limit): the uniform error document, never Jetty's HTML page or a stack trace.
 */
final class JsonErrorPages extends ErrorHandler {
    private final int maxRequestBytes;

    JsonErrorPages(int maxRequestBytes) {
        this.maxRequestBytes = maxRequestBytes;
    }

    /** The document for an HTTP status that no route chose. */
    static ErrorDocument forStatus(int status, int maxRequestBytes) {
        return switch (status) {
            case 404 -> ErrorDocument.notFound();
            case 405 -> ErrorDocument.methodNotAllowed();
            case 413 -> ErrorDocument.payloadTooLarge(maxRequestBytes);
            case 503 -> ErrorDocument.serverBusy();
            // 505: the client spoke an HTTP version this server does not; its request, not a failure here.
            default ->
                status >= 500 && status != 505 ? ErrorDocument.internalError() : ErrorDocument.malformedHttpRequest();
        };
    }

    /** That document as sent with {@code status} (400, 414, 431...), which its own status field repeats. */
    static byte[] body(int status, int maxRequestBytes) {
        return forStatus(status, maxRequestBytes).toJson(status).toString().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected void generateResponse(
            Request request, Response response, int code, String message, Throwable cause, Callback callback)
            throws IOException {
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.write(true, ByteBuffer.wrap(body(code, maxRequestBytes)), callback);
    }

    /**
     * Every method gets the document: Jetty's default writes a body only for GET, POST and HEAD, so
     * a DELETE or PUT refused for its headers (431) or its URL (400) got a bare status.
     */
    @Override
    public boolean errorPageForMethod(String method) {
        return true;
    }

    @Override
    public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
        fields.put(new HttpField(HttpHeader.CONTENT_TYPE, "application/json"));
        return ByteBuffer.wrap(body(status, maxRequestBytes));
    }
}
