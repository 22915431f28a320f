package dev.proofline.cli;

import dev.proofline.attestor.DeploymentSecret;
import dev.proofline.attestor.StrictJson;
import dev.proofline.engine.EngineSettings;
import dev.proofline.launcher.ProoflineSettings;
import dev.proofline.launcher.Settings;
import dev.proofline.replay.CandidateRules;
import dev.proofline.replay.Replay;
import dev.proofline.replay.ReplayReport;
import dev.proofline.schemas.AvroSerde;
import dev.proofline.schemas.RestSchemaRegistryClient;
import dev.proofline.schemas.SchemaRegistryException;
import dev.proofline.schemas.VerificationIds;
import dev.proofline.schemas.avro.Receipt;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code proofline replay --from TIME|P:OFFSET,... [--to TIME|end] (--rules FILE | --schema FILE)...
 * [--out DIR] [--url URL]}, with the settings {@code up} takes to find the deployment's Kafka, topics
 * and secret: re-verifies a stretch of requests under candidate rules and writes {@code report.json}
 * and {@code summary.txt} ({@code docs/replay.md}).
 */
final class ReplayCommand implements Command {
    private static final Set<String> OWN = Set.of("from", "to", "rules", "schema", "out", "url");

    @Override
    public int run(List<String> words, PrintStream out, PrintStream err) throws Exception {
        DeploymentArgs args = DeploymentArgs.parse(words, OWN);
        Map<String, String> own = args.own();
        if (!args.positional().isEmpty()) {
            throw new UsageException("unexpected '" + args.positional().get(0) + "'");
        }
        if (!own.containsKey("from")) {
            throw new UsageException("--from TIME or --from PARTITION:OFFSET[,...] is required");
        }
        ProoflineSettings resolved = args.settings();
        Map<String, Object> kafka = args.kafkaClient();
        String registryUrl = own.containsKey("url") ? args.baseUrl() : args.registryUrl();
        Path outDir = Paths.get(own.getOrDefault("out", "replay"));
        // Before the replay, which may take hours: a report with nowhere to go would be lost at the end.
        try {
            Files.createDirectories(outDir);
        } catch (IOException e) {
            throw new UsageException("--out " + outDir + " is not a directory the report can be written to ("
                    + ProoflineCli.said(e) + ")");
        }
        if (!Files.isWritable(outDir)) {
            throw new UsageException("--out " + outDir + " is not a directory the report can be written to");
        }

        Replay replay;
        try {
            replay = Replay.builder()
                    .kafka(kafka)
                    .topics(resolved.topics())
                    .range(own.get("from"), own.get("to"))
                    .candidate(CandidateRules.read(
                            Optional.ofNullable(own.get("rules")).map(Paths::get),
                            Optional.ofNullable(own.get("schema")).map(Paths::get)))
                    .verificationIds(new VerificationIds(
                            DeploymentSecret.open(resolved.keysDir()).keyFor("verification-ids")))
                    .receipts(
                            new AvroSerde<Receipt>(new RestSchemaRegistryClient(registryUrl), Receipt.getClassSchema())
                                    .deserializer())
                    .engineSettings(EngineSettings.defaults()
                            .withMaxRequestBytes(resolved.maxRequestBytes())
                            .withBudgetSteps(resolved.budgetSteps())
                            .withFormatAssertion(resolved.formatAssertion()))
                    .maxRecordsPerSecond(Settings.REPLAY_MAX_RECORDS_PER_SECOND.in(args.config()))
                    .progress(new TerminalProgress(err))
                    .build();
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        ReplayReport report;
        try {
            report = replay.run();
        } catch (SchemaRegistryException e) {
            err.println("proofline replay: cannot read the original receipts: " + e.getMessage());
            return 1;
        } catch (IllegalArgumentException e) {
            // What the range names and Kafka lacks: a partition the topic does not have, say.
            throw new UsageException(e.getMessage());
        }
        Files.writeString(
                outDir.resolve("report.json"), StrictJson.pretty(report.toJson()) + "\n", StandardCharsets.UTF_8);
        Files.writeString(outDir.resolve("summary.txt"), report.summary(), StandardCharsets.UTF_8);
        out.print(report.summary());
        err.println(
                "proofline replay: wrote " + outDir.resolve("report.json") + " and " + outDir.resolve("summary.txt"));
        return 0;
    }

    /** One line a second on stderr while requests are re-verified; nothing on stdout. */
    private static final class TerminalProgress implements Replay.Progress {
        private final PrintStream err;
        private long lastPrinted = System.nanoTime();

        TerminalProgress(PrintStream err) {
            this.err = err;
        }

        @Override
        public void phase(String what) {
            err.println("proofline replay: " + what);
        }

        @Override
        public void replayed(long requests) {
            long now = System.nanoTime();
            if (now - lastPrinted >= 1_000_000_000L) {
                lastPrinted = now;
                err.println("proofline replay: " + requests + " requests re-verified");
            }
        }
    }
}
