package dev.proofline.query.access;

import dev.proofline.access.CallerRecord;
import dev.proofline.access.CallerRole;
import dev.proofline.access.Submitter;
import io.javalin.http.Context;
import jakarta.servlet.http.HttpServletRequest;

/**
 * Who is calling, as {@link AccessFilter} established it before any route ran: a key (with its
 * role), or an anonymous client address; and whether it is another instance of this deployment.
 */
public record RequestCaller(Submitter submitter, CallerRecord key, boolean instance) {
    static final String ATTRIBUTE = "proofline.caller";

    public boolean isOperator() {
        return key != null && key.role() == CallerRole.OPERATOR;
    }

    /** Whether this caller may read a receipt whose submitter was recorded as {@code submittedBy}. */
    public boolean maySee(String submittedBy) {
        return isOperator() || (submittedBy != null && submittedBy.equals(submitter.id()));
    }

    public static RequestCaller of(Context ctx) {
        return of(ctx.req());
    }

    public static RequestCaller of(HttpServletRequest request) {
        Object caller = request.getAttribute(ATTRIBUTE);
        if (caller instanceof RequestCaller known) {
            return known;
        }
        // Not reached behind the filter; a route called without it is served as an anonymous stranger.
        return new RequestCaller(Submitter.address(request.getRemoteAddr()), null, false);
    }
}
