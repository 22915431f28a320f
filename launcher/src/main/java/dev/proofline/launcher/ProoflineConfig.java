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
 * and admin client), and any Kafka Streams setting as {@code streams.<setting>}. {@link Settings}
 * declares the rest; a key that is neither is refused, so a typo never goes unnoticed.
 */
public final class ProoflineConfig {
    public static final String CLIENT_PREFIX = "client.";
    public static final String STREAMS_PREFIX = "streams.";
    private static final String ENV_PREFIX = "PROOFLINE_";
    /** Environment variables the ./proofline script itself reads. */
    private static final List<String> SCRIPT_ENV = List.of("PROOFLINE_HOME", "PROOFLINE_JAVA_OPTS");

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
            properties
                    .stringPropertyNames()
                    .forEach(k -> values.put(k, properties.getProperty(k).trim()));
        }
        // The environment is shared with every other program (tests set PROOFLINE_IT_KAFKA): a
        // variable that names no setting is passed over, where a flag or a file's key is refused as
        // the typo it must be.
        List<String> strangers = unknownVariables(env);
        strangers.forEach(name -> org.slf4j.LoggerFactory.getLogger(ProoflineConfig.class)
                .warn("ignored the environment variable {}: it names no setting", name));
        env.forEach((name, value) -> {
            if (settingVariable(name) && !strangers.contains(name)) {
                values.put(keyOf(name), value);
            }
        });
        flags.forEach((name, value) -> {
            if (!name.equals("config")) {
                values.put(
                        name.startsWith(CLIENT_PREFIX) || name.startsWith(STREAMS_PREFIX)
                                ? name
                                : name.replace('-', '.'),
                        value);
            }
        });
        for (String key : values.keySet()) {
            if (!isSetting(key)) {
                throw new IllegalArgumentException(
                        "unknown setting '" + key + "'; see the README's configuration table");
            }
        }
        return new ProoflineConfig(values);
    }

    /** The {@code PROOFLINE_*} variables in {@code env} that name no setting (a compose file's typo, say). */
    public static List<String> unknownVariables(Map<String, String> env) {
        return env.keySet().stream()
                .filter(ProoflineConfig::settingVariable)
                .filter(name -> !isSetting(keyOf(name)))
                .sorted()
                .toList();
    }

    private static boolean settingVariable(String name) {
        return name.startsWith(ENV_PREFIX) && !SCRIPT_ENV.contains(name) && !name.equals(ENV_PREFIX + "CONFIG");
    }

    private static String keyOf(String variable) {
        return variable.substring(ENV_PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.');
    }

    private static boolean isSetting(String key) {
        return key.startsWith(CLIENT_PREFIX)
                || key.startsWith(STREAMS_PREFIX)
                || Settings.ALL.stream().anyMatch(s -> s.key().equals(key));
    }

    /** The text set for a key, if any; {@link Setting} turns it into a typed value. */
    Optional<String> raw(String key) {
        String value = values.get(key);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
    }

    /** A setting's typed value, or its default. */
    public <T> Optional<T> get(Setting<T> setting) {
        return setting.valueIn(this);
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
