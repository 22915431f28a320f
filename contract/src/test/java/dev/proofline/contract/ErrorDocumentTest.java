package dev.proofline.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

class ErrorDocumentTest {
    @Test
    void statusIsTheCodesUnlessTheServerAnsweredWithAnother() {
        for (ErrorCode code : ErrorCode.values()) {
            ErrorDocument document = new ErrorDocument(code, "m", List.of());
            assertEquals(code.status(), document.toJson().get("status").asInt(), code.code());
            assertEquals(document.toJson(), document.toJson(code.status()), code.code());
        }
        ObjectNode headersTooLarge = ErrorDocument.malformedHttpRequest().toJson(431);
        assertEquals(431, headersTooLarge.get("status").asInt());
        assertEquals("invalid_request", headersTooLarge.get("code").asString());
        // The rest of the document is the same; only the status follows what was sent.
        ObjectNode asCode = ErrorDocument.malformedHttpRequest().toJson();
        asCode.put("status", 431);
        assertEquals(asCode, headersTooLarge);
    }
}
