package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The shipped logging settings: libraries that write what a caller sent say nothing at all. */
class LogSettingsTest {

    @Test
    void librariesThatQuoteCallersAreSilentAndProoflineSpeaks() {
        for (String quotesCallers : new String[] {
            "io.modelcontextprotocol.server.McpAsyncServer", // an initialize's protocol version
            "io.modelcontextprotocol.spec.McpStreamableServerSession", // a whole notification, payment and all
            "io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider",
            "com.networknt.schema.keyword.PatternValidator" // a caller's failing pattern
        }) {
            assertFalse(LoggerFactory.getLogger(quotesCallers).isErrorEnabled(), quotesCallers);
        }
        assertTrue(
                LoggerFactory.getLogger("dev.proofline.query.mcp.GuardedTool").isWarnEnabled());
        assertTrue(
                LoggerFactory.getLogger("dev.proofline.launcher.ProoflineNode").isInfoEnabled());
        assertTrue(
                LoggerFactory.getLogger("org.apache.kafka.streams.KafkaStreams").isWarnEnabled());
    }
}
