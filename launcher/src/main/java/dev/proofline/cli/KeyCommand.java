package dev.proofline.cli;

import dev.proofline.attestor.KeyRing;
import dev.proofline.attestor.PublishedKey;
import dev.proofline.attestor.StrictJson;
import java.io.PrintStream;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code proofline key public [--key FILE] [--data-dir DIR]}: the public key receipts are signed
 * with; {@code proofline key rotate [--data-dir DIR]}: a new signing key, the old ones kept.
 */
final class KeyCommand implements Command {
    @Override
    public int run(List<String> words, PrintStream out, PrintStream err) throws Exception {
        Args args = new Args(words, Set.of("key", "data-dir"));
        String action = args.positional(0, "an action: public or rotate");
        args.expectPositionals(1);
        KeyRing ring = Workspace.keys(args);
        switch (action) {
            case "public" -> out.println(json(ring.signingKey().published()));
            case "rotate" -> {
                if (args.option("key") != null) {
                    throw new UsageException("rotate works on a data directory's key ring, not on --key");
                }
                out.println(json(ring.rotate(Clock.systemUTC()).signingKey().published()));
            }
            default -> throw new UsageException("unknown key action '" + action + "': use public or rotate");
        }
        return 0;
    }

    private static String json(PublishedKey key) {
        ObjectNode node = StrictJson.NODES.objectNode();
        node.put("keyVersion", key.keyVersion());
        node.put("algorithm", key.algorithm());
        node.put("publicKey", key.publicKey());
        return node.toString();
    }
}
