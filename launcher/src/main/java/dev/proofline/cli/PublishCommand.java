package dev.proofline.cli;

import dev.proofline.attestor.CanonicalJsonException;
import dev.proofline.attestor.StrictJson;
import dev.proofline.client.ProoflineClient;
import dev.proofline.client.ProoflineException;
import dev.proofline.client.VerifiedReceipt;
import dev.proofline.engine.EngineSettings;
import dev.proofline.engine.ParseOutcome;
import dev.proofline.engine.RequestParser;
import dev.proofline.engine.SchemaCompiler;
import dev.proofline.launcher.Progress;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import tools.jackson.databind.JsonNode;

/**
 * {@code proofline publish FILE|DIR|- [--url URL] [--no-wait] [--bootstrap-servers HOST:PORT] [--config FILE]
 * [--<setting> VALUE]...}:
 * publishes verification requests (a JSON file, JSON Lines, every .json/.jsonl file of a
 * directory, or standard input), with a progress line, waits for their verified receipts (with
 * {@code --no-wait}, for Kafka's acknowledgement of each write only), and prints a summary per agent.
 * Requests are checked locally with the same parser the pipeline uses; invalid ones are reported and
 * not published. Exit 1 if any request was invalid, or got no receipt (not published, with
 * {@code --no-wait}).
 */
final class PublishCommand implements Command {
    private static final int IN_FLIGHT = 500;

    /** One request to publish, where it came from, and whom it is for. */
    private record Item(String source, String json, String agent) {}

    private static final class Tally {
        int pass;
        int fail;
        int invalid;
        int published;
        int unanswered;
    }

    @Override
    public int run(List<String> words, PrintStream out, PrintStream err) throws Exception {
        Map<String, String> flags = new java.util.HashMap<>();
        List<String> rest = new ArrayList<>();
        for (String word : words) {
            if (word.equals("--no-wait")) {
                flags.put("no-wait", "true");
            } else {
                rest.add(word);
            }
        }
        // --bootstrap-servers, --config FILE and any --<setting> VALUE of `up` (client.* security
        // settings, renamed topics) reach the deployment as `up` does.
        DeploymentArgs deployment = DeploymentArgs.parse(rest, Set.of("url"));
        Args args = deployment.ownArgs();
        String input = args.positional(0, "FILE, DIR or -");
        args.expectPositionals(1);
        boolean wait = !flags.containsKey("no-wait");
        RequestParser parser = new RequestParser(
                new SchemaCompiler(256), EngineSettings.defaults().maxRequestBytes());
        Map<String, Tally> byAgent = new TreeMap<>();
        List<Item> items = new ArrayList<>();
        for (Item item : read(input)) {
            if (parser.parse(item.json().getBytes(StandardCharsets.UTF_8)) instanceof ParseOutcome.Invalid invalid) {
                byAgent.computeIfAbsent(item.agent(), a -> new Tally()).invalid++;
                err.println(item.source() + ": invalid: " + invalid.error().message());
            } else {
                items.add(item);
            }
        }
        Progress progress = new Progress(out);
        long start = System.nanoTime();
        try (ProoflineClient client = ProoflineClient.builder()
                .baseUrl(deployment.baseUrl())
                .schemaRegistryUrl(deployment.registryUrl())
                .kafka(deployment.kafkaClient())
                .topics(deployment.settings().topics())
                .build()) {
            Semaphore inFlight = new Semaphore(IN_FLIGHT);
            List<CompletableFuture<?>> all = new ArrayList<>();
            int[] done = {0};
            for (Item item : items) {
                inFlight.acquire();
                // Without --no-wait each request waits for its receipt; with it, for Kafka's
                // acknowledgement only, so a request Kafka never took is still counted and reported.
                CompletableFuture<?> answer = wait ? client.verify(item.json()) : client.publish(item.json());
                all.add(answer.handle((r, e) -> {
                    inFlight.release();
                    synchronized (byAgent) {
                        tally(byAgent.computeIfAbsent(item.agent(), a -> new Tally()), r, e);
                        done[0]++;
                        show(progress, done[0], items.size(), start);
                    }
                    return null;
                }));
            }
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(10, TimeUnit.MINUTES);
        }
        progress.done(
                String.format("published %,d requests in %.1f s", items.size(), (System.nanoTime() - start) / 1e9));
        return summary(out, byAgent, wait);
    }

    /** One request's outcome: a receipt's verdict, published (--no-wait), refused as invalid, or unanswered. */
    private static void tally(Tally t, Object outcome, Throwable failure) {
        if (failure == null) {
            if (!(outcome instanceof VerifiedReceipt receipt)) {
                t.published++;
            } else if (receipt.passed()) {
                t.pass++;
            } else {
                t.fail++;
            }
        } else if ((failure instanceof java.util.concurrent.CompletionException ? failure.getCause() : failure)
                        instanceof ProoflineException p
                && p.code().equals("invalid_request")) {
            t.invalid++;
        } else {
            t.unanswered++;
        }
    }

    private static void show(Progress progress, int done, int total, long start) {
        double seconds = (System.nanoTime() - start) / 1e9;
        double rate = done / Math.max(seconds, 1e-3);
        progress.update(String.format(
                "%s %,d/%,d  %,.0f/s  ETA %.0f s",
                bar(done, total), done, total, rate, (total - done) / Math.max(rate, 1e-3)));
    }

    private static String bar(int done, int total) {
        int width = 24;
        int filled = total == 0 ? width : (int) ((long) done * width / total);
        return "[" + "#".repeat(filled) + ".".repeat(width - filled) + "]";
    }

    /**
     * Per agent, then in total: pass, fail, invalid and without a receipt; with {@code --no-wait},
     * published, invalid and not published (Kafka refused it, or did not acknowledge it in time).
     * Exit 1 if any request was invalid or did not get as far as asked.
     */
    private static int summary(PrintStream out, Map<String, Tally> byAgent, boolean waited) {
        Tally total = new Tally();
        row(
                out,
                "agent",
                waited
                        ? List.of("pass", "fail", "invalid", "no receipt")
                        : List.of("published", "invalid", "not published"));
        byAgent.forEach((agent, t) -> {
            row(out, agent, counts(t, waited));
            total.pass += t.pass;
            total.fail += t.fail;
            total.invalid += t.invalid;
            total.published += t.published;
            total.unanswered += t.unanswered;
        });
        row(out, "total", counts(total, waited));
        return total.invalid > 0 || total.unanswered > 0 ? 1 : 0;
    }

    private static List<String> counts(Tally t, boolean waited) {
        List<Integer> counts = waited
                ? List.of(t.pass, t.fail, t.invalid, t.unanswered)
                : List.of(t.published, t.invalid, t.unanswered);
        return counts.stream().map(String::valueOf).toList();
    }

    private static void row(PrintStream out, String agent, List<String> cells) {
        StringBuilder line = new StringBuilder(String.format("%-32s", agent));
        cells.forEach(cell -> line.append(String.format(" %10s", cell)));
        out.println(line);
    }

    private static List<Item> read(String input) throws Exception {
        List<Item> items = new ArrayList<>();
        if (input.equals("-")) {
            parse("stdin", new String(System.in.readAllBytes(), StandardCharsets.UTF_8), items);
            return items;
        }
        Path path = Path.of(input);
        if (Files.isDirectory(path)) {
            try (Stream<Path> files = Files.list(path)) {
                for (Path file : files.filter(f ->
                                f.toString().endsWith(".json") || f.toString().endsWith(".jsonl"))
                        .sorted()
                        .toList()) {
                    parse(file.getFileName().toString(), Files.readString(file), items);
                }
            }
        } else {
            parse(path.getFileName().toString(), Files.readString(path), items);
        }
        return items;
    }

    /** One JSON document, or JSON Lines (one request per non-empty line). */
    private static void parse(String source, String text, List<Item> items) {
        try {
            StrictJson.parse(text);
            items.add(new Item(source, text.trim(), agentOf(text)));
            return;
        } catch (CanonicalJsonException notOneDocument) {
            // fall through to JSON Lines
        }
        String[] lines = text.split("\n");
        for (int i = 0; i < lines.length; i++) {
            if (!lines[i].isBlank()) {
                items.add(new Item(source + ":" + (i + 1), lines[i].trim(), agentOf(lines[i])));
            }
        }
    }

    private static String agentOf(String json) {
        try {
            JsonNode agent = StrictJson.parse(json).path("agent_id");
            return agent.isString() ? agent.stringValue() : "(none)";
        } catch (CanonicalJsonException e) {
            return "(unreadable)";
        }
    }
}
