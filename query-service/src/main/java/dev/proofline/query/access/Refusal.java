package dev.proofline.query.access;

import dev.proofline.contract.ErrorDocument;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** An error document answered by a servlet filter, before any route runs and before the body is read. */
public final class Refusal {
    private Refusal() {}

    /** Whether the request says a body follows: a length above zero, or a transfer coding (chunked). */
    public static boolean hasBody(HttpServletRequest request) {
        return request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
    }

    /**
     * A body left unread makes Jetty close the connection once the answer is sent, after the answer
     * said nothing of it: a client that sent its next request on the same connection meanwhile lost
     * it ("no bytes"). So the answer says {@code Connection: close} itself.
     */
    public static void send(HttpServletRequest request, HttpServletResponse response, int status, ErrorDocument error)
            throws IOException {
        if (hasBody(request)) {
            response.setHeader("Connection", "close");
        }
        if (status == 401) {
            response.setHeader("WWW-Authenticate", "Bearer realm=\"proofline\"");
        }
        response.setHeader("Cache-Control", "no-store");
        response.setStatus(status);
        response.setContentType("application/json");
        byte[] body = error.toJson(status).toString().getBytes(StandardCharsets.UTF_8);
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
