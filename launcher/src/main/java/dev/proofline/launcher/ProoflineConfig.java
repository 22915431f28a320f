package dev.proofline.launcher;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * Everything an operator can set, from three places: a properties file ({@code --config FILE}),
 * environment variables ({@code PROOFLINE_KAFKA_PORT} for {@code kafka.port}) and flags
 * ({@code --kafka-port 9092}); flags override the environment, which overrides the file.
 *
 * <p>Any Kafka client setting passes through as {@code client.<setting>} (every producer, consumer
 * and admin client), and any Kafka Streams setting as {@code streams.<setting>}.
 * {@link #SETTINGS} is the one table of names and defaults; the README is written from it.
 */
public final class ProoflineConfig {
    public record Setting(String key, String defaultValue, String description) {
    }

    public static final String CLIENT_PREFIX = "client.";
    public static final String STREAMS_PREFIX = "streams.";
    private static final String ENV_PREFIX = "PROOFLINE_";
    /** Environment variables the ./proofline script itself reads. */
    private static final List<String> SCRIPT_ENV = List.of("PROOFLINE_HOME", "PROOFLINE_JAVA_OPTS");

    public static final List<Setting> SETTINGS = List.of(
            new Setting("data.dir", "<PROOFLINE_HOME>/.proofline", "everything persistent: broker log, keys, Streams state"),
            new Setting("keys.dir", "<data.dir>/keys", "the signing key ring; instances sharing the work must share it"),
            new Setting("host", "127.0.0.1", "address the embedded broker and the HTTP server listen on"),
            new Setting("kafka.port", "9092", "port of the embedded broker"),
            new Setting("http.port", "8080", "port of the HTTP server"),
            new Setting("bootstrap.servers", "", "an external Kafka cluster; when set, no broker is started"),
            new Setting("schema.registry.url", "", "an external Confluent-compatible registry; when unset Proofline serves its own"),
            new Setting("public.url", "http://<host>:<http.port>", "base URL receipts point to (agent-card, MCP)"),
            new Setting("application.id", "proofline", "Kafka Streams application id; instances sharing it share the work"),
            new Setting("topics.input", "agent-outputs", "verification requests"),
            new Setting("topics.receipts", "receipts", "signed receipts"),
            new Setting("topics.dead.letter", "agent-outputs.dlq", "records that could not be verified"),
            new Setting("topics.partitions", "3", "partitions of the topics Proofline creates"),
            new Setting("topics.replication.factor", "1 embedded, else the broker default", "replicas of the topics Proofline creates"),
            new Setting("max.request.bytes", "1048576", "largest request accepted; larger ones are dead-lettered (413)"),
            new Setting("verify.timeout.seconds", "10", "how long POST /verify/schema waits for its receipt before answering 504 receipt_pending"),
            new Setting("receipts.index.retention.hours", "168", "how long GET /receipts/{verification_id} can find a receipt (the receipts topic must keep it as long)"));

    private final Map<String, String> values;

    private ProoflineConfig(Map<String, String> values) {
        this.values = values;
    }

    /** Reads the file named by {@code --config} (if any), then the environment, then the flags. */
    public static ProoflineConfig load(Map<String, String> flags, Map<String, String> env) throws IOException {
        Map<String, String> values = new LinkedHashMap<>();
        String file = flags.containsKey("config") ? flags.get("config") : env.get(ENV_PREFIX + "CONFIG");
        if (file != null) {
            Properties properties = new Properties();
            try (Reader in = Files.newBufferedReader(Path.of(file))) {
                properties.load(in);
            }
            properties.stringPropertyNames().forEach(k -> values.put(k, properties.getProperty(k).trim()));
        }
        env.forEach((name, value) -> {
            if (name.startsWith(ENV_PREFIX) && !SCRIPT_ENV.contains(name) && !name.equals(ENV_PREFIX + "CONFIG")) {
                values.put(name.substring(ENV_PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.'), value);
            }
        });
        flags.forEach((name, value) -> {
            if (!name.equals("config")) {
                values.put(name.startsWith(CLIENT_PREFIX) || name.startsWith(STREAMS_PREFIX) ? name : name.replace('-', '.'), value);
            }
        });
        for (String key : values.keySet()) {
            boolean known = SETTINGS.stream().anyMatch(s -> s.key().equals(key));
            if (!known && !key.startsWith(CLIENT_PREFIX) && !key.startsWith(STREAMS_PREFIX)) {
                throw new IllegalArgumentException("unknown setting '" + key + "'; see the README's configuration table");
            }
        }
        return new ProoflineConfig(values);
    }

    public Optional<String> get(String key) {
        String value = values.get(key);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
    }

    public String get(String key, String fallback) {
        return get(key).orElse(fallback);
    }

    public int getInt(String key, int fallback) {
        String value = values.get(key);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number");
        }
    }

    /** Settings with a prefix, the prefix removed: {@code streams.num.stream.threads=2} gives {@code num.stream.threads}. */
    public Map<String, Object> withPrefix(String prefix) {
        Map<String, Object> out = new HashMap<>();
        values.forEach((k, v) -> {
            if (k.startsWith(prefix)) {
                out.put(k.substring(prefix.length()), v);
            }
        });
        return out;
    }
}
