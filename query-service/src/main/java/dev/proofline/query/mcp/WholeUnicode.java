package dev.proofline.query.mcp;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Whether a JSON message holds a lone surrogate in any key or string. JSON's backslash-u
 * escapes can name half of a surrogate pair on its own, which no UTF-8 text can carry: the SDK
 * would read it and echo it back (as the id of its answer) in bytes no strict client accepts.
 */
final class WholeUnicode {
    private WholeUnicode() {}

    static boolean hasLoneSurrogate(JsonNode message) {
        Deque<JsonNode> pending = new ArrayDeque<>();
        pending.push(message);
        while (!pending.isEmpty()) {
            JsonNode node = pending.pop();
            if (node.isString() && hasLoneSurrogate(node.asString())) {
                return true;
            }
            if (node.isObject()) {
                for (Map.Entry<String, JsonNode> member : node.properties()) {
                    if (hasLoneSurrogate(member.getKey())) {
                        return true;
                    }
                    pending.push(member.getValue());
                }
            } else if (node.isArray()) {
                node.forEach(pending::push);
            }
        }
        return false;
    }

    static boolean hasLoneSurrogate(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 == text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
                    return true;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return true;
            }
        }
        return false;
    }
}
