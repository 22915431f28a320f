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
 * @param budgetSteps     the most evaluation steps one request may take ({@link WorkBudget})
 * @param formatAssertion whether {@code format} fails values that do not match it (the default: a
 *                        verification service promises it) or, as the specification's default,
 *                        only annotates them
 */
public record EngineSettings(
        String publicBaseUrl,
        String serviceName,
        int listCap,
        int maxRequestBytes,
        int schemaCacheSize,
        long budgetSteps,
        boolean formatAssertion) {
    public static final String VERIFIER_VERSION = loadVersion();

    public EngineSettings {
        publicBaseUrl =
                publicBaseUrl.endsWith("/") ? publicBaseUrl.substring(0, publicBaseUrl.length() - 1) : publicBaseUrl;
        if (listCap < 1 || maxRequestBytes < 1 || schemaCacheSize < 1 || budgetSteps < 1) {
            throw new IllegalArgumentException(
                    "list cap, request size limit, schema cache size and budget must be positive");
        }
    }

    public static final String SERVICE_NAME = "Proofline";
    public static final int DEFAULT_LIST_CAP = 50;
    public static final int DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024;
    public static final int DEFAULT_SCHEMA_CACHE_SIZE = 1024;
    public static final long DEFAULT_BUDGET_STEPS = 2_000_000;

    public static EngineSettings defaults() {
        return new EngineSettings(
                "http://127.0.0.1:8080",
                SERVICE_NAME,
                DEFAULT_LIST_CAP,
                DEFAULT_MAX_REQUEST_BYTES,
                DEFAULT_SCHEMA_CACHE_SIZE,
                DEFAULT_BUDGET_STEPS,
                true);
    }

    public EngineSettings withPublicUrl(String url) {
        return new EngineSettings(
                url, serviceName, listCap, maxRequestBytes, schemaCacheSize, budgetSteps, formatAssertion);
    }

    public EngineSettings withBudgetSteps(long steps) {
        return new EngineSettings(
                publicBaseUrl, serviceName, listCap, maxRequestBytes, schemaCacheSize, steps, formatAssertion);
    }

    public EngineSettings withMaxRequestBytes(int bytes) {
        return new EngineSettings(
                publicBaseUrl, serviceName, listCap, bytes, schemaCacheSize, budgetSteps, formatAssertion);
    }

    public EngineSettings withFormatAssertion(boolean assertion) {
        return new EngineSettings(
                publicBaseUrl, serviceName, listCap, maxRequestBytes, schemaCacheSize, budgetSteps, assertion);
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
