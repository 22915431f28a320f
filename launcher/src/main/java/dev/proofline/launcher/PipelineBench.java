package dev.proofline.launcher;

import dev.proofline.attestor.SigningKey;
import dev.proofline.contract.Topics;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Measures, in one run on one broker: the bare Ed25519 sign rate (the ceiling), a raw Kafka
 * pass-through of the same records (produce and consume, no verification), and the exactly-once
 * pipeline's sustained request→receipt throughput and latency. Prints figures, asserts nothing.
 */
public final class PipelineBench {
    /** One phase's result: records per second and, for the pipeline, request→receipt latency. */
    record Figures(String name, long records, double seconds, long[] latenciesMillis) {
        double rate() {
            return records / seconds;
        }

        long percentile(double p) {
            if (latenciesMillis.length == 0) {
                return -1;
            }
            return latenciesMillis[(int) Math.min(latenciesMillis.length - 1, Math.floor(p * latenciesMillis.length))];
        }
    }

    private final PrintStream out;
    private final Progress progress;
    private final byte[][] requests;
    private final String template;

    PipelineBench(PrintStream out, byte[] template, int count) {
        this.out = out;
        this.progress = new Progress(out);
        String text = new String(template, StandardCharsets.UTF_8);
        this.template = text;
        this.requests = new byte[count][];
        for (int i = 0; i < count; i++) {
            requests[i] = requestAs(agentName(i % BENCH_AGENTS), "bench-" + i);
        }
    }

    /** What a run measures; the sign baselines are always measured, every ratio is taken against them. */
    public enum Phase {
        PASSTHROUGH,
        PIPELINE,
        PRELOADED,
        REST,
        READS,
        SIZES,
        INSTANCES,
        AGENTS;

        public static Set<Phase> parse(String list) {
            Set<Phase> phases = EnumSet.noneOf(Phase.class);
            for (String name : list.split(",")) {
                phases.add(Phase.valueOf(name.trim().toUpperCase(Locale.ROOT)));
            }
            return phases;
        }
    }

    /**
     * @param agents for the reads: this many more agents are loaded and the leaderboard measured again
     * @param agentCurve for the agents phase: the numbers of agents the pipeline is measured with
     */
    public static void run(
            PrintStream out,
            Path template,
            int count,
            int streamThreads,
            String externalBootstrap,
            Set<Phase> phases,
            int agents,
            int[] agentCurve)
            throws Exception {
        PipelineBench bench = new PipelineBench(out, Files.readAllBytes(template), count);
        Path dir = Files.createTempDirectory("proofline-bench");
        out.println("Proofline bench: " + count + " invoice requests of " + bench.requests[0].length + " bytes, "
                + Runtime.getRuntime().availableProcessors() + " cores, " + streamThreads + " stream thread(s)");
        double signs = bench.bareSignRate(Duration.ofSeconds(3));
        double fastSigns = bench.fastSignRate(Duration.ofSeconds(3));
        String signer =
                SigningKey.generate("bench", new SecureRandom()).signer().implementation();
        List<String> report = new ArrayList<>();
        report.add(String.format("bare Ed25519 sign, 1 thread     %,10.0f signs/s", signs));
        report.add(String.format(
                "bare Ed25519 sign, 1 thread, as receipts are signed (%s) %,10.0f signs/s (%.2fx)",
                signer, fastSigns, fastSigns / signs));
        EmbeddedKafkaBroker broker =
                externalBootstrap == null ? EmbeddedKafkaBroker.start(dir.resolve("kafka"), "127.0.0.1", 0) : null;
        String bootstrap = broker != null ? broker.bootstrapServers() : externalBootstrap;
        String applicationId = "bench-" + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            Figures raw = null;
            if (phases.contains(Phase.PASSTHROUGH)) {
                raw = bench.passThrough(bootstrap);
                report.add(String.format("raw Kafka pass-through          %,10.0f records/s", raw.rate()));
            }
            Figures flat = null;
            try (ProoflineNode node = ProoflineNode.start(
                            ProoflineConfig.load(
                                    Map.of(
                                            "bootstrap.servers",
                                            bootstrap,
                                            "http.port",
                                            "0",
                                            "data.dir",
                                            dir.resolve("node").toString(),
                                            "application.id",
                                            applicationId,
                                            "streams.num.stream.threads",
                                            Integer.toString(streamThreads),
                                            // 500 clients and the HTTP floor's, all from this machine.
                                            "http.max.connections.per.address",
                                            "100000",
                                            // Task-level process latency, to print each sub-topology's cost.
                                            "streams.metrics.recording.level",
                                            "DEBUG"),
                                    System.getenv()),
                            dir);
                    HttpLoad load = bench.httpLoad(node.httpUrl())) {
                if (phases.contains(Phase.PIPELINE)
                        || phases.contains(Phase.PRELOADED)
                        || phases.contains(Phase.SIZES)
                        || phases.contains(Phase.AGENTS)) {
                    bench.warmUp(bootstrap);
                }
                if (phases.contains(Phase.PIPELINE)) {
                    TopicWrites writes = TopicWrites.start(admin);
                    TransactionCount commits = TransactionCount.start(node::streamsMetrics);
                    BrokerRequests requests = BrokerRequests.start();
                    CpuByThread flatCpu = CpuByThread.start();
                    flat = bench.measure(
                            "pipeline", bootstrap, Topics.DEFAULT_INPUT, Topics.DEFAULT_RECEIPTS, true, count, 0);
                    // The bench's producer and latency reader compete here, unlike pre-loaded: say how much.
                    String flatCpuLine = flatCpu.line("receipt (all sent at once)", flat.records());
                    Map<String, Long> written = writes.since();
                    String transactions = commits.line("pipeline", flat.records(), flat.seconds());
                    String brokerRequests = requests.line("pipeline", flat.records());
                    Figures paced = bench.paced(bootstrap, flat, Duration.ofSeconds(15));
                    report.add(String.format(
                            "pipeline, exactly-once          %,10.0f receipts/s  (all sent at once; p50 %d ms, p99 %d ms:"
                                    + " queueing)",
                            flat.rate(), flat.percentile(0.50), flat.percentile(0.99)));
                    report.add(String.format(
                            "pipeline, paced at %,6.0f/s     request -> committed receipt: p50 %d ms, p99 %d ms",
                            paced.rate(), paced.percentile(0.50), paced.percentile(0.99)));
                    report.add(flatCpuLine);
                    report.add(WritesPerReceipt.line(written, flat.records()));
                    report.add(transactions);
                    report.add(brokerRequests);
                }
                if (phases.contains(Phase.PRELOADED)) {
                    // A backlog takes other paths than a stream of arrivals (full polls, larger
                    // transactions): the JIT compiled for seconds into the first pre-loaded run.
                    bench.untilJitQuiet(
                            "pipeline, pre-loaded warm-up",
                            PRELOADED_WARM_UP_ROUNDS,
                            round -> bench.preloaded(node, bootstrap, Topics.defaults()));
                    List<Preloaded> runs = new ArrayList<>();
                    for (int i = 0; i < PRELOADED_RUNS; i++) {
                        runs.add(bench.preloaded(node, bootstrap, Topics.defaults()));
                    }
                    runs.sort(Comparator.comparingDouble(r -> r.figures().rate()));
                    Preloaded run = runs.get(runs.size() / 2);
                    Figures preloaded = run.figures();
                    report.add(String.format(
                            "pipeline, exactly-once, input pre-loaded %,6.0f receipts/s  (%.2fx bare sign; median of %d"
                                    + " runs, %,.0f-%,.0f; no producer competing)",
                            preloaded.rate(),
                            preloaded.rate() / signs,
                            runs.size(),
                            runs.get(0).figures().rate(),
                            runs.get(runs.size() - 1).figures().rate()));
                    report.add(SubTopologyCost.line(node.streamsMetrics()));
                    report.add(run.cpuLine());
                    report.add(bench.transparencyLogCost(bootstrap, dir, streamThreads));
                }
                String operator = node.operatorToken().orElse("");
                if (phases.contains(Phase.REST)) {
                    IntFunction<HttpLoad.Call> verify = n ->
                            HttpLoad.Call.post("/verify/schema", bench.requests[n % bench.requests.length], operator);
                    bench.untilJitQuiet(
                            "REST warm-up", 30, round -> bench.http("REST warm-up " + round, 50, 2_000, verify));
                    Figures lone = bench.http("REST POST /verify/schema, 1 client", 1, 300, verify);
                    report.add(String.format(
                            "REST POST /verify/schema, 1 client %,8.0f receipts/s  p50 %d ms, p99 %d ms  (a lone"
                                    + " request's trip)",
                            lone.rate(), lone.percentile(0.50), lone.percentile(0.99)));
                    CpuByThread restCpu = CpuByThread.start();
                    TransactionCount restCommits = TransactionCount.start(node::streamsMetrics);
                    BrokerRequests restRequests = BrokerRequests.start();
                    Figures rest = bench.http("REST POST /verify/schema", 50, Math.min(count, 5_000), verify);
                    report.add(String.format(
                            "REST POST /verify/schema, 50 clients %,6.0f receipts/s  p50 %d ms, p99 %d ms",
                            rest.rate(), rest.percentile(0.50), rest.percentile(0.99)));
                    report.add(restCpu.line("REST receipt", rest.records()));
                    report.add(restCommits.line("REST, 50 clients", rest.records(), rest.seconds()));
                    report.add(restRequests.line("REST, 50 clients", rest.records()));
                    // 500 clients need ten times the server's threads, and paths the JIT has not seen at 50
                    // (hundreds of threads waiting at once, larger transactions): warmed up on their own.
                    bench.untilJitQuiet(
                            "REST warm-up, 500 clients",
                            5,
                            round -> bench.http("REST warm-up, 500 clients " + round, 500, 5_000, verify));
                    CpuByThread manyCpu = CpuByThread.start();
                    TransactionCount manyCommits = TransactionCount.start(node::streamsMetrics);
                    BrokerRequests manyRequests = BrokerRequests.start();
                    Figures many =
                            bench.http("REST POST /verify/schema, 500 clients", 500, Math.min(count, 10_000), verify);
                    report.add(String.format(
                            "REST POST /verify/schema, 500 clients %,6.0f receipts/s  p50 %d ms, p99 %d ms",
                            many.rate(), many.percentile(0.50), many.percentile(0.99)));
                    report.add(manyCpu.line("REST receipt, 500 clients", many.records()));
                    report.add(manyCommits.line("REST, 500 clients", many.records(), many.seconds()));
                    report.add(manyRequests.line("REST, 500 clients", many.records()));
                    // The HTTP floor: the same server, filters and clients answering a document held in
                    // memory (the agent-card, a few KB), nothing published or awaited. No verification
                    // over HTTP can be answered faster; the gap between the two is what one adds.
                    IntFunction<HttpLoad.Call> card = n -> HttpLoad.Call.get("/.well-known/agent-card.json");
                    bench.untilJitQuiet(
                            "HTTP floor warm-up",
                            5,
                            round -> bench.http("HTTP floor warm-up " + round, 500, 10_000, card));
                    CpuByThread floorCpu = CpuByThread.start();
                    Figures floor = bench.http("HTTP floor", 500, 4 * Math.min(count, 10_000), card);
                    report.add(String.format(
                            "HTTP floor, GET /.well-known/agent-card.json, 500 clients %,6.0f answers/s  p50 %d ms,"
                                    + " p99 %d ms  (REST verify at 500 clients is %.2fx of it)",
                            floor.rate(), floor.percentile(0.50), floor.percentile(0.99), many.rate() / floor.rate()));
                    report.add(floorCpu.line("HTTP floor answer, 500 clients", floor.records()));
                    if (flat != null) {
                        report.add(String.format(
                                "REST verify (500 clients) / pipeline (Kafka) %6.2fx", many.rate() / flat.rate()));
                    }
                }
                if (phases.contains(Phase.INSTANCES)) {
                    report.add(bench.instancesCurve(bootstrap, dir, streamThreads));
                }
                if (phases.contains(Phase.SIZES)) {
                    for (int bytes : new int[] {1_000, 10_000, 100_000, 1_000_000}) {
                        report.add(bench.sized(bootstrap, bytes));
                    }
                }
                if (phases.contains(Phase.READS)) {
                    if (!phases.contains(Phase.PIPELINE) && !phases.contains(Phase.PRELOADED)) {
                        // Reads need receipts to read: the agents' histories and their recent receipts.
                        bench.measure(
                                "reads: loading receipts",
                                bootstrap,
                                Topics.DEFAULT_INPUT,
                                Topics.DEFAULT_RECEIPTS,
                                true,
                                bench.warmUpCount(),
                                0);
                    }
                    bench.untilJitQuiet("reads warm-up", 6, round -> {
                        bench.http(
                                "reads warm-up " + round,
                                50,
                                2_000,
                                n -> HttpLoad.Call.get("/score/" + agentName(n % BENCH_AGENTS)));
                        bench.http("reads warm-up " + round, 50, 1_000, n -> HttpLoad.Call.get("/agents?limit=50"));
                    });
                    Figures scores = bench.http(
                            "REST GET /score",
                            50,
                            20_000,
                            n -> HttpLoad.Call.get("/score/" + agentName(n % BENCH_AGENTS)));
                    Figures leaderboard =
                            bench.http("REST GET /agents", 50, 5_000, n -> HttpLoad.Call.get("/agents?limit=50"));
                    Figures recent = bench.http(
                            "REST GET /agents/{id}/receipts",
                            50,
                            2_000,
                            n -> HttpLoad.Call.get( // receipts are for operators
                                    "/agents/" + agentName(n % BENCH_AGENTS) + "/receipts", operator));
                    report.add(String.format(
                            "REST GET /score, 50 clients     %,10.0f answers/s   p50 %d ms, p99 %d ms",
                            scores.rate(), scores.percentile(0.50), scores.percentile(0.99)));
                    report.add(String.format(
                            "REST GET /agents (50 agents), 50 clients %,6.0f answers/s  p50 %d ms, p99 %d ms",
                            leaderboard.rate(), leaderboard.percentile(0.50), leaderboard.percentile(0.99)));
                    report.add(String.format(
                            "REST GET /agents/{id}/receipts (20 read back), 50 clients %,6.0f answers/s  p50 %d ms,"
                                    + " p99 %d ms",
                            recent.rate(), recent.percentile(0.50), recent.percentile(0.99)));
                    if (agents > 0) {
                        bench.loadAgents(bootstrap, bench.agentsInStore + agents);
                        Figures many = bench.http(
                                "REST GET /agents, " + (agents + 50) + " agents",
                                50,
                                5_000,
                                n -> HttpLoad.Call.get("/agents?limit=50"));
                        report.add(String.format(
                                "REST GET /agents (%,d agents), 50 clients %,6.0f answers/s  p50 %d ms, p99 %d ms"
                                        + "  (cost %.2fx that of 50 agents)",
                                agents + 50,
                                many.rate(),
                                many.percentile(0.50),
                                many.percentile(0.99),
                                leaderboard.rate() / many.rate()));
                    }
                }
                if (phases.contains(Phase.AGENTS)) { // after the reads: it grows the leaderboard they measure
                    report.addAll(bench.agentsCurve(node, admin, applicationId, agentCurve, signs));
                }
            }
            int brokers = admin.describeCluster().nodes().get().size();
            if (brokers >= 3 && flat != null) {
                // The same pipeline on the same cluster with one replica per partition, in this run.
                Figures single = bench.singleReplicaPipeline(bootstrap, dir, streamThreads);
                report.add(String.format(
                        "pipeline, %d brokers: replication factor 3 %,.0f receipts/s, replication factor 1 %,.0f"
                                + " receipts/s (3 / 1 = %.2f)",
                        brokers, flat.rate(), single.rate(), flat.rate() / single.rate()));
            }
            if (flat != null && raw != null) {
                report.add(String.format("pipeline / pass-through         %10.1f%%", 100 * flat.rate() / raw.rate()));
            }
            if (flat != null) {
                report.add(String.format(
                        "pipeline / bare sign (1 core)   %10.1f%%  (%.2fx)",
                        100 * flat.rate() / signs, flat.rate() / signs));
            }
            out.println();
            report.forEach(out::println);
        } finally {
            if (broker != null) {
                broker.close();
            }
            deleteTree(dir);
        }
    }

    /**
     * The run's broker logs and state stores: gigabytes after a long run, of no use once the figures
     * are printed, and they filled a disk when every run left its own behind.
     */
    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        }
    }

    /** Bouncy Castle's bare sign rate: the baseline every ratio of the bench is taken against. */
    private double bareSignRate(Duration duration) {
        SigningKey key = SigningKey.generate("bench", new SecureRandom());
        return signRate("bare Ed25519 sign", key::sign, duration);
    }

    /** The same with the signer receipts are signed with (AWS-LC where it loads). */
    private double fastSignRate(Duration duration) {
        SigningKey key = SigningKey.generate("bench", new SecureRandom());
        return signRate("bare Ed25519 sign, " + key.signer().implementation(), key.signer()::sign, duration);
    }

    private double signRate(String label, java.util.function.Function<byte[], byte[]> sign, Duration duration) {
        byte[] message = new byte[2700]; // about a signed invoice receipt
        new SecureRandom().nextBytes(message);
        for (int i = 0; i < 20_000; i++) {
            sign.apply(message); // warm up
        }
        long n = 0;
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        while (System.nanoTime() < end) {
            sign.apply(message);
            n++;
            progress.update(String.format("%s: %,d signatures", label, n));
        }
        double rate = n / ((System.nanoTime() - start) / 1e9);
        progress.done(String.format("%s: %,.0f/s", label, rate));
        return rate;
    }

    private Figures passThrough(String bootstrap) throws Exception {
        String topic = "bench-passthrough-" + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get();
        }
        measure("raw pass-through warm-up", bootstrap, topic, topic, false, warmUpCount(), 0);
        return measure("raw pass-through", bootstrap, topic, topic, false, requests.length, 0);
    }

    /**
     * Runs the pipeline until the JIT is quiet: with the broker, Streams and the clients in one JVM
     * on two cores, the compiler is busy for minutes, and a figure taken while it compiles measures
     * the compiler. Rounds of requests until compiling takes under a tenth of a round's time (at most
     * {@code MAX_WARM_UP_ROUNDS}), each round printed.
     */
    private void warmUp(String bootstrap) throws Exception {
        untilJitQuiet(
                "pipeline warm-up",
                MAX_WARM_UP_ROUNDS,
                round -> measure(
                        "pipeline warm-up " + round,
                        bootstrap,
                        Topics.DEFAULT_INPUT,
                        Topics.DEFAULT_RECEIPTS,
                        true,
                        warmUpCount(),
                        0));
    }

    /** A warm-up step that may fail; {@code round} counts from 1. */
    private interface Round {
        void run(int round) throws Exception;
    }

    /** Rounds until compiling takes under a tenth of a round's time, or {@code maxRounds}. */
    private void untilJitQuiet(String name, int maxRounds, Round round) throws Exception {
        var jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        for (int n = 1; n <= maxRounds; n++) {
            long compiledBefore = jit.getTotalCompilationTime();
            long started = System.nanoTime();
            round.run(n);
            double share = (jit.getTotalCompilationTime() - compiledBefore) / ((System.nanoTime() - started) / 1e6);
            out.printf("  JIT compiling %.0f%% of %s round %d%n", 100 * share, name, n);
            if (share < 0.10) {
                return;
            }
        }
    }

    /** Agents the phases send as, in turn: bench-agent-0 to bench-agent-49. */
    private static final int BENCH_AGENTS = 50;

    /** Agents with receipts in the node's stores: the 50 of every phase, then those loaded for scale. */
    private int agentsInStore = BENCH_AGENTS;

    /**
     * The name of agent {@code k} of those in the store: the 50 the other phases send as, then the
     * ones loaded for scale.
     */
    private static String agentName(int k) {
        return k < BENCH_AGENTS ? "bench-agent-" + k : "scale-agent-" + (k - BENCH_AGENTS);
    }

    /** The template request sent as {@code agent}, under a task id of its own. */
    private byte[] requestAs(String agent, String taskId) {
        return template.replace("\"invoice-7731-draft\"", "\"" + taskId + "\"")
                .replace("\"test-seller-invoice-agent\"", "\"" + agent + "\"")
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Grows the stores to {@code total} agents, one receipt for each new one, through the pipeline:
     * for the leaderboard and the pipeline at scale. Loading runs at the pipeline's rate, so a
     * million agents take minutes.
     */
    private void loadAgents(String bootstrap, int total) throws Exception {
        int from = agentsInStore;
        int agents = total - from;
        if (agents <= 0) {
            return;
        }
        try (KafkaConsumer<byte[], byte[]> consumer = reader(bootstrap, true, Topics.DEFAULT_RECEIPTS)) {
            CompletableFuture<Void> producing =
                    CompletableFuture.runAsync(() -> produce(bootstrap, new AtomicLong(), agents, 0, i -> {
                        String agent = agentName(from + i);
                        return new ProducerRecord<>(
                                Topics.DEFAULT_INPUT, agent, requestAs(agent, "scale-" + (from + i)));
                    }));
            long start = System.nanoTime();
            int received = 0;
            while (received < agents && System.nanoTime() - start < TimeUnit.MINUTES.toNanos(30)) {
                received += consumer.poll(Duration.ofMillis(100)).count();
                progress.update(String.format("loading %,d agents: %,d receipts", agents, received));
            }
            producing.join();
            agentsInStore = from + received;
            progress.done(String.format(
                    "loaded %,d agents in %.1f s (%,d in the stores)",
                    received, (System.nanoTime() - start) / 1e9, agentsInStore));
        }
    }

    private static final int AGENT_CURVE_RUNS = 3;
    private static final Duration CATCH_UP_TIMEOUT = Duration.ofMinutes(10);
    private static final int LONE_REQUESTS = 30;

    /**
     * The pipeline with the stores holding each number of agents of {@code curve} (grown in turn, one
     * receipt per new agent), the measured requests each from an agent drawn at random among them:
     * with a million agents nearly every receipt reads and rewrites an agent history no cache holds,
     * and the rankings hold a million entries. For each: pre-loaded, the median of {@value
     * #AGENT_CURVE_RUNS} runs, and {@value #LONE_REQUESTS} lone requests one at a time.
     */
    private List<String> agentsCurve(ProoflineNode node, Admin admin, String applicationId, int[] curve, double signs)
            throws Exception {
        String bootstrap = node.bootstrapServers();
        untilJitQuiet(
                "agents, pre-loaded warm-up",
                PRELOADED_WARM_UP_ROUNDS,
                round -> preloaded(
                        node, bootstrap, Topics.DEFAULT_RECEIPTS, i -> record(i % BENCH_AGENTS, "warm-" + i)));
        List<String> lines = new ArrayList<>();
        java.util.Random random = new java.util.Random(7);
        for (int agents : curve) {
            if (agents < agentsInStore) { // an earlier phase loaded more: the line prints the real count
                progress.done(String.format(
                        "agents curve: %,d asked for, but the stores already hold %,d", agents, agentsInStore));
            }
            loadAgents(bootstrap, agents);
            // The runs start from stores that have taken in every agent loaded, so what they lag
            // behind at the end is their own.
            CaughtUp.Wait loaded = CaughtUp.await(admin, bootstrap, applicationId, CATCH_UP_TIMEOUT);
            int inStore = agentsInStore;
            String run = "agents-" + inStore + "-";
            double[] rates = new double[AGENT_CURVE_RUNS];
            double[] cpu = new double[AGENT_CURVE_RUNS];
            TopicWrites writes = TopicWrites.start(admin);
            for (int r = 0; r < AGENT_CURVE_RUNS; r++) {
                int[] picks = random.ints(requests.length, 0, inStore).toArray();
                String prefix = run + r + "-";
                record(
                        preloaded(node, bootstrap, Topics.DEFAULT_RECEIPTS, i -> record(picks[i], prefix + i)),
                        rates,
                        cpu,
                        r);
            }
            // The last receipt is not the end of the work: the stores' sub-topology (histories, scores,
            // rankings) may still be behind. Timed, then waited for, so lone requests meet idle threads.
            CaughtUp.Wait behind = CaughtUp.await(admin, bootstrap, applicationId, CATCH_UP_TIMEOUT);
            Map<String, Long> written = writes.since(); // the stores' writes included: they are caught up
            int[] lonePicks = random.ints(LONE_REQUESTS, 0, inStore).toArray();
            long[] lone = loneTrips(bootstrap, LONE_REQUESTS, i -> record(lonePicks[i], run + "lone-" + i));
            double rate = median(rates);
            lines.add(String.format(
                    "agents %,9d: pre-loaded %,7.0f receipts/s (%.2fx bare sign; median of %d, %,.0f-%,.0f), CPU per"
                            + " receipt %,.0f µs; stores %s; then one at a time p50 %d ms, p99 %d ms",
                    inStore,
                    rate,
                    rate / signs,
                    AGENT_CURVE_RUNS,
                    rates[0],
                    rates[AGENT_CURVE_RUNS - 1],
                    median(cpu),
                    behind.describe(),
                    lone[lone.length / 2],
                    lone[lone.length - 1]));
            lines.add(String.format("agents %,9d: ", inStore)
                    + WritesPerReceipt.line(written, (long) AGENT_CURVE_RUNS * requests.length)
                    + "; after loading, the stores " + loaded.describe());
        }
        return lines;
    }

    /** A request from agent {@code k} of those in the store, to the default input, keyed by its agent. */
    private ProducerRecord<String, byte[]> record(int k, String taskId) {
        String agent = agentName(k);
        return new ProducerRecord<>(Topics.DEFAULT_INPUT, agent, requestAs(agent, taskId));
    }

    /**
     * Requests of one size: as fast as they go (all sent at once, after a warm-up of the same size),
     * then one at a time for the latency of a lone request. Dead letters are counted too, so a size
     * the pipeline refuses ends the phase instead of waiting for receipts that never come.
     */
    private String sized(String bootstrap, int bytes) throws Exception {
        byte[] request = SizedRequests.grownTo(template, bytes).getBytes(StandardCharsets.UTF_8);
        int count = (int) Math.max(20, Math.min(requests.length, 40_000_000L / request.length));
        IntFunction<ProducerRecord<String, byte[]>> records =
                i -> new ProducerRecord<>(Topics.DEFAULT_INPUT, agentName(i % BENCH_AGENTS), request);
        try (KafkaConsumer<byte[], byte[]> answers =
                reader(bootstrap, true, Topics.DEFAULT_RECEIPTS, Topics.DEFAULT_DEAD_LETTER)) {
            long[] outcome = drain(answers, bootstrap, Math.min(count, 200), records); // warm-up
            long start = System.nanoTime();
            outcome = drain(answers, bootstrap, count, records);
            double seconds = (System.nanoTime() - start) / 1e9;
            long[] lone = loneTrips(bootstrap, Math.min(count, LONE_REQUESTS), records);
            return String.format(
                    "requests of %,9d bytes: %,7.0f receipts/s (%,6.1f MB/s), %,d dead letters; one at a time p50 %d"
                            + " ms, p99 %d ms",
                    request.length,
                    outcome[0] / seconds,
                    outcome[0] * (double) request.length / seconds / 1e6,
                    outcome[1],
                    lone[lone.length / 2],
                    lone[lone.length - 1]);
        }
    }

    /**
     * Lone requests, one at a time through one producer, after one unmeasured request that connects
     * it: each one's trip from send to its committed receipt or dead letter, in milliseconds, sorted.
     * Each waits for its own answer (answers are counted), and a minute without one ends the bench.
     */
    private static long[] loneTrips(String bootstrap, int count, IntFunction<ProducerRecord<String, byte[]>> records) {
        long[] trips = new long[count];
        try (KafkaConsumer<byte[], byte[]> answers =
                        reader(bootstrap, true, Topics.DEFAULT_RECEIPTS, Topics.DEFAULT_DEAD_LETTER);
                KafkaProducer<String, byte[]> producer = producer(bootstrap, 0)) {
            long answered = 0;
            for (int i = -1; i < count; i++) {
                long sent = System.nanoTime();
                producer.send(records.apply(Math.max(i, 0)));
                producer.flush();
                long deadline = sent + TimeUnit.MINUTES.toNanos(1);
                while (answered < i + 2) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("a lone request had no receipt or dead letter within a minute");
                    }
                    answered += answers.poll(Duration.ofMillis(1)).count();
                }
                if (i >= 0) {
                    trips[i] = (System.nanoTime() - sent) / 1_000_000;
                }
            }
        }
        Arrays.sort(trips);
        return trips;
    }

    /** Sends {@code count} records and waits for as many receipts and dead letters; returns both counts. */
    private long[] drain(
            KafkaConsumer<byte[], byte[]> answers,
            String bootstrap,
            int count,
            IntFunction<ProducerRecord<String, byte[]>> records) {
        produce(bootstrap, new AtomicLong(), count, 0, records);
        long receipts = 0;
        long deadLetters = 0;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (receipts + deadLetters < count && System.nanoTime() < deadline) {
            for (ConsumerRecord<byte[], byte[]> answer : answers.poll(Duration.ofMillis(20))) {
                if (answer.topic().equals(Topics.DEFAULT_RECEIPTS)) {
                    receipts++;
                } else {
                    deadLetters++;
                }
            }
        }
        return new long[] {receipts, deadLetters};
    }

    /** Paced below the flat rate, so the latency measured is the pipeline's, not a queue's. */
    private Figures paced(String bootstrap, Figures flat, Duration pacedFor) throws Exception {
        int rate = (int) Math.max(1, flat.rate() * 0.6);
        int count = (int) Math.min(requests.length, rate * pacedFor.toSeconds());
        return measure(
                "pipeline at " + rate + "/s",
                bootstrap,
                Topics.DEFAULT_INPUT,
                Topics.DEFAULT_RECEIPTS,
                true,
                count,
                rate);
    }

    /**
     * The pipeline alone: every request is produced while processing is paused, then the clock runs
     * from resuming to the last committed receipt, so no producer competes for the cores.
     */
    /** A pre-loaded run: its rate, and the process's CPU from resuming to the last receipt. */
    private record Preloaded(Figures figures, double cpuMicrosPerReceipt, String cpuLine) {}

    private Preloaded preloaded(ProoflineNode node, String bootstrap, Topics topics) throws Exception {
        return preloaded(
                node,
                bootstrap,
                topics.receipts(),
                i -> new ProducerRecord<>(topics.input(), agentName(i % BENCH_AGENTS), requests[i]));
    }

    /** A pre-loaded run of as many requests as the bench has, the {@code i}-th made by {@code records}. */
    private Preloaded preloaded(
            ProoflineNode node,
            String bootstrap,
            String receiptsTopic,
            IntFunction<ProducerRecord<String, byte[]>> records)
            throws Exception {
        try (KafkaConsumer<byte[], byte[]> consumer = reader(bootstrap, true, receiptsTopic)) {
            node.pauseProcessing();
            produce(bootstrap, new AtomicLong(), requests.length, 0, records);
            CpuByThread cpu = CpuByThread.start();
            long start = System.nanoTime();
            node.resumeProcessing();
            int received = 0;
            long deadline = start + TimeUnit.MINUTES.toNanos(10);
            while (received < requests.length && System.nanoTime() < deadline) {
                received += consumer.poll(Duration.ofMillis(100)).count();
                double elapsed = (System.nanoTime() - start) / 1e9;
                progress.update(String.format(
                        "pipeline, pre-loaded: received %,d/%,d  %,.0f/s",
                        received, requests.length, received / elapsed));
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            Figures figures = new Figures("pipeline, pre-loaded", received, seconds, new long[0]);
            progress.done(String.format(
                    "pipeline, pre-loaded: %,d records in %.1f s, %,.0f/s", received, seconds, figures.rate()));
            return new Preloaded(figures, cpu.microsPer(received), cpu.line("receipt", received));
        }
    }

    private static final int LOG_COST_ROUNDS = 5;
    private static final int PRELOADED_WARM_UP_ROUNDS = 6;
    private static final int PRELOADED_RUNS = 3;

    /**
     * The transparency log's cost: two fresh nodes in the bench's broker, identical but for {@code
     * tlog.enabled} (each on topics of its own, with Streams' default metrics, as deployed), take
     * pre-loaded runs in turn ({@value #LOG_COST_ROUNDS} each, the one going first alternating) so
     * that the machine's drift falls on both; the medians of the rates and of the CPU per receipt
     * are compared.
     */
    private String transparencyLogCost(String bootstrap, Path dir, int streamThreads) throws Exception {
        SecondNode withLogNode =
                new SecondNode("bench-log-", bootstrap, dir, streamThreads, Map.of("tlog.enabled", "true"));
        SecondNode noLogNode =
                new SecondNode("bench-nolog-", bootstrap, dir, streamThreads, Map.of("tlog.enabled", "false"));
        double[] with = new double[LOG_COST_ROUNDS];
        double[] without = new double[LOG_COST_ROUNDS];
        double[] withCpu = new double[LOG_COST_ROUNDS];
        double[] withoutCpu = new double[LOG_COST_ROUNDS];
        try (ProoflineNode withLog = withLogNode.start();
                ProoflineNode noLog = noLogNode.start()) {
            for (SecondNode node : List.of(withLogNode, noLogNode)) {
                Topics topics = node.topics();
                measure(
                        node.prefix() + " warm-up",
                        bootstrap,
                        topics.input(),
                        topics.receipts(),
                        true,
                        warmUpCount(),
                        0);
            }
            for (int round = 0; round < LOG_COST_ROUNDS; round++) {
                boolean withFirst = round % 2 == 1;
                if (withFirst) {
                    record(preloaded(withLog, bootstrap, withLogNode.topics()), with, withCpu, round);
                }
                record(preloaded(noLog, bootstrap, noLogNode.topics()), without, withoutCpu, round);
                if (!withFirst) {
                    record(preloaded(withLog, bootstrap, withLogNode.topics()), with, withCpu, round);
                }
            }
        }
        double withMedian = median(with);
        double withoutMedian = median(without);
        return String.format(
                "transparency log: pre-loaded pipeline with it %,.0f receipts/s, without it %,.0f receipts/s (medians"
                        + " of %d runs in turn, with %,.0f-%,.0f, without %,.0f-%,.0f; with / without = %.2f);"
                        + " CPU per receipt with it %,.0f µs, without it %,.0f µs (cost %.0f%%)",
                withMedian,
                withoutMedian,
                LOG_COST_ROUNDS,
                with[0],
                with[LOG_COST_ROUNDS - 1],
                without[0],
                without[LOG_COST_ROUNDS - 1],
                withMedian / withoutMedian,
                median(withCpu),
                median(withoutCpu),
                100 * (median(withCpu) / median(withoutCpu) - 1));
    }

    private static final int INSTANCE_ROUNDS = 3;

    /**
     * One instance against two of the same application (one consumer group, the partitions shared,
     * one deployment key), in this JVM on this machine's cores, all sent at once: the first alone
     * (after warm-up until the JIT is quiet), then with a second that has joined, then alone again
     * once the second has left, so drift during the run falls on both sides; medians. Not
     * pre-loaded: pausing a member that holds warm-up replicas crashes Kafka Streams 4.4's state
     * updater (KAFKA-20731). On one machine this prices a second instance's coordination, not what a
     * second machine would add.
     */
    private String instancesCurve(String bootstrap, Path dir, int streamThreads) throws Exception {
        SecondNode first = new SecondNode("bench-pair-", bootstrap, dir, streamThreads, Map.of());
        first.settings().put("keys.dir", dir.resolve("pair-keys").toString());
        SecondNode second = first.member("b");
        Topics topics = first.topics();
        double[] one = new double[2 * INSTANCE_ROUNDS];
        double[] two = new double[INSTANCE_ROUNDS];
        try (ProoflineNode a = first.start()) {
            untilJitQuiet(
                    "one instance, warm-up",
                    MAX_WARM_UP_ROUNDS,
                    round -> pipelineRun("one instance, warm-up " + round, bootstrap, topics, warmUpCount()));
            for (int round = 0; round < INSTANCE_ROUNDS; round++) {
                one[round] = pipelineRun("one instance", bootstrap, topics, requests.length);
            }
            try (ProoflineNode b = second.start()) {
                pipelineRun("two instances, settling", bootstrap, topics, warmUpCount());
                for (int round = 0; round < INSTANCE_ROUNDS; round++) {
                    two[round] = pipelineRun("two instances", bootstrap, topics, requests.length);
                }
            }
            pipelineRun("one instance again, settling", bootstrap, topics, warmUpCount());
            for (int round = INSTANCE_ROUNDS; round < 2 * INSTANCE_ROUNDS; round++) {
                one[round] = pipelineRun("one instance again", bootstrap, topics, requests.length);
            }
        }
        return String.format(
                "instances, all sent at once: one %,.0f receipts/s (median of %d, before and after), two %,.0f"
                        + " receipts/s (median of %d); two / one = %.2f",
                median(one), one.length, median(two), two.length, median(two) / median(one));
    }

    private double pipelineRun(String name, String bootstrap, Topics topics, int count) throws Exception {
        return measure(name, bootstrap, topics.input(), topics.receipts(), true, count, 0)
                .rate();
    }

    private static void record(Preloaded run, double[] rates, double[] cpu, int round) {
        rates[round] = run.figures().rate();
        cpu[round] = run.cpuMicrosPerReceipt();
    }

    /** The median; sorts the array. */
    private static double median(double[] values) {
        Arrays.sort(values);
        return values[values.length / 2];
    }

    /** A second node in the bench's broker, on topics and an application id of its own, with some settings of its own. */
    private record SecondNode(String prefix, Map<String, String> settings, Path dir) {
        SecondNode(String kind, String bootstrap, Path dir, int streamThreads, Map<String, String> own) {
            this(kind + UUID.randomUUID() + "-", new HashMap<>(own), dir);
            settings.putAll(Map.of(
                    "bootstrap.servers",
                    bootstrap,
                    "http.port",
                    "0",
                    "data.dir",
                    dir.resolve("node-" + prefix).toString(),
                    "application.id",
                    prefix + "app",
                    "streams.num.stream.threads",
                    Integer.toString(streamThreads)));
            settings.putAll(Map.of(
                    "topics.input", topics().input(),
                    "topics.receipts", topics().receipts(),
                    "topics.dead.letter", topics().deadLetter(),
                    "topics.scores", topics().scores()));
        }

        /** Another instance of this node's application: same topics and settings, a data directory of its own. */
        SecondNode member(String name) {
            Map<String, String> own = new HashMap<>(settings);
            own.put("data.dir", dir.resolve("node-" + prefix + name).toString());
            return new SecondNode(prefix, own, dir);
        }

        Topics topics() {
            return new Topics(
                    prefix + Topics.DEFAULT_INPUT,
                    prefix + Topics.DEFAULT_RECEIPTS,
                    prefix + Topics.DEFAULT_DEAD_LETTER,
                    prefix + Topics.DEFAULT_SCORES);
        }

        ProoflineNode start() throws Exception {
            return ProoflineNode.start(ProoflineConfig.load(settings, Map.of()), dir);
        }
    }

    /** A second node whose own topics, and Streams' internal ones, have one replica. */
    private Figures singleReplicaPipeline(String bootstrap, Path dir, int streamThreads) throws Exception {
        SecondNode second = new SecondNode(
                "bench-rf1-",
                bootstrap,
                dir,
                streamThreads,
                Map.of("topics.replication.factor", "1", "topics.min.insync.replicas", "1"));
        Topics topics = second.topics();
        try (ProoflineNode node = second.start()) {
            measure("pipeline RF1 warm-up", bootstrap, topics.input(), topics.receipts(), true, warmUpCount(), 0);
            return measure("pipeline RF1", bootstrap, topics.input(), topics.receipts(), true, requests.length, 0);
        }
    }

    private static final int MAX_WARM_UP_ROUNDS = 12;

    private int warmUpCount() {
        return Math.min(requests.length, 20_000);
    }

    /** Produces every request to {@code in} while reading {@code out}; the clock runs from first send to last read. */
    private Figures measure(
            String name, String bootstrap, String in, String outTopic, boolean readCommitted, int count, int perSecond)
            throws Exception {
        AtomicLong sent = new AtomicLong();
        long[] latencies = new long[count];
        try (KafkaConsumer<byte[], byte[]> consumer = reader(bootstrap, readCommitted, outTopic)) {
            long start = System.nanoTime();
            CompletableFuture<Void> producing =
                    CompletableFuture.runAsync(() -> produce(bootstrap, in, sent, count, perSecond));
            int received = 0;
            long deadline = start + TimeUnit.MINUTES.toNanos(10);
            while (received < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    if (received < latencies.length) {
                        latencies[received] = System.currentTimeMillis() - record.timestamp();
                    }
                    received++;
                }
                double elapsed = (System.nanoTime() - start) / 1e9;
                progress.update(String.format(
                        "%s: sent %,d/%,d  received %,d  %,.0f/s",
                        name, sent.get(), count, received, received / elapsed));
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            producing.join();
            long[] measured = Arrays.copyOf(latencies, Math.min(received, latencies.length));
            Arrays.sort(measured);
            Figures figures = new Figures(name, received, seconds, measured);
            progress.done(String.format("%s: %,d records in %.1f s, %,.0f/s", name, received, seconds, figures.rate()));
            return figures;
        }
    }

    /** A reader of {@code topics} from their ends, already joined, so nothing written after this is missed. */
    private static KafkaConsumer<byte[], byte[]> reader(String bootstrap, boolean readCommitted, String... topics) {
        Map<String, Object> consumerConfig = new HashMap<>();
        consumerConfig.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, "bench-" + UUID.randomUUID());
        consumerConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        consumerConfig.put(
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, readCommitted ? "read_committed" : "read_uncommitted");
        consumerConfig.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024); // 1 MB requests
        KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(consumerConfig, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(topics));
        while (consumer.assignment().isEmpty()) {
            consumer.poll(Duration.ofMillis(100)); // join before producing, so "latest" misses nothing
        }
        return consumer;
    }

    /**
     * {@code clients} connections, each sending its next request as soon as the last is answered,
     * until {@code count} answers; {@code call} makes the n-th request.
     */
    private Figures http(String name, int clients, int count, IntFunction<HttpLoad.Call> call) throws Exception {
        long start = System.nanoTime();
        AtomicLong sent = new AtomicLong();
        HttpLoad.Result result = load.run(
                clients,
                count,
                n -> {
                    sent.set(n);
                    return call.apply(n);
                },
                () -> {
                    double elapsed = (System.nanoTime() - start) / 1e9;
                    progress.update(
                            String.format("%s: %,d/%,d sent  %,.0f/s", name, sent.get(), count, sent.get() / elapsed));
                });
        Figures figures = new Figures(name, count, result.seconds(), result.latenciesMillis());
        progress.done(String.format(
                "%s: %,d answers in %.1f s, %,.0f/s, %d not 200",
                name, count, result.seconds(), figures.rate(), result.failures()));
        return figures;
    }

    /** The HTTP clients of every REST phase, kept open from phase to phase as a client's pool would. */
    private HttpLoad load;

    private HttpLoad httpLoad(String url) throws IOException {
        load = new HttpLoad(URI.create(url));
        return load;
    }

    private void produce(String bootstrap, String topic, AtomicLong sent, int count, int perSecond) {
        produce(
                bootstrap,
                sent,
                count,
                perSecond,
                i -> new ProducerRecord<>(topic, agentName(i % BENCH_AGENTS), requests[i]));
    }

    private void produce(
            String bootstrap,
            AtomicLong sent,
            int count,
            int perSecond,
            IntFunction<ProducerRecord<String, byte[]>> record) {
        try (KafkaProducer<String, byte[]> producer = producer(bootstrap, 5)) {
            long start = System.nanoTime();
            for (int i = 0; i < count; i++) {
                if (perSecond > 0) {
                    long due = start + (long) (i * 1e9 / perSecond);
                    long wait = due - System.nanoTime();
                    if (wait > 0) {
                        java.util.concurrent.locks.LockSupport.parkNanos(wait);
                    }
                }
                producer.send(record.apply(i));
                sent.incrementAndGet();
            }
            producer.flush();
        }
    }

    private static KafkaProducer<String, byte[]> producer(String bootstrap, int lingerMs) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.LINGER_MS_CONFIG, lingerMs);
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        config.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 * 1024 * 1024); // the sizes phase sends 1 MB requests
        return new KafkaProducer<>(config, new StringSerializer(), new ByteArraySerializer());
    }
}
