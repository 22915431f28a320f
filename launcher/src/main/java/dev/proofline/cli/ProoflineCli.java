package dev.proofline.cli;

import dev.proofline.attestor.CanonicalJsonException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** The {@code proofline} command. */
public final class ProoflineCli {
    static final String USAGE = """
            usage: proofline <command> [arguments]

              verify REQUEST.json [--key KEYFILE] [--data-dir DIR]
                  verify a request and print the signed receipt
              receipt-verify RECEIPT.json|- (--public-key BASE64 | --agent-card URL) [--context verify|score] [--request REQUEST.json]
                  check a receipt's signature (and its hashes against a request); exit 0 valid, 1 invalid
              hash REQUEST.json
                  print the four hashes of a request and its canonical form
              key public [--key KEYFILE] [--data-dir DIR]
                  print the public key receipts are signed with
              key rotate [--data-dir DIR]
                  start signing with a new key; receipts signed with older keys still verify
              up [--config FILE] [--data-dir DIR] [--kafka-port N] [--http-port N] [--bootstrap-servers HOST:PORT]
                 [--<setting> VALUE]...
                  run Proofline: the embedded Kafka broker (unless --bootstrap-servers), the pipeline and
                  the HTTP server, until Ctrl-C
              caller add NAME [--role caller|operator] [--allowance N|unlimited] [--agents PATTERN,...] [--<setting> VALUE]...
                  issue a key; its token is printed once, alone on stdout (only its hash is kept)
              caller revoke NAME | caller list [--<setting> VALUE]...
                  revoke a key on every instance within seconds | list keys (never tokens)
              broker [--brokers N] [--data-dir DIR] [--host HOST] [--kafka-port N]
                  run only Kafka, for instances started with --bootstrap-servers: one embedded broker, or
                  with --brokers 3 a KRaft cluster of three brokers, each its own JVM
              publish FILE|DIR|- [--bootstrap-servers HOST:PORT] [--url URL] [--no-wait]
                  publish requests (JSON, JSON Lines or a directory), wait for their verified receipts,
                  print a pass/fail/invalid summary per agent; exit 1 if any was invalid
              receipts --follow [--agent ID] [--from-beginning] [--max N] [--bootstrap-servers HOST:PORT] [--url URL]
                  print receipts as they land, each signature checked; unverifiable ones go to stderr
              score AGENT_ID [--url URL]
                  the agent's signed trust score, signature checked against the agent-card
              load [--rate N] [--duration S] [--agents K] [--fail-ratio R] [--seed N] [--bootstrap-servers HOST:PORT]
                  publish invoice-like requests at N/s for S seconds (0: until Ctrl-C) from K agents, a
                  share R of them deliberately wrong (agents differ: the first careful, the last sloppy)
              bench [--requests N] [--threads N] [--only PHASES] [--agents N] [--bootstrap-servers HOST:PORT]
                  measure the pipeline beside a raw Kafka pass-through and bare Ed25519 signing

            Exit codes: 0 success, 1 an invalid receipt, 2 a usage error or an invalid request.
            """;

    private static final Map<String, Command> COMMANDS = Map.ofEntries(
            Map.entry("verify", new VerifyCommand()),
            Map.entry("receipt-verify", new ReceiptVerifyCommand()),
            Map.entry("hash", new HashCommand()),
            Map.entry("key", new KeyCommand()),
            Map.entry("up", new UpCommand()),
            Map.entry("caller", new CallerCommand()),
            Map.entry("broker", new BrokerCommand()),
            Map.entry("broker-node", new BrokerNodeCommand()),
            Map.entry("bench", new BenchCommand()),
            Map.entry("publish", new PublishCommand()),
            Map.entry("score", new ScoreCommand()),
            Map.entry("receipts", new ReceiptsCommand()),
            Map.entry("load", new LoadCommand()));

    private ProoflineCli() {}

    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    public static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty() || args.get(0).equals("--help") || args.get(0).equals("help")) {
            (args.isEmpty() ? err : out).print(USAGE);
            return args.isEmpty() ? 2 : 0;
        }
        Command command = COMMANDS.get(args.get(0));
        if (command == null) {
            err.println("proofline: unknown command '" + args.get(0) + "'");
            err.print(USAGE);
            return 2;
        }
        try {
            return command.run(args.subList(1, args.size()), out, err);
        } catch (UsageException e) {
            err.println("proofline " + args.get(0) + ": " + e.getMessage());
            return 2;
        } catch (NoSuchFileException e) {
            err.println("proofline " + args.get(0) + ": no such file: " + e.getFile());
            return 2;
        } catch (CanonicalJsonException e) {
            err.println("proofline " + args.get(0) + ": the file is " + e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("proofline " + args.get(0) + ": " + e.getMessage());
            return 2;
        } catch (Exception e) {
            err.println("proofline " + args.get(0) + ": unexpected " + e);
            return 1;
        }
    }
}
