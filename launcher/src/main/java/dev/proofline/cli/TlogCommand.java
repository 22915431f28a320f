package dev.proofline.cli;

import dev.proofline.client.AgentCardKeys;
import dev.proofline.tlog.Checkpoint;
import dev.proofline.tlog.MerkleProofs;
import dev.proofline.tlog.NoteVerifier;
import dev.proofline.tlog.TileHashes;
import dev.proofline.tlog.TilePath;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code proofline tlog monitor URL [--log-key VKEY] [--interval SECONDS] [--state FILE] [--once]}:
 * follows a deployment's transparency log. Each new checkpoint must carry the log key's signature and
 * be consistent with the last one seen (a consistency proof built from the deployment's own tiles);
 * a log that shrinks, rewrites a size's root or cannot prove consistency is a fork, reported on
 * stderr with exit 1. {@code --state} keeps the last checkpoint across runs; {@code --once} checks
 * one checkpoint and exits.
 */
final class TlogCommand implements Command {
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Override
    public int run(List<String> words, PrintStream out, PrintStream err) throws Exception {
        List<String> rest = words.stream().filter(w -> !w.equals("--once")).toList();
        boolean once = rest.size() != words.size();
        Args args = new Args(rest, Set.of("log-key", "interval", "state"));
        if (!args.positional(0, "monitor").equals("monitor")) {
            throw new UsageException("the only tlog command is: tlog monitor URL");
        }
        String url = args.positional(1, "URL").replaceAll("/+$", "");
        args.expectPositionals(2);
        Duration interval = Duration.ofSeconds(args.wholeNumber("interval", 10, 1, 86_400));
        NoteVerifier log;
        try {
            log = NoteVerifier.parse(Optional.ofNullable(args.option("log-key"))
                    .or(() -> AgentCardKeys.of(url).transparencyLogKey())
                    .orElseThrow(() -> new UsageException("the agent-card names no transparency log: give --log-key")));
        } catch (IllegalArgumentException e) {
            throw new UsageException("log key: " + e.getMessage());
        }
        Path state = args.option("state") == null ? null : Paths.get(args.option("state"));
        Checkpoint last = state != null && Files.exists(state) ? Checkpoint.open(Files.readString(state), log) : null;
        while (true) {
            String note;
            Checkpoint next;
            String problem;
            try {
                note = get(url + "/tlog/checkpoint");
                try {
                    next = Checkpoint.open(note, log);
                } catch (IllegalArgumentException e) {
                    err.println("proofline tlog: FORK OR FORGERY: the checkpoint does not verify with " + log + ": "
                            + e.getMessage());
                    return 1;
                }
                problem = last == null ? null : inconsistency(url, last, next);
            } catch (IOException | UncheckedIOException e) {
                // Not reached, or not answered (a timeout, a 503 while the deployment rebalances): no
                // evidence either way, so a monitor that runs on tries again; --once says so and stops.
                IOException failure =
                        e instanceof UncheckedIOException unchecked ? unchecked.getCause() : (IOException) e;
                if (once) {
                    throw failure;
                }
                err.println("proofline tlog: " + ProoflineCli.said(failure) + "; trying again in "
                        + interval.toSeconds() + " s");
                Thread.sleep(interval.toMillis());
                continue;
            }
            if (problem != null) {
                err.println("proofline tlog: FORK: " + problem);
                return 1;
            }
            if (last == null || next.size() != last.size()) {
                out.println(
                        "checkpoint " + next.size() + " " + Base64.getEncoder().encodeToString(next.root())
                                + (last == null ? " (first seen)" : " consistent with " + last.size()));
                out.flush();
            }
            last = next;
            if (state != null) {
                Files.writeString(state, note, StandardCharsets.UTF_8);
            }
            if (once) {
                return 0;
            }
            Thread.sleep(interval.toMillis());
        }
    }

    /** Why {@code next} cannot follow {@code last} in one append-only log, or null. */
    private String inconsistency(String url, Checkpoint last, Checkpoint next)
            throws IOException, InterruptedException {
        if (next.size() < last.size()) {
            return "the log shrank from " + last.size() + " to " + next.size() + " entries";
        }
        if (next.size() == last.size()) {
            return java.util.Arrays.equals(last.root(), next.root())
                    ? null
                    : "two different roots for size " + next.size();
        }
        List<byte[]> proof;
        try {
            proof = MerkleProofs.consistency(last.size(), next.size(), tiles(url, next.size()));
        } catch (IllegalStateException e) {
            return "the tiles needed to prove " + last.size() + " -> " + next.size() + " are missing: "
                    + e.getMessage();
        }
        return MerkleProofs.verifyConsistency(last.size(), next.size(), last.root(), next.root(), proof)
                ? null
                : "checkpoint " + next.size() + " is not consistent with checkpoint " + last.size()
                        + " (the log's history was rewritten)";
    }

    /** Tiles as the deployment serves them for a tree of this size, each fetched once. */
    private TileHashes tiles(String url, long size) {
        Map<String, byte[]> fetched = new HashMap<>();
        return new TileHashes((level, index) -> {
            long hashes = size;
            for (int l = 0; l < level; l++) {
                hashes /= TilePath.WIDTH;
            }
            long width = Math.min(TilePath.WIDTH, hashes - index * TilePath.WIDTH);
            if (width <= 0) {
                return null;
            }
            String path = new TilePath(level, index, (int) width).path();
            return fetched.computeIfAbsent(path, p -> {
                try {
                    return tile(url + "/tlog/" + p);
                } catch (NotServed e) {
                    // The checkpoint commits to this tile and the deployment says it has none.
                    throw new IllegalStateException(p + ": " + e.getMessage());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(p + ": interrupted");
                }
            });
        });
    }

    /**
     * A tile, asked for up to three times a second apart while it is not served: behind a load
     * balancer the checkpoint may come from an instance that has read the log a moment further than
     * the one asked for the tile.
     */
    private byte[] tile(String url) throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return bytes(url);
            } catch (NotServed e) {
                if (attempt == 3) {
                    throw e;
                }
                Thread.sleep(1_000);
            }
        }
    }

    private String get(String url) throws IOException, InterruptedException {
        return new String(bytes(url), StandardCharsets.UTF_8);
    }

    private byte[] bytes(String url) throws IOException, InterruptedException {
        HttpResponse<byte[]> response = http.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        if (response.statusCode() == 404) {
            throw new NotServed(url + " answered 404");
        }
        if (response.statusCode() != 200) {
            throw new IOException(url + " answered " + response.statusCode());
        }
        return response.body();
    }

    /** A 404: what was asked for is not there, as opposed to not reached or not answered now. */
    private static final class NotServed extends IOException {
        NotServed(String message) {
            super(message);
        }
    }
}
