package dev.proofline.cli;

import dev.proofline.launcher.ProoflineConfig;
import dev.proofline.launcher.ProoflineSettings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.CommonClientConfigs;

/**
 * The words of a command that acts on a running deployment ({@code caller}, {@code replay},
 * {@code publish}, {@code receipts}): its own
 * options, its positional words, and every other {@code --name VALUE} taken as a setting of
 * {@code up} (a config file, {@code --data-dir}, {@code --bootstrap-servers}...), so the command finds
 * the same Kafka, topics and secret the deployment uses.
 */
record DeploymentArgs(
        Map<String, String> own, List<String> positional, ProoflineConfig config, ProoflineSettings settings) {

    static DeploymentArgs parse(List<String> words, Set<String> ownOptions) throws IOException {
        Map<String, String> own = new HashMap<>();
        Map<String, String> settings = new LinkedHashMap<>();
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            if (!word.startsWith("--")) {
                positional.add(word);
                continue;
            }
            String name = word.substring(2);
            String value;
            int eq = name.indexOf('=');
            if (eq >= 0) { // --name=value, as Args takes it
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            } else if (i + 1 >= words.size()) {
                throw new UsageException(word + " needs a value");
            } else {
                value = words.get(++i);
            }
            (ownOptions.contains(name) ? own : settings).put(name, value);
        }
        try {
            ProoflineConfig config = ProoflineConfig.load(settings, System.getenv());
            return new DeploymentArgs(
                    own,
                    positional,
                    config,
                    ProoflineSettings.resolve(config, Workspace.dataDir(new Args(List.of(), Set.of()))));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** The command's own options and positional words, to read as {@link Args} read them. */
    Args ownArgs() {
        List<String> words = new ArrayList<>(positional);
        own.forEach((name, value) -> {
            words.add("--" + name);
            words.add(value);
        });
        return new Args(words, own.keySet());
    }

    /**
     * The deployment's base URL: {@code --url} when given, else its {@code public.url}, else its own
     * host and HTTP port (8080 when the port is chosen at start).
     */
    String baseUrl() {
        return Optional.ofNullable(own.get("url"))
                .or(settings::publicUrl)
                .orElse("http://" + settings.host() + ":" + (settings.httpPort() == 0 ? 8080 : settings.httpPort()));
    }

    /** Where the deployment's schema registry answers: {@code schema.registry.url}, else its base URL. */
    String registryUrl() {
        return settings.schemaRegistryUrl().orElse(baseUrl());
    }

    /** Kafka client properties for the deployment's cluster. */
    Map<String, Object> kafkaClient() {
        Map<String, Object> client = new HashMap<>(settings.clientOverrides());
        client.put(
                CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
                settings.bootstrapServers().orElse(settings.kafkaHost() + ":" + settings.kafkaPort()));
        return client;
    }
}
