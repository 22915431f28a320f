package dev.proofline.query.mcp;

import dev.proofline.attestor.StrictJson;
import java.util.Arrays;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;

/**
 * The exact bytes of a {@code tools/call}'s {@code params.arguments}, as the caller sent them. A
 * verification must be of the caller's own text: the SDK hands a tool its arguments as Java maps,
 * and writing those back out is not the same request (a number past any double, {@code 1e400},
 * comes back as a string, and REST would have refused it). The slice is what a REST caller would
 * have posted, so MCP and REST answer the same request alike.
 */
final class ToolArguments {
    /** The request attribute (and transport-context key) the slice travels under. */
    static final String ATTRIBUTE = "proofline.mcp.arguments";

    private ToolArguments() {}

    /** The bytes of {@code params.arguments} when it is an object, else null. The body is valid strict JSON. */
    static byte[] of(byte[] body) {
        try (JsonParser parser = StrictJson.MAPPER.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            if (!enterProperty(parser, "params") || parser.currentToken() != JsonToken.START_OBJECT) {
                return null;
            }
            if (!enterProperty(parser, "arguments") || parser.currentToken() != JsonToken.START_OBJECT) {
                return null;
            }
            long start = parser.currentTokenLocation().getByteOffset();
            parser.skipChildren();
            long end = parser.currentLocation().getByteOffset();
            if (start < 0 || end <= start || end > body.length) {
                return null;
            }
            return Arrays.copyOfRange(body, (int) start, (int) end);
        } catch (JacksonException notJson) {
            return null;
        }
    }

    /** Moves to the value of {@code name} in the object just entered; false when it has none. */
    private static boolean enterProperty(JsonParser parser, String name) {
        while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
            boolean wanted = name.equals(parser.currentName());
            parser.nextToken();
            if (wanted) {
                return true;
            }
            parser.skipChildren();
        }
        return false;
    }
}
