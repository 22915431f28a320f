package dev.proofline.launcher;

import java.io.PrintStream;

/** One progress line a second: redrawn in place on a terminal, plain lines otherwise (logs, CI). */
public final class Progress {
    private final PrintStream out;
    private final boolean terminal;
    private long lastPrint;

    public Progress(PrintStream out) {
        this.out = out;
        this.terminal = System.console() != null;
    }

    public void update(String line) {
        long now = System.nanoTime();
        if (now - lastPrint < 1_000_000_000L) {
            return;
        }
        lastPrint = now;
        if (terminal) {
            out.print("\r" + line + "\u001b[K");
        } else {
            out.println(line);
        }
        out.flush();
    }

    public void done(String line) {
        if (terminal) {
            out.print("\r" + line + "\u001b[K\n");
        } else {
            out.println(line);
        }
        lastPrint = 0;
    }
}
