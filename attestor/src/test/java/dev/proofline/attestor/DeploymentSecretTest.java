package dev.proofline.attestor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeploymentSecretTest {
    @TempDir
    Path keys;

    @Test
    void madeOnceOwnerOnlyAndReadBackTheSame() throws Exception {
        DeploymentSecret first = DeploymentSecret.openOrCreate(keys);
        Path file = keys.resolve(DeploymentSecret.FILE);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        DeploymentSecret again = DeploymentSecret.openOrCreate(keys);
        assertArrayEquals(first.keyFor("ids"), again.keyFor("ids"));
        assertArrayEquals(first.keyFor("ids"), DeploymentSecret.open(keys).keyFor("ids"));
        assertEquals(first.fingerprint(), again.fingerprint());
    }

    @Test
    void openNeverMakesOne() {
        assertThrows(java.nio.file.NoSuchFileException.class, () -> DeploymentSecret.open(keys));
    }
}
