package dev.proofline.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * What an operator may set about verification itself.
 *
 * @param publicBaseUrl   where this deployment is reached; receipts point to its agent-card and MCP
 * @param serviceName     the {@code verify.service} name printed in receipts
 * @param listCap         how many entries each receipt list keeps before counting the rest as omitted
 * @param maxRequestBytes the largest request accepted (larger ones get 413)
 * @param schemaCacheSize how many compiled schemas are kept
 */
public record EngineSettings(String publicBaseUrl, String serviceName, int listCap, int maxRequestBytes,
                             int schemaCacheSize) {
    public static final String VERIFIER_VERSION = loadVersion();

    public EngineSettings {
        publicBaseUrl = publicBaseUrl.endsWith("/") ? publicBaseUrl.substring(0, publicBaseUrl.length() - 1) : publicBaseUrl;
        if (listCap < 1 || maxRequestBytes < 1 || schemaCacheSize < 1) {
            throw new IllegalArgumentException("list cap, request size limit and schema cache size must be positive");
        }
    }

    public static EngineSettings defaults() {
        return new EngineSettings("http://127.0.0.1:8080", "Proofline", 50, 1024 * 1024, 1024);
    }

    public EngineSettings withPublicBaseUrl(String url) {
        return new EngineSettings(url, serviceName, listCap, maxRequestBytes, schemaCacheSize);
    }

    private static String loadVersion() {
        try (InputStream in = EngineSettings.class.getResourceAsStream("version.properties")) {
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("verifier.version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
