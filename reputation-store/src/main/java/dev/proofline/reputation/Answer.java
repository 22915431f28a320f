package dev.proofline.reputation;

import dev.proofline.attestor.StrictJson;
import io.javalin.http.Context;
import tools.jackson.databind.JsonNode;

/** An HTTP status and a JSON body: what REST sends and what an MCP tool result carries. */
public record Answer(int status, String json) {
    public boolean isError() {
        return status >= 400;
    }

    /** Sends it over REST; an error document that says {@code retry_after} also sets Retry-After. */
    public void writeTo(Context ctx) {
        if (isError()) {
            JsonNode retryAfter = StrictJson.parse(json).path("retry_after");
            if (retryAfter.isNumber()) {
                ctx.header("Retry-After", Integer.toString(retryAfter.asInt()));
            }
        }
        ctx.status(status).contentType("application/json").result(json);
    }
}
