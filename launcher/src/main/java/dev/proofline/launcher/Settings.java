package dev.proofline.launcher;

import dev.proofline.contract.Topics;
import dev.proofline.engine.EngineSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Every setting an operator can make, each declared once with its key, type, default and purpose
 * (Kafka's {@code ConfigDef} is the model). {@link ProoflineSettings#resolve} reads them all at start;
 * nothing else reads the configuration.
 */
public final class Settings {
    public static final Setting<Path> DATA_DIR = Setting.path(
            "data.dir", "<PROOFLINE_HOME>/.proofline", "everything persistent: broker log, keys, Streams state");
    public static final Setting<Path> KEYS_DIR = Setting.path(
            "keys.dir", "<data.dir>/keys", "the signing key ring; instances sharing the work must share it");
    public static final Setting<String> HOST = Setting.text("host", "127.0.0.1", "address the HTTP server listens on");
    public static final Setting<String> KAFKA_HOST = Setting.text(
            "kafka.host",
            "127.0.0.1",
            "address the embedded broker listens on; loopback unless set, whatever host says, since anyone"
                    + " who can reach it can write requests and read receipts");
    public static final Setting<Integer> KAFKA_PORT =
            Setting.integer("kafka.port", 9092, 0, 65535, "port of the embedded broker");
    public static final Setting<Integer> HTTP_PORT =
            Setting.integer("http.port", 8080, 0, 65535, "port of the HTTP server");
    public static final Setting<String> BOOTSTRAP_SERVERS =
            Setting.optionalText("bootstrap.servers", "", "an external Kafka cluster; when set, no broker is started");
    public static final Setting<String> SCHEMA_REGISTRY_URL = Setting.optionalText(
            "schema.registry.url",
            "",
            "an external Confluent-compatible registry; when unset Proofline serves its own");
    public static final Setting<String> PUBLIC_URL = Setting.optionalText(
            "public.url", "http://<host>:<http.port>", "base URL receipts point to (agent-card, MCP)");
    public static final Setting<String> APPLICATION_ID = Setting.text(
            "application.id", "proofline", "Kafka Streams application id; instances sharing it share the work");
    public static final Setting<String> TOPICS_INPUT =
            Setting.text("topics.input", Topics.DEFAULT_INPUT, "verification requests");
    public static final Setting<String> TOPICS_RECEIPTS =
            Setting.text("topics.receipts", Topics.DEFAULT_RECEIPTS, "signed receipts");
    public static final Setting<String> TOPICS_DEAD_LETTER =
            Setting.text("topics.dead.letter", Topics.DEFAULT_DEAD_LETTER, "records that could not be verified");
    public static final Setting<String> TOPICS_SCORES =
            Setting.text("topics.scores", Topics.DEFAULT_SCORES, "every agent's score after each change (compacted)");
    public static final Setting<Integer> TOPICS_PARTITIONS =
            Setting.integer("topics.partitions", 3, 1, 10_000, "partitions of the topics Proofline creates");
    public static final Setting<Short> TOPICS_REPLICATION_FACTOR = new Setting<>(
            "topics.replication.factor",
            Short::parseShort,
            null,
            "1 embedded; 3 on a cluster of 3 or more brokers; else the broker default",
            "replicas of the topics Proofline creates (its own, the registry's, Kafka Streams' internal ones)");
    public static final Setting<Integer> TOPICS_MIN_INSYNC_REPLICAS = new Setting<>(
            "topics.min.insync.replicas",
            Integer::parseInt,
            null,
            "2 with 3 or more replicas, else the broker default",
            "replicas that must have a write before it counts, on the topics Proofline creates");
    public static final Setting<Integer> MAX_REQUEST_BYTES = Setting.integer(
            "max.request.bytes",
            1048576,
            1024,
            64 * 1048576,
            "largest request accepted; larger ones are dead-lettered (413)");
    public static final Setting<Duration> VERIFY_TIMEOUT = Setting.seconds(
            "verify.timeout.seconds",
            10,
            "how long POST /verify/schema waits for its receipt before answering 504 receipt_pending");
    public static final Setting<Integer> VERIFY_MAX_WAITING_MB = Setting.integer(
            "verify.max.waiting.mb",
            128,
            1,
            1_000_000,
            "request bytes the REST and MCP verifications of one instance may hold while they wait for their"
                    + " receipts; past it a request gets 503 server_busy before it is published or paid for");
    public static final Setting<Duration> RECEIPT_INDEX_RETENTION = Setting.hours(
            "receipts.index.retention.hours",
            168,
            "how long GET /receipts/{verification_id} can find a receipt (the receipts topic must keep it as long)");
    public static final Setting<Integer> RECEIPTS_CACHE_MB = Setting.integer(
            "receipts.cache.mb",
            64,
            0,
            65536,
            "memory for the newest receipts, read back without the broker (GET /agents/{id}/receipts,"
                    + " /receipts/{id}); 0 turns it off");

    public static final Setting<Long> VERIFY_BUDGET_STEPS = new Setting<>(
            "verify.budget.steps",
            Settings::positiveLong,
            EngineSettings.DEFAULT_BUDGET_STEPS,
            Long.toString(EngineSettings.DEFAULT_BUDGET_STEPS),
            "most evaluation steps one request may take (schema keywords applied, values examined by rules);"
                    + " more is verification_budget_exceeded");
    public static final Setting<Integer> SCORES_HALF_LIFE_DAYS = Setting.integer(
            "scores.half.life.days",
            30,
            1,
            3650,
            "half-life of a receipt's weight in decayed_score; changing it applies to receipts counted from then on"
                    + " (rebuild the scores with a fresh application.id to apply it to all)");
    public static final Setting<Boolean> TLOG_ENABLED = Setting.flag(
            "tlog.enabled",
            true,
            "append every receipt to the transparency log (docs/tlog.md); false runs none (the bench measures its cost"
                    + " this way)");
    public static final Setting<String> TLOG_ORIGIN = Setting.optionalText(
            "tlog.origin",
            "public.url's host and path, then /tlog",
            "the transparency log's checkpoint origin and key name (C2SP: the log's URL prefix without scheme);"
                    + " instances of one deployment must agree on it; its topic is <application.id>-tlog; a log"
                    + " begun again with the same keys (Kafka state reset) needs a new one, or gets no checkpoint"
                    + " (docs/tlog.md)");
    public static final Setting<Integer> TLOG_CHECKPOINT_INTERVAL_MS = Setting.integer(
            "tlog.checkpoint.interval.ms",
            1000,
            10,
            60_000,
            "longest time between two signed checkpoints of the transparency log while receipts arrive (one is"
                    + " also signed every 1,024 entries)");
    public static final Setting<Integer> REPLAY_MAX_RECORDS_PER_SECOND = Setting.integer(
            "replay.max.records.per.second",
            2000,
            0,
            1_000_000,
            "most records a replay reads (and re-verifies) per second, so it never starves the live pipeline;"
                    + " 0 for no limit");
    public static final Setting<Boolean> VERIFY_FORMAT_ASSERTION = Setting.flag(
            "verify.format.assertion",
            true,
            "check the JSON Schema format keyword (date, email, uuid...) as an assertion; false keeps the"
                    + " specification's annotation-only default, where format never fails");
    public static final Setting<Integer> VERIFY_EAGER_COMMIT_MS = Setting.integer(
            "verify.eager.commit.ms",
            50,
            0,
            60_000,
            "a request whose verification starts within this many ms of its being written commits at once, so its"
                    + " receipt (and a REST answer) does not wait for streams.commit.interval.ms; older ones (a"
                    + " backlog) wait for the interval; 0: never");
    public static final Setting<Integer> VERIFY_EAGER_COMMIT_GAP_MS = Setting.integer(
            "verify.eager.commit.gap.ms",
            15,
            0,
            10_000,
            "the least time between two commits asked for by verify.eager.commit.ms on one stream thread when"
                    + " requests arrive together: they wait out the gap and share one transaction (fewer, fuller"
                    + " transactions under load); one caller at a time still commits at once; 0: no gap");
    public static final Setting<Long> RECEIPTS_RETENTION_MS = new Setting<>(
            "topics.receipts.retention.ms",
            Long::parseLong,
            -1L,
            "-1",
            "how long the receipts topic keeps receipts (-1: for ever); scores, the receipt"
                    + " index, GET /receipts and replays read it");
    public static final Setting<Long> INPUT_RETENTION_MS = new Setting<>(
            "topics.input.retention.ms",
            Long::parseLong,
            604_800_000L,
            "604800000",
            "how long requests stay on the input topic (7 days); a"
                    + " replay under new rules can reach back this far");
    public static final Setting<Long> DEAD_LETTER_RETENTION_MS = new Setting<>(
            "topics.dead.letter.retention.ms",
            Long::parseLong,
            2_592_000_000L,
            "2592000000",
            "how long refused records stay on the dead-letter topic" + " (30 days)");

    public static final Setting<Integer> HTTP_MAX_CONNECTIONS = Setting.integer(
            "http.max.connections",
            2_000,
            1,
            1_000_000,
            "HTTP connections one instance holds open; at the limit new ones wait in the backlog until one"
                    + " closes, and idle ones close after 5 s instead of 30 s");
    public static final Setting<Integer> HTTP_MAX_CONNECTIONS_PER_ADDRESS = Setting.integer(
            "http.max.connections.per.address",
            256,
            1,
            1_000_000,
            "HTTP connections one client address may hold open at once; one more is answered 503 server_busy"
                    + " and closed before its request is read (trusted proxies, http.trusted.proxies, are not"
                    + " capped), so one client cannot take every connection");
    public static final Setting<Integer> HTTP_MAX_THREADS = Setting.integer(
            "http.max.threads",
            1_024,
            16,
            100_000,
            "threads serving HTTP requests (Jetty's acceptor and selector among them); a REST verification"
                    + " holds one until its receipt is committed, so this also bounds the verifications in flight"
                    + " (more wait for a thread)");
    public static final Setting<Duration> HTTP_HEAD_TIMEOUT = Setting.seconds(
            "http.head.timeout.seconds",
            20,
            "how long a request's line and headers may take to arrive once they have begun, however they"
                    + " trickle in; the connection is closed after that");
    public static final Setting<Duration> HTTP_BODY_TIMEOUT = Setting.seconds(
            "http.body.timeout.seconds",
            20,
            "how long a request's body may take to arrive whole once a server thread has taken the request,"
                    + " however it trickles in (the idle timeout bounds only the silence between two bytes); a"
                    + " slower one gets 408 and frees its thread");
    public static final Setting<Integer> FEED_MAX_CLIENTS = Setting.integer(
            "http.feed.max.clients",
            256,
            1,
            100_000,
            "live-feed connections one instance serves at once; more get 503 server_busy");
    public static final Setting<Duration> FEED_MAX_CONNECTED = Setting.seconds(
            "http.feed.max.connected.seconds",
            3600,
            "how long one live-feed connection is kept before it is closed (browsers reconnect)");
    public static final Setting<Integer> MCP_MAX_CONNECTIONS = Setting.integer(
            "mcp.max.connections",
            64,
            1,
            100_000,
            "MCP requests one instance serves at once (a tool call holds its slot until answered); more get 503"
                    + " server_busy");
    public static final Setting<Integer> MCP_MAX_SESSIONS = Setting.integer(
            "mcp.max.sessions",
            10_000,
            1,
            10_000_000,
            "MCP sessions one instance keeps at once (each until deleted or idle 5-10 minutes); an initialize"
                    + " past it gets 503 server_busy");

    public static final Setting<String> TOPICS_CALLERS = Setting.optionalText(
            "topics.callers",
            "<application.id>-callers",
            "caller keys (compacted; records authenticated with the deployment secret)");
    public static final Setting<List<String>> TRUSTED_PROXIES = Setting.list(
            "http.trusted.proxies",
            "proxies (addresses or CIDR ranges) whose X-Forwarded-For is believed when identifying an"
                    + " anonymous caller; none by default");
    public static final Setting<List<String>> CORS_ORIGINS =
            Setting.list("http.cors.origins", "browser origins allowed to call the API (CORS); none by default");

    public static final Setting<Integer> ALLOWANCE_PER_DAY = Setting.integer(
            "allowance.per.day",
            1000,
            0,
            Integer.MAX_VALUE,
            "free verifications per caller per UTC day (REST and MCP together); a key may carry its own");
    public static final Setting<String> PAYMENT_FACILITATOR_URL = Setting.optionalText(
            "payment.facilitator.url", "", "an x402 facilitator; when set, past the allowance is 402 (pay), else 429");
    public static final Setting<String> PAYMENT_NETWORK =
            Setting.text("payment.network", "eip155:8453", "the network payments are made on (CAIP-2; Base)");
    public static final Setting<String> PAYMENT_ASSET = Setting.text(
            "payment.asset",
            "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
            "the EIP-3009 token paid with (USDC on Base)");
    public static final Setting<String> PAYMENT_ASSET_NAME =
            Setting.text("payment.asset.name", "USD Coin", "the token's EIP-712 domain name");
    public static final Setting<String> PAYMENT_ASSET_VERSION =
            Setting.text("payment.asset.version", "2", "the token's EIP-712 domain version");
    public static final Setting<String> PAYMENT_PAY_TO =
            Setting.optionalText("payment.pay.to", "", "the address payments go to (required with a facilitator)");
    public static final Setting<Long> PAYMENT_PRICE_VERIFY = new Setting<>(
            "payment.price.verify",
            Settings::nonNegativeLong,
            20_000L,
            "20000",
            "price of one verification past the allowance, in the token's atomic units ($0.02 USDC)");
    public static final Setting<Long> PAYMENT_PRICE_SCORE = new Setting<>(
            "payment.price.score",
            Settings::nonNegativeLong,
            0L,
            "0",
            "price of a signed GET /score answer (and MCP get_verification_record), atomic units; 0: scores stay free");
    public static final Setting<Integer> PAYMENT_MAX_TIMEOUT_SECONDS = Setting.integer(
            "payment.max.timeout.seconds",
            60,
            10,
            3600,
            "how long a payment authorization must stay valid (x402 maxTimeoutSeconds); more than verify.timeout.seconds + 10");

    public static final List<Setting<?>> ALL = List.of(
            DATA_DIR,
            KEYS_DIR,
            HOST,
            KAFKA_HOST,
            KAFKA_PORT,
            HTTP_PORT,
            BOOTSTRAP_SERVERS,
            SCHEMA_REGISTRY_URL,
            PUBLIC_URL,
            APPLICATION_ID,
            TOPICS_INPUT,
            TOPICS_RECEIPTS,
            TOPICS_DEAD_LETTER,
            TOPICS_SCORES,
            TOPICS_CALLERS,
            TOPICS_PARTITIONS,
            TOPICS_REPLICATION_FACTOR,
            TOPICS_MIN_INSYNC_REPLICAS,
            MAX_REQUEST_BYTES,
            VERIFY_TIMEOUT,
            VERIFY_MAX_WAITING_MB,
            VERIFY_BUDGET_STEPS,
            VERIFY_FORMAT_ASSERTION,
            VERIFY_EAGER_COMMIT_MS,
            VERIFY_EAGER_COMMIT_GAP_MS,
            SCORES_HALF_LIFE_DAYS,
            REPLAY_MAX_RECORDS_PER_SECOND,
            TLOG_ENABLED,
            TLOG_ORIGIN,
            TLOG_CHECKPOINT_INTERVAL_MS,
            RECEIPT_INDEX_RETENTION,
            RECEIPTS_CACHE_MB,
            INPUT_RETENTION_MS,
            RECEIPTS_RETENTION_MS,
            DEAD_LETTER_RETENTION_MS,
            HTTP_MAX_CONNECTIONS,
            HTTP_MAX_CONNECTIONS_PER_ADDRESS,
            HTTP_MAX_THREADS,
            HTTP_HEAD_TIMEOUT,
            HTTP_BODY_TIMEOUT,
            FEED_MAX_CLIENTS,
            FEED_MAX_CONNECTED,
            MCP_MAX_CONNECTIONS,
            MCP_MAX_SESSIONS,
            TRUSTED_PROXIES,
            CORS_ORIGINS,
            ALLOWANCE_PER_DAY,
            PAYMENT_FACILITATOR_URL,
            PAYMENT_NETWORK,
            PAYMENT_ASSET,
            PAYMENT_ASSET_NAME,
            PAYMENT_ASSET_VERSION,
            PAYMENT_PAY_TO,
            PAYMENT_PRICE_VERIFY,
            PAYMENT_PRICE_SCORE,
            PAYMENT_MAX_TIMEOUT_SECONDS);

    private Settings() {}

    private static long nonNegativeLong(String text) {
        long value = Long.parseLong(text);
        if (value < 0) {
            throw new IllegalArgumentException("must be 0 or more");
        }
        return value;
    }

    private static long positiveLong(String text) {
        long value = Long.parseLong(text);
        if (value < 1) {
            throw new IllegalArgumentException("must be at least 1");
        }
        return value;
    }
}
