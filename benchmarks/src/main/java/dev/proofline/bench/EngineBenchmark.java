package dev.proofline.bench;

import dev.proofline.attestor.Attestor;
import dev.proofline.attestor.KeyRing;
import dev.proofline.attestor.RequestHashes;
import dev.proofline.attestor.SigningKey;
import dev.proofline.attestor.StrictJson;
import dev.proofline.engine.EngineSettings;
import dev.proofline.engine.ParseOutcome;
import dev.proofline.engine.SignedReceipt;
import dev.proofline.engine.UnsignedReceipt;
import dev.proofline.engine.VerificationEngine;
import dev.proofline.engine.VerificationRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import tools.jackson.databind.JsonNode;

/**
 * The engine on the conformance draft invoice, one thread: end to end and stage by stage, beside
 * bare Ed25519 signing of a message the size of the receipt, so the ratio says how close the engine
 * runs to the cost of its signature.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar} from the repository root.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// The JVM the `proofline` script starts: 1 GiB, the parallel collector.
@Fork(
        value = 1,
        jvmArgs = {"-Xmx1g", "-XX:+UseParallelGC"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Threads(1)
public class EngineBenchmark {
    private static final Instant AT = Instant.parse("2026-11-29T10:00:00Z");
    private static final UUID ID = UUID.fromString("00000000-0000-4000-8000-000000000001");

    private VerificationEngine engine;
    private SigningKey key;
    private byte[] requestBytes;
    private JsonNode requestTree;
    private VerificationRequest request;
    private UnsignedReceipt unsignedReceipt;
    private byte[] receiptSizedMessage;

    @Setup
    public void setUp() throws IOException {
        key = SigningKey.generate("v1-bench", new SecureRandom());
        engine = new VerificationEngine(EngineSettings.defaults(), new Attestor(KeyRing.of(key)));
        requestBytes = Files.readAllBytes(conformance().resolve("requests/invoice-draft.json"));
        requestTree = StrictJson.parse(requestBytes);
        request = ((ParseOutcome.Valid) engine.parser().parse(requestBytes)).request();
        unsignedReceipt = engine.evaluate(request, ID, AT);
        // What Ed25519 signs for this receipt: the canonical message is the receipt plus ~150 bytes.
        receiptSizedMessage = new byte[VerificationEngine.canonical(unsignedReceipt).length + 150];
        new SecureRandom().nextBytes(receiptSizedMessage);
    }

    /** parse → validate → hash → schema + rules → assemble → sign: what the topology does per record. */
    @Benchmark
    public SignedReceipt endToEnd() {
        ParseOutcome.Valid valid = (ParseOutcome.Valid) engine.parser().parse(requestBytes);
        return engine.verify(valid.request(), ID, AT);
    }

    /** Bytes to a Jackson tree, duplicate keys checked. */
    @Benchmark
    public JsonNode stage1ParseJson() {
        return StrictJson.parse(requestBytes);
    }

    /** Field checks, rule and path parsing, the four hashes and the schema-cache lookup. */
    @Benchmark
    public ParseOutcome stage2ValidateAndHash() {
        return engine.parser().parse(requestTree);
    }

    /** The four hashes alone (part of stage 2). */
    @Benchmark
    public RequestHashes stage2aHashesOnly() {
        return RequestHashes.of(requestTree);
    }

    /** JSON Schema with check counting, rules, bounds, content checks and what the receipt says. */
    @Benchmark
    public UnsignedReceipt stage3Evaluate() {
        return engine.evaluate(request, ID, AT);
    }

    /** The receipt's RFC 8785 form in the signed message, the Ed25519 signature, and the published form. */
    @Benchmark
    public SignedReceipt stage4Sign() {
        return engine.sign(unsignedReceipt);
    }

    /** The RFC 8785 form of the receipt alone (part of stage 4): what signing writes before it signs. */
    @Benchmark
    public byte[] stage4aCanonicalReceipt() {
        return VerificationEngine.canonical(unsignedReceipt);
    }

    /** The baseline: Bouncy Castle Ed25519 over a message of the same size, nothing else. */
    @Benchmark
    public byte[] bareEd25519Sign() {
        return key.sign(receiptSizedMessage);
    }

    /** The same with the signer receipts are signed with: AWS-LC where it loads, else Bouncy Castle. */
    @Benchmark
    public byte[] bareEd25519SignAsReceipts() {
        return key.signer().sign(receiptSizedMessage);
    }

    private static Path conformance() {
        for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("conformance/expected.json"))) {
                return dir.resolve("conformance");
            }
        }
        throw new IllegalStateException("run from inside the repository: no conformance/ found");
    }
}
