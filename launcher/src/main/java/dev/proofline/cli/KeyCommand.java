package dev.proofline.cli;

import dev.proofline.attestor.KeyFiles;
import dev.proofline.attestor.KeyRing;
import dev.proofline.attestor.PublishedKey;
import dev.proofline.attestor.StrictJson;
import java.io.PrintStream;
import java.nio.file.Paths;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code proofline key public [--key FILE]}: the public key receipts are signed with;
 * {@code proofline key rotate}: a new signing key, the old ones kept. Both work on the key ring
 * {@code up} uses: {@code keys.dir}, by default {@code <data.dir>/keys}, from the same settings
 * (flags such as {@code --data-dir} and {@code --keys-dir}, environment, a config file).
 */
final class KeyCommand implements Command {
    @Override
    public int run(List<String> words, PrintStream out, PrintStream err) throws Exception {
        DeploymentArgs args = DeploymentArgs.parse(words, Set.of("key"));
        if (args.positional().size() != 1) {
            throw new UsageException("needs exactly one action: public or rotate");
        }
        String action = args.positional().get(0);
        String keyFile = args.own().get("key");
        KeyRing ring = keyFile != null
                ? KeyRing.of(KeyFiles.read(Paths.get(keyFile)))
                : KeyRing.openOrCreate(args.settings().keysDir(), Clock.systemUTC());
        switch (action) {
            case "public" -> out.println(json(ring.signingKey().published()));
            case "rotate" -> {
                if (keyFile != null) {
                    throw new UsageException("rotate works on a deployment's key ring, not on --key");
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
