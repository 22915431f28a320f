package dev.proofline.reputation;

/** An HTTP status and a JSON body: what REST sends and what an MCP tool result carries. */
public record Answer(int status, String json) {
    public boolean isError() {
        return status >= 400;
    }
}
