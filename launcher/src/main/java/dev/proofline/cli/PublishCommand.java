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
 * {@code proofline publish FILE|DIR|- [--bootstrap-servers HOST:PORT] [--url URL] [--no-wait]}:
 * publishes verification requests (a JSON file, JSON Lines, every .json/.jsonl file of a
 * directory, or standard input), with a progress line, waits for their verified receipts unless
 * {@code --no-wait}, and prints a pass/fail/invalid summary per agent. Requests are checked locally
 * with the same parser the pipeline uses; invalid ones are reported and not published. Exit 1 if any
 * request was invalid or failed to get a receipt.
 */
final class PublishCommand implements Command {
    private static final int IN_FLIGHT = 500;

    /** One request to publish, where it came from, and whom it is for. */
    private record Item(String source, String json, String agent) {}

    private static final class Tally {
        int pass;
        int fail;
        int invalid;
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
        Args args = new Args(rest, Set.of("bootstrap-servers", "url"));
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
        try (ProoflineClient client = ProoflineClient.overKafka(
                args.option("bootstrap-servers", "127.0.0.1:9092"), args.option("url", "http://127.0.0.1:8080"))) {
            Semaphore inFlight = new Semaphore(IN_FLIGHT);
            List<CompletableFuture<?>> all = new ArrayList<>();
            int[] done = {0};
            for (Item item : items) {
                inFlight.acquire();
                CompletableFuture<VerifiedReceipt> receipt = client.verify(item.json());
                all.add(receipt.handle((r, e) -> {
                    inFlight.release();
                    synchronized (byAgent) {
                        Tally t = byAgent.computeIfAbsent(item.agent(), a -> new Tally());
                        if (e == null) {
                            if (r.passed()) {
                                t.pass++;
                            } else {
                                t.fail++;
                            }
                        } else if ((e instanceof java.util.concurrent.CompletionException ? e.getCause() : e)
                                        instanceof ProoflineException p
                                && p.code().equals("invalid_request")) {
                            t.invalid++;
                        } else {
                            t.unanswered++;
                        }
                        done[0]++;
                        show(progress, done[0], items.size(), start);
                    }
                    return null;
                }));
                if (!wait) {
                    receipt.cancel(false);
                }
            }
            if (wait) {
                CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(10, TimeUnit.MINUTES);
            }
        }
        progress.done(
                String.format("published %,d requests in %.1f s", items.size(), (System.nanoTime() - start) / 1e9));
        return summary(out, byAgent, wait);
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

    private static int summary(PrintStream out, Map<String, Tally> byAgent, boolean waited) {
        out.printf("%-32s %6s %6s %8s%s%n", "agent", "pass", "fail", "invalid", waited ? "  no receipt" : "");
        Tally total = new Tally();
        byAgent.forEach((agent, t) -> {
            out.printf(
                    "%-32s %6d %6d %8d%s%n",
                    agent, t.pass, t.fail, t.invalid, waited ? String.format("  %10d", t.unanswered) : "");
            total.pass += t.pass;
            total.fail += t.fail;
            total.invalid += t.invalid;
            total.unanswered += t.unanswered;
        });
        out.printf(
                "%-32s %6d %6d %8d%s%n",
                "total",
                total.pass,
                total.fail,
                total.invalid,
                waited ? String.format("  %10d", total.unanswered) : "");
        return total.invalid > 0 || (waited && total.unanswered > 0) ? 1 : 0;
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
