package dev.proofline.cli;

import dev.proofline.attestor.KeyFiles;
import dev.proofline.attestor.KeyRing;
import dev.proofline.engine.EngineSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;

/**
 * Where the CLI keeps things: a data directory (default {@code .proofline} under PROOFLINE_HOME,
 * which the {@code ./proofline} script sets to the repository; git-ignored), whose {@code keys/}
 * holds the development key ring, created on first use.
 */
final class Workspace {
    static final String HOME_ENV = "PROOFLINE_HOME";
    static final String PUBLIC_URL_ENV = "PROOFLINE_PUBLIC_URL";

    private Workspace() {}

    static Path dataDir(Args args) {
        String explicit = args.option("data-dir");
        if (explicit != null) {
            return Paths.get(explicit);
        }
        String home = System.getenv(HOME_ENV);
        return (home != null ? Paths.get(home) : Paths.get("")).resolve(".proofline");
    }

    /** {@code --key FILE} when given, else the data directory's key ring (created if missing). */
    static KeyRing keys(Args args) throws IOException {
        String keyFile = args.option("key");
        if (keyFile != null) {
            return KeyRing.of(KeyFiles.read(Paths.get(keyFile)));
        }
        return KeyRing.openOrCreate(dataDir(args).resolve("keys"), Clock.systemUTC());
    }

    static EngineSettings engineSettings() {
        String url = System.getenv(PUBLIC_URL_ENV);
        return url == null
                ? EngineSettings.defaults()
                : EngineSettings.defaults().withPublicUrl(url);
    }
}
