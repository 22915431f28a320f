package dev.proofline.query.discovery;

import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.ErrorCode;
import dev.proofline.engine.EngineSettings;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code /openapi.json}: written by hand in {@code openapi.json} beside this class (paths, request,
 * receipt, score and error schemas, every status a caller meets), completed here with what only the
 * running deployment knows (its URL and name) and what one enum decides (the error codes), so the
 * description cannot drift from {@link ErrorCode}.
 */
final class OpenApiDocument {
    private final ObjectNode template;

    OpenApiDocument() {
        try (InputStream in = OpenApiDocument.class.getResourceAsStream("openapi.json")) {
            template = (ObjectNode) StrictJson.parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ObjectNode components = (ObjectNode) template.get("components");
        ArrayNode codes = (ArrayNode) components.at("/schemas/ErrorDocument/properties/code/enum");
        ArrayNode table = template.putArray("x-error-codes");
        for (ErrorCode code : ErrorCode.values()) {
            codes.add(code.code());
            ObjectNode row = table.addObject()
                    .put("code", code.code())
                    .put("status", code.status())
                    .put("retryable", code.retryable());
            if (code.retryable()) {
                row.put("retry_after", code.retryAfterSeconds());
            }
            row.put("next_action", code.nextAction()).put("description", code.description());
        }
        ((ObjectNode) components.at("/requestBodies/Verification/content/application~1json/examples/invoice"))
                .set("value", DiscoveryDocuments.sampleRequest());
    }

    /** The paths a deployment without a transparency log does not serve ({@code tlog.enabled=false}). */
    static final java.util.List<String> LOG_PATHS =
            java.util.List.of("/receipts/{verification_id}/proof", "/tlog/checkpoint", "/tlog/tile/{tile}");

    ObjectNode forDeployment(EngineSettings settings, boolean transparencyLog) {
        ObjectNode doc = template.deepCopy();
        if (!transparencyLog) {
            LOG_PATHS.forEach(((ObjectNode) doc.get("paths"))::remove);
        }
        ((ObjectNode) doc.get("info"))
                .put("title", settings.serviceName())
                .put("version", EngineSettings.VERIFIER_VERSION);
        ((ObjectNode) doc.get("servers").get(0)).put("url", settings.publicBaseUrl());
        return doc;
    }
}
