package dev.proofline.query;

/** How an unexpected failure is named in an operator's log line. */
public final class Failures {
    private Failures() {}

    /**
     * The exception's class and where it was thrown, never its message: that may quote the
     * request, a key or a payment header.
     */
    public static String where(Throwable e) {
        StackTraceElement[] at = e.getStackTrace();
        return e.getClass().getName() + " at " + (at.length > 0 ? at[0] : "unknown");
    }
}
