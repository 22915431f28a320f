package dev.proofline.tlog;

import dev.proofline.attestor.SigningKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;

/**
 * An Ed25519 key that signs notes (C2SP signed-note, signature type 0x01), with its name. The key
 * id is the first four bytes of SHA-256(name || 0x0A || 0x01 || public key); the verifier key is
 * {@code <name>+<hex key id>+<base64(0x01 || public key)>}.
 */
public final class NoteKey {
    static final byte ED25519 = 0x01;

    private final String name;
    private final SigningKey key;
    private final int keyId;

    /** @param seed the 32-byte Ed25519 private key (RFC 8032) */
    public NoteKey(String name, byte[] seed) {
        NoteVerifier.checkName(name);
        this.name = name;
        this.key = new SigningKey("tlog", new Ed25519PrivateKeyParameters(seed, 0));
        this.keyId = NoteVerifier.keyId(name, key.rawPublicKey());
    }

    public String name() {
        return name;
    }

    /** The verifier key, as the agent-card publishes it. */
    public String verifierKey() {
        byte[] typed = new byte[33];
        typed[0] = ED25519;
        System.arraycopy(key.rawPublicKey(), 0, typed, 1, 32);
        return name + "+" + HexFormat.of().toHexDigits(keyId) + "+"
                + Base64.getEncoder().encodeToString(typed);
    }

    public NoteVerifier verifier() {
        return NoteVerifier.parse(verifierKey());
    }

    /** The signed note: the text (ending in a newline), a blank line, one signature line. */
    public String sign(String text) {
        if (!text.endsWith("\n")) {
            throw new IllegalArgumentException("a note's text ends with a newline");
        }
        byte[] signature = key.sign(text.getBytes(StandardCharsets.UTF_8));
        byte[] line = ByteBuffer.allocate(4 + signature.length)
                .putInt(keyId)
                .put(signature)
                .array();
        return text + "\n\u2014 " + name + " " + Base64.getEncoder().encodeToString(line) + "\n";
    }
}
