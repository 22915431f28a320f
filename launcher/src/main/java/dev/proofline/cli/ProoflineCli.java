package dev.proofline.cli;

import dev.proofline.attestor.CanonicalJsonException;
import dev.proofline.client.ProoflineException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The {@code proofline} command. */
public final class ProoflineCli {
    /** A subcommand, with its usage: what {@code proofline NAME --help} prints and {@code USAGE} lists. */
    private record Subcommand(String name, Command command, String usage) {}

    private static final List<Subcommand> SUBCOMMANDS = List.of(
            new Subcommand("verify", new VerifyCommand(), """
                    verify REQUEST.json [--key KEYFILE] [--data-dir DIR]
                        verify a request and print the signed receipt
                    """),
            new Subcommand("receipt-verify", new ReceiptVerifyCommand(), """
                    receipt-verify RECEIPT.json|- (--public-key BASE64 | --agent-card URL) [--context verify|score] [--request REQUEST.json]
                               [--proof PROOF [--log-key VKEY]]
                        check a receipt's signature (and its hashes against a request, and with --proof its place in
                        the transparency log); exit 0 valid, 1 invalid
                    """),
            new Subcommand("tlog", new TlogCommand(), """
                    tlog monitor URL [--log-key VKEY] [--interval SECONDS] [--state FILE] [--once]
                        follow a deployment's transparency log: every checkpoint signed and consistent with the last
                        one seen; exit 1 with the reason on a fork or a rewrite
                    """),
            new Subcommand("hash", new HashCommand(), """
                    hash REQUEST.json
                        print the four hashes of a request and its canonical form
                    """),
            new Subcommand("key", new KeyCommand(), """
                    key public [--key KEYFILE] [--data-dir DIR]
                        print the public key receipts are signed with
                    key rotate [--data-dir DIR]
                        start signing with a new key; receipts signed with older keys still verify
                    """),
            new Subcommand("up", new UpCommand(), """
                    up [--config FILE] [--data-dir DIR] [--kafka-port N] [--http-port N] [--bootstrap-servers HOST:PORT]
                       [--<setting> VALUE]...
                        run Proofline: the embedded Kafka broker (unless --bootstrap-servers), the pipeline and
                        the HTTP server, until Ctrl-C
                    """),
            new Subcommand("caller", new CallerCommand(), """
                    caller add NAME [--role caller|operator] [--allowance N|unlimited] [--agents PATTERN,...] [--<setting> VALUE]...
                        issue a key; its token is printed once, alone on stdout (only its hash is kept)
                    caller revoke NAME | caller list [--<setting> VALUE]...
                        revoke a key on every instance within seconds | list keys (never tokens)
                    """),
            new Subcommand("broker", new BrokerCommand(), """
                    broker [--brokers N] [--data-dir DIR] [--host HOST] [--kafka-port N]
                        run only Kafka, for instances started with --bootstrap-servers: one embedded broker, or
                        with --brokers 3 a KRaft cluster of three brokers, each its own JVM
                    """),
            new Subcommand("publish", new PublishCommand(), """
                    publish FILE|DIR|- [--url URL] [--no-wait] [--bootstrap-servers HOST:PORT] [--config FILE] [--<setting> VALUE]...
                        publish requests (JSON, JSON Lines or a directory), wait for their verified receipts
                        (--no-wait: for Kafka's acknowledgement only), print a summary per agent; exit 1 if any
                        was invalid, or got no receipt (--no-wait: was not published)
                    """),
            new Subcommand("receipts", new ReceiptsCommand(), """
                    receipts --follow [--agent ID] [--from-beginning] [--max N] [--url URL] [--bootstrap-servers HOST:PORT]
                             [--config FILE] [--<setting> VALUE]...
                        print receipts as they land, each signature checked; unverifiable ones go to stderr
                    """),
            new Subcommand("score", new ScoreCommand(), """
                    score AGENT_ID [--url URL]
                        the agent's signed trust score, signature checked against the agent-card
                    """),
            new Subcommand("replay", new ReplayCommand(), """
                    replay --from TIME|P:OFFSET[,P:OFFSET...] [--to TIME|end] [--rules FILE] [--schema FILE] [--out DIR]
                           [--url URL] [--bootstrap-servers HOST:PORT] [--<setting> VALUE]...
                        re-verify a stretch of agent-outputs under candidate rules or schema, compare with the receipts
                        issued, write report.json and summary.txt to DIR (default ./replay); writes nothing to Kafka
                    """),
            new Subcommand("load", new LoadCommand(), """
                    load [--rate N] [--duration S] [--agents K] [--fail-ratio R] [--seed N] [--bootstrap-servers HOST:PORT]
                        publish invoice-like requests at N/s for S seconds (0: until Ctrl-C) from K agents, a
                        share R of them deliberately wrong (agents differ: the first careful, the last sloppy)
                    """),
            new Subcommand("bench", new BenchCommand(), """
                    bench [--requests N] [--threads N] [--only PHASES] [--agents N] [--agent-curve N,N,...]
                          [--bootstrap-servers HOST:PORT]
                        measure the pipeline beside a raw Kafka pass-through and bare Ed25519 signing
                    """));

    /** Started by {@code broker --brokers N}, one per broker JVM; not for people, so not listed. */
    private static final Subcommand BROKER_NODE =
            new Subcommand("broker-node", new BrokerNodeCommand(), "broker-node (internal: one broker of a cluster)\n");

    private static final String EXIT_CODES =
            "Exit codes: 0 success, 1 an invalid receipt, 2 a usage error or an invalid request.\n";

    static final String USAGE = "usage: proofline <command> [arguments]\n\n"
            + SUBCOMMANDS.stream().map(c -> c.usage().indent(2)).collect(Collectors.joining())
            + "\nEvery command answers --help with its own usage.\n"
            + EXIT_CODES;

    private static final Map<String, Subcommand> BY_NAME = Stream.concat(SUBCOMMANDS.stream(), Stream.of(BROKER_NODE))
            .collect(Collectors.toUnmodifiableMap(Subcommand::name, c -> c));

    private ProoflineCli() {}

    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    /** What an I/O failure says; Java's own network errors may carry no message, and then the class says it. */
    static String said(IOException e) {
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    public static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty() || args.get(0).equals("--help") || args.get(0).equals("help")) {
            (args.isEmpty() ? err : out).print(USAGE);
            return args.isEmpty() ? 2 : 0;
        }
        Subcommand subcommand = BY_NAME.get(args.get(0));
        if (subcommand == null) {
            err.println("proofline: unknown command '" + args.get(0) + "'");
            err.print(USAGE);
            return 2;
        }
        List<String> words = args.subList(1, args.size());
        if (words.contains("--help") || words.contains("-h")) {
            out.print("usage: proofline " + subcommand.usage() + "\n" + EXIT_CODES);
            return 0;
        }
        try {
            return subcommand.command().run(words, out, err);
        } catch (UsageException e) {
            err.println("proofline " + args.get(0) + ": " + e.getMessage());
            err.println("(proofline " + args.get(0) + " --help prints its usage)");
            return 2;
        } catch (NoSuchFileException e) {
            err.println("proofline " + args.get(0) + ": no such file: " + e.getFile());
            return 2;
        } catch (CanonicalJsonException e) {
            err.println("proofline " + args.get(0) + ": the file is " + e.getMessage());
            return 2;
        } catch (java.nio.charset.CharacterCodingException e) {
            // Java says only "Input length = 1".
            err.println("proofline " + args.get(0) + ": a file it read is not UTF-8 text");
            return 2;
        } catch (IOException e) {
            err.println("proofline " + args.get(0) + ": " + said(e));
            return 2;
        } catch (ProoflineException e) {
            // The service, or its agent-card, refused or could not be reached: said, not a stack trace.
            err.println("proofline " + args.get(0) + ": " + e.getMessage());
            return 2;
        } catch (Exception e) {
            err.println("proofline " + args.get(0) + ": unexpected " + e);
            return 1;
        } catch (OutOfMemoryError e) {
            // A file or a pipe larger than the heap: said in a line, not a stack trace.
            err.println("proofline " + args.get(0) + ": out of memory: its input is larger than this JVM's heap");
            return 2;
        }
    }
}
