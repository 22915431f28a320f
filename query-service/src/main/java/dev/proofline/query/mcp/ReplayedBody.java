package dev.proofline.query.mcp;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;

/**
 * A request whose body was read to be looked at, handed on as if unread: the bytes read, then the
 * rest of the stream. At most one byte more than the largest body taken is held, so a body of any
 * size costs that much memory here at most, and one byte too many is enough to know it is too large.
 */
final class ReplayedBody extends HttpServletRequestWrapper {
    private final byte[] inspected;
    private final int largest;
    private final InputStream whole;

    /** @param largest the largest body taken whole, in bytes */
    ReplayedBody(HttpServletRequest request, int largest) throws IOException {
        super(request);
        this.largest = largest;
        InputStream body = request.getInputStream();
        this.inspected = body.readNBytes(largest == Integer.MAX_VALUE ? largest : largest + 1);
        this.whole = new SequenceInputStream(new ByteArrayInputStream(inspected), body);
    }

    /** The body's first bytes; the whole body when it is {@link #complete()}. */
    byte[] inspected() {
        return inspected;
    }

    /** Whether {@link #inspected} is the whole body: it is no larger than the largest taken. */
    boolean complete() {
        return inspected.length <= largest;
    }

    @Override
    public ServletInputStream getInputStream() {
        return new ServletInputStream() {
            @Override
            public int read() throws IOException {
                return whole.read();
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                return whole.read(buffer, offset, length);
            }

            @Override
            public boolean isFinished() {
                return false;
            }

            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setReadListener(ReadListener listener) {
                throw new IllegalStateException("the body is read blocking");
            }
        };
    }

    /**
     * UTF-8, whatever the Content-Type says: JSON between systems is UTF-8 (RFC 8259), and the bytes
     * were checked as UTF-8 before the SDK reads them. The SDK decodes with this charset, so a
     * {@code charset=ISO-8859-1} would otherwise have it act on other text than was checked.
     */
    @Override
    public String getCharacterEncoding() {
        return StandardCharsets.UTF_8.name();
    }

    @Override
    public BufferedReader getReader() {
        return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
    }
}
