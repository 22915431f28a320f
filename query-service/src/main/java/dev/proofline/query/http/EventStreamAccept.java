package dev.proofline.query.http;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The live feed's {@code Accept} read as HTTP means it (RFC 9110 §12.5.1): no {@code Accept}, or a
 * range such as {@code *}{@code /*} or {@code text/*} with a non-zero q, accepts an event stream.
 * Javalin's SSE handler only streams when the header names {@code text/event-stream} itself, so
 * {@code curl} (which sends {@code *}{@code /*}) was refused; here such a request reaches the route
 * with the header it looks for. A header that accepts no event stream is left as sent, and the
 * route answers 406.
 */
final class EventStreamAccept implements Filter {
    static final String EVENT_STREAM = "text/event-stream";
    private static final Pattern QVALUE = Pattern.compile("0(\\.[0-9]{0,3})?|1(\\.0{0,3})?");

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest http = (HttpServletRequest) request;
        if (HeadAsGet.isLiveFeed(http.getRequestURI()) && acceptsEventStream(http.getHeaders("Accept"))) {
            chain.doFilter(new AcceptingEventStream(http), new NoStoreKept((HttpServletResponse) response));
            return;
        }
        chain.doFilter(request, response);
    }

    /** Whether the {@code Accept} header lines allow {@code text/event-stream}; none at all do. */
    static boolean acceptsEventStream(Enumeration<String> lines) {
        if (lines == null || !lines.hasMoreElements()) {
            return true;
        }
        // The most specific range that matches decides (text/event-stream;q=0 refuses even with */*).
        int bestSpecificity = -1;
        boolean accepted = false;
        while (lines.hasMoreElements()) {
            for (String range : lines.nextElement().split(",")) {
                String[] parts = range.split(";");
                String type = parts[0].trim().toLowerCase(Locale.ROOT);
                int specificity = switch (type) {
                    case EVENT_STREAM -> 2;
                    case "text/*" -> 1;
                    case "*/*" -> 0;
                    default -> -1;
                };
                if (specificity > bestSpecificity) {
                    bestSpecificity = specificity;
                    accepted = quality(parts) > 0;
                }
            }
        }
        return accepted;
    }

    /**
     * The range's q (1 when absent). A q that is not RFC 9110's {@code qvalue} (0 to 1, at most
     * three decimals) counts as 0, so a malformed one never widens what is accepted.
     */
    private static double quality(String[] parameters) {
        for (int i = 1; i < parameters.length; i++) {
            String[] nameAndValue = parameters[i].split("=", 2);
            if (nameAndValue[0].trim().equalsIgnoreCase("q")) {
                String value = nameAndValue.length == 2 ? nameAndValue[1].trim() : "";
                return QVALUE.matcher(value).matches() ? Double.parseDouble(value) : 0;
            }
        }
        return 1;
    }

    /** The request as the SSE handler wants to see it. */
    private static final class AcceptingEventStream extends HttpServletRequestWrapper {
        AcceptingEventStream(HttpServletRequest request) {
            super(request);
        }

        @Override
        public String getHeader(String name) {
            return "Accept".equalsIgnoreCase(name) ? EVENT_STREAM : super.getHeader(name);
        }

        @Override
        public Enumeration<String> getHeaders(String name) {
            return "Accept".equalsIgnoreCase(name)
                    ? Collections.enumeration(java.util.List.of(EVENT_STREAM))
                    : super.getHeaders(name);
        }
    }
}
