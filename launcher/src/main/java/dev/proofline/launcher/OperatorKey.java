package dev.proofline.launcher;

import dev.proofline.access.AgentPatterns;
import dev.proofline.access.CallerRecord;
import dev.proofline.access.CallerRegistry;
import dev.proofline.access.CallerRole;
import dev.proofline.access.CallerTokens;
import dev.proofline.attestor.OwnerOnlyFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first operator key of a new deployment, so the README's tour works as written: when the
 * deployment has no operator at all and the data dir holds no token it issued, one is made (named
 * {@code operator-} and six hex digits), its
 * token kept in {@code <data.dir>/operator.token} (mode 0600) and shown once by {@code up}. An
 * instance joining a deployment that has an operator makes none.
 */
final class OperatorKey {
    private static final Logger LOG = LoggerFactory.getLogger(OperatorKey.class);
    static final String FILE = "operator.token";
    static final String NAME = "operator";

    private OperatorKey() {}

    /**
     * The new token, when one was made now; empty when the deployment already has an operator, or
     * when the token kept here is one it issued: its operators are as they were left (all revoked,
     * perhaps, on purpose). A kept token it never issued is from another deployment (a data dir kept
     * across a new callers topic or cluster) and opens nothing: it is replaced.
     */
    static Optional<String> ensure(CallerRegistry callers, Path dataDir) throws IOException {
        Path file = dataDir.resolve(FILE);
        Optional<String> kept = read(dataDir);
        if (callers.hasActiveOperator() || kept.filter(callers::issued).isPresent()) {
            return Optional.empty();
        }
        if (kept.isEmpty() && Files.exists(file)) {
            // Not readable now: never replaced unseen, it may hold the deployment's only operator token.
            LOG.warn("made no operator key: {} exists but cannot be read", file);
            return Optional.empty();
        }
        // A suffix of its own: instances of a new deployment started at the same moment each make one,
        // and neither may overwrite the other's (both tokens stay valid; 'caller list' shows both).
        String name = NAME + "-" + CallerTokens.hash(CallerTokens.newToken()).substring(0, 6);
        String token = CallerTokens.newToken();
        callers.put(new CallerRecord(
                name,
                CallerRole.OPERATOR,
                CallerTokens.hash(token),
                CallerRecord.UNLIMITED,
                AgentPatterns.NONE,
                Instant.now(),
                null));
        OwnerOnlyFiles.replaceWhole(file, (token + "\n").getBytes(StandardCharsets.US_ASCII));
        if (kept.isPresent()) {
            LOG.warn(
                    "replaced {}: the token it held was not issued by this deployment (a new callers topic or cluster)",
                    file);
        }
        return Optional.of(token);
    }

    /** The token kept in a data dir, if any. */
    static Optional<String> read(Path dataDir) {
        try {
            Path file = dataDir.resolve(FILE);
            return Files.exists(file) ? Optional.of(Files.readString(file).trim()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
