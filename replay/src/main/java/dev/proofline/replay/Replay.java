package dev.proofline.replay;

import dev.proofline.attestor.Attestor;
import dev.proofline.attestor.CanonicalJsonException;
import dev.proofline.attestor.KeyRing;
import dev.proofline.attestor.RequestHashes;
import dev.proofline.attestor.SigningKey;
import dev.proofline.attestor.StrictJson;
import dev.proofline.contract.AgentIds;
import dev.proofline.contract.CorrelationIds;
import dev.proofline.contract.ErrorDocument;
import dev.proofline.contract.Headers;
import dev.proofline.contract.RequestFields;
import dev.proofline.contract.Topics;
import dev.proofline.engine.EngineSettings;
import dev.proofline.engine.RequestParser;
import dev.proofline.engine.Verdict;
import dev.proofline.engine.VerificationEngine;
import dev.proofline.schemas.VerificationIds;
import dev.proofline.schemas.avro.Receipt;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.Deserializer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Re-verifies a stretch of the input topic under candidate rules and compares each verdict with
 * the one the deployment gave ({@code docs/replay.md}). Two reads: the requests (each re-verified
 * as it is read, paced by the throttle), then the receipts and dead letters from the earliest
 * request's time until every request's original is found. Nothing is written to Kafka; the
 * candidate receipts are signed with a key made for this run and forgotten, never the deployment's.
 *
 * <pre>{@code
 * ReplayReport report = Replay.builder()
 *         .kafka(Map.of("bootstrap.servers", "127.0.0.1:9092"))
 *         .range(ReplayRange.parse("2026-11-23T00:00:00Z", "end"))
 *         .candidate(CandidateRules.read(Optional.of(rulesFile), Optional.empty()))
 *         .verificationIds(ids)
 *         .receipts(receiptDeserializer)
 *         .build()
 *         .run();
 * }</pre>
 */
public final class Replay {
    /** Told of each request replayed and of the phase under way; the CLI prints it. */
    public interface Progress {
        Progress SILENT = new Progress() {};

        default void phase(String what) {}

        default void replayed(long requests) {}
    }

    /**
     * Looking up an original is only a read, about a tenth of the work of re-verifying a request on
     * this machine, so that read is paced at ten times the rate set for re-verification.
     */
    private static final int READS_PER_VERIFICATION = 10;

    private final Map<String, Object> kafka;
    private final Topics topics;
    private final ReplayRange range;
    private final CandidateRules candidate;
    private final VerificationIds ids;
    private final Deserializer<Receipt> receipts;
    private final VerificationEngine engine;
    private final EngineSettings settings;
    private final int maxRecordsPerSecond;
    private final Duration stallTimeout;
    private final Progress progress;
    private final String from;
    private final String to;

    private Replay(Builder b) {
        this.kafka = Map.copyOf(Objects.requireNonNull(b.kafka, "kafka"));
        this.topics = b.topics;
        this.range = Objects.requireNonNull(b.range, "range");
        this.candidate = Objects.requireNonNull(b.candidate, "candidate");
        this.ids = Objects.requireNonNull(b.ids, "verificationIds");
        this.receipts = Objects.requireNonNull(b.receipts, "receipts");
        this.settings = b.settings;
        this.maxRecordsPerSecond = b.maxRecordsPerSecond;
        this.stallTimeout = b.stallTimeout;
        this.progress = b.progress;
        this.from = b.fromText;
        this.to = b.toText;
        // A key of this run only: candidate receipts are never mistaken for the deployment's.
        this.engine = new VerificationEngine(
                settings, new Attestor(KeyRing.of(SigningKey.generate("replay", new SecureRandom()))));
        if (engine.process(candidate.probe(), new UUID(0, 0), Instant.EPOCH) instanceof Verdict.Refused refused) {
            throw new IllegalArgumentException("the candidate rules are not valid: "
                    + refused.error().message().replace(ErrorDocument.INVALID_REQUEST_ADVICE, ""));
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public ReplayReport run() throws InterruptedException {
        Map<UUID, Replayed> replayed = new LinkedHashMap<>();
        long[] earliest = {Long.MAX_VALUE};
        progress.phase("re-verifying " + topics.input());
        Throttle throttle = new Throttle(maxRecordsPerSecond);
        try (BoundedReader requests = new BoundedReader(kafka, Map.of(topics.input(), range.start()), stallTimeout)) {
            requests.read(record -> {
                if (range.includes(record.timestamp())) {
                    throttle.acquire();
                    Replayed r = replay(record);
                    replayed.put(r.verificationId(), r);
                    // A record written with no time (-1) has its receipt somewhere after the start.
                    earliest[0] = Math.min(earliest[0], Math.max(0, record.timestamp()));
                    progress.replayed(replayed.size());
                }
                return true;
            });
        }
        progress.phase("finding the original receipts");
        Map<UUID, Outcome> originals = new Originals(kafka, topics, receipts, stallTimeout)
                .find(replayed, earliest[0], new Throttle(maxRecordsPerSecond * READS_PER_VERIFICATION));
        return ReplayReport.of(
                new ReplayReport.Scope(
                        topics.input(),
                        from,
                        to,
                        candidate.rulesHash(),
                        candidate.schemaHash(),
                        EngineSettings.VERIFIER_VERSION),
                new ArrayList<>(replayed.values()),
                originals);
    }

    /** Re-verifies one request exactly as the pipeline would, under the candidate rules. */
    Replayed replay(ConsumerRecord<byte[], byte[]> record) {
        UUID id = ids.of(record.topic(), record.partition(), record.offset());
        Instant at = Instant.ofEpochMilli(record.timestamp());
        byte[] value = record.value() == null ? new byte[0] : record.value();
        JsonNode request = null;
        if (value.length <= settings.maxRequestBytes()) {
            try {
                request = StrictJson.parse(value);
            } catch (CanonicalJsonException e) {
                // not JSON: the engine refuses the bytes below, as the pipeline did
            }
        }
        // The pipeline refuses a record it could not answer under its correlation id before verifying it.
        List<byte[]> correlationIds = new ArrayList<>(1);
        record.headers().headers(Headers.CORRELATION_ID).forEach(h -> correlationIds.add(h.value()));
        Optional<ErrorDocument> unanswerable = CorrelationIds.problem(correlationIds);
        Outcome outcome;
        if (unanswerable.isPresent()) {
            outcome = Outcome.ofDeadLetter(unanswerable.get().code().code());
        } else {
            Verdict verdict = request instanceof ObjectNode object
                    ? engine.process(candidate.apply(object), id, at)
                    : engine.process(value, id, at);
            outcome = verdict instanceof Verdict.Signed signed
                    ? Outcome.ofReceipt(signed.receipt())
                    : Outcome.ofDeadLetter(
                            ((Verdict.Refused) verdict).error().code().code());
        }
        return new Replayed(
                record.partition(),
                record.offset(),
                record.timestamp(),
                id,
                agentId(request),
                taskId(request),
                outcome,
                request instanceof ObjectNode object ? hashes(object) : Map.of());
    }

    private static Map<String, String> hashes(ObjectNode request) {
        try {
            RequestHashes hashes = RequestHashes.of(request);
            Map<String, String> byName = new HashMap<>();
            RequestHashes.NAMES.forEach(name -> byName.put(name, hashes.byName(name)));
            return byName;
        } catch (CanonicalJsonException e) {
            return Map.of(); // no canonical form, so no receipt could have recorded its hashes
        }
    }

    /**
     * The request's agent id when it is as long as any agent id may be ({@link AgentIds}), else null:
     * a record on the input topic may carry a megabyte there (such a request is refused, never
     * scored). Not today's character rules: requests sent before them were scored, and a replay of
     * them must count them as they were. The summary escapes what a terminal would act on.
     */
    private static String agentId(JsonNode request) {
        return ofLength(text(request, RequestFields.AGENT_ID), AgentIds.MAX_CODE_POINTS);
    }

    /**
     * The request's task id when it is one a request may have (1 to {@value RequestParser#MAX_ID_LENGTH}
     * characters), else null: a replay keeps a few hundred bytes per request, not a megabyte.
     */
    private static String taskId(JsonNode request) {
        return ofLength(text(request, RequestFields.TASK_ID), RequestParser.MAX_ID_LENGTH);
    }

    /** {@code id} when it has 1 to {@code most} code points (counted only when short enough to), else null. */
    private static String ofLength(String id, int most) {
        return id != null && !id.isEmpty() && id.length() <= 2 * most && id.codePointCount(0, id.length()) <= most
                ? id
                : null;
    }

    private static String text(JsonNode request, String field) {
        JsonNode value = request == null ? null : request.get(field);
        return value != null && value.isString() ? value.asString() : null;
    }

    /** Settings of a replay; kafka, range, candidate, verification ids and receipts are required. */
    public static final class Builder {
        private Map<String, Object> kafka;
        private Topics topics = Topics.defaults();
        private ReplayRange range;
        private String fromText = "";
        private String toText = "end";
        private CandidateRules candidate;
        private VerificationIds ids;
        private Deserializer<Receipt> receipts;
        private EngineSettings settings = EngineSettings.defaults();
        private int maxRecordsPerSecond = 0;
        private Duration stallTimeout = Duration.ofSeconds(60);
        private Progress progress = Progress.SILENT;

        private Builder() {}

        /** Client properties: bootstrap servers and any security settings. */
        public Builder kafka(Map<String, Object> kafka) {
            this.kafka = kafka;
            return this;
        }

        public Builder topics(Topics topics) {
            this.topics = topics;
            return this;
        }

        /** The range, and the words it was given in (printed in the report as given). */
        public Builder range(String from, String to) {
            this.range = ReplayRange.parse(from, to);
            this.fromText = from;
            this.toText = to == null ? "end" : to;
            return this;
        }

        public Builder candidate(CandidateRules candidate) {
            this.candidate = candidate;
            return this;
        }

        /** The deployment's verification ids: how a request's receipt is found. */
        public Builder verificationIds(VerificationIds ids) {
            this.ids = ids;
            return this;
        }

        /** Reads the receipts topic's records (Avro, through the deployment's schema registry). */
        public Builder receipts(Deserializer<Receipt> receipts) {
            this.receipts = receipts;
            return this;
        }

        /** The deployment's engine settings (request size, work budget, format assertion). */
        public Builder engineSettings(EngineSettings settings) {
            this.settings = settings;
            return this;
        }

        /** At most this many records a second in each read; 0 for no limit. */
        public Builder maxRecordsPerSecond(int perSecond) {
            this.maxRecordsPerSecond = perSecond;
            return this;
        }

        public Builder stallTimeout(Duration timeout) {
            this.stallTimeout = timeout;
            return this;
        }

        public Builder progress(Progress progress) {
            this.progress = progress;
            return this;
        }

        public Replay build() {
            return new Replay(this);
        }
    }
}
