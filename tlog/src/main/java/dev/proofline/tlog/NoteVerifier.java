package dev.proofline.tlog;

import dev.proofline.attestor.StrictBase64;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.math.ec.rfc8032.Ed25519;

/**
 * Checks C2SP signed notes against one Ed25519 verifier key. Signature lines of other keys are
 * ignored, as the specification requires; a line of this key that does not verify rejects the note.
 */
public final class NoteVerifier {
    /** Most signature lines read: the specification asks for at least 16. */
    private static final int MAX_SIGNATURES = 100;

    private final String name;
    private final int keyId;
    private final byte[] publicKey;

    private NoteVerifier(String name, int keyId, byte[] publicKey) {
        this.name = name;
        this.keyId = keyId;
        this.publicKey = publicKey;
    }

    /** Parses {@code <name>+<hex key id>+<base64(0x01 || public key)>}. */
    public static NoteVerifier parse(String vkey) {
        String[] parts = vkey.split("\\+", 3); // base64 may hold "+": the key is the rest
        if (parts.length != 3 || !parts[1].matches("[0-9a-fA-F]{8}")) {
            throw new IllegalArgumentException("a verifier key is <name>+<8 hex digits>+<base64 key>");
        }
        checkName(parts[0]);
        byte[] typed;
        int id;
        try {
            typed = StrictBase64.decode(parts[2]);
            id = (int) Long.parseLong(parts[1], 16);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a verifier key is <name>+<8 hex digits>+<base64 key>");
        }
        if (typed.length != 33 || typed[0] != NoteKey.ED25519) {
            throw new IllegalArgumentException("only Ed25519 verifier keys (type 0x01, 32 bytes) are supported");
        }
        byte[] key = Arrays.copyOfRange(typed, 1, 33);
        if (keyId(parts[0], key) != id) {
            throw new IllegalArgumentException("the verifier key's id does not match its name and key");
        }
        return new NoteVerifier(parts[0], id, key);
    }

    public String name() {
        return name;
    }

    /**
     * The note's text when a signature line of this key verifies it.
     *
     * @throws IllegalArgumentException naming why the note is refused
     */
    public String open(String note) {
        if (note.chars().anyMatch(c -> c < 0x20 && c != '\n')) {
            throw new IllegalArgumentException("a note holds no control characters but newlines");
        }
        int split = note.lastIndexOf("\n\n");
        if (split < 0 || !note.endsWith("\n")) {
            throw new IllegalArgumentException("not a signed note: no blank line before its signatures");
        }
        if (split + 2 == note.length()) {
            throw new IllegalArgumentException("not a signed note: no signature line after its blank line");
        }
        String text = note.substring(0, split + 1);
        String[] lines = note.substring(split + 2, note.length() - 1).split("\n", -1);
        if (lines.length > MAX_SIGNATURES) {
            throw new IllegalArgumentException("too many signatures");
        }
        boolean verified = false;
        for (String line : lines) {
            if (!line.startsWith("\u2014 ")) {
                throw new IllegalArgumentException("not a signature line: " + line);
            }
            String[] fields = line.substring(2).split(" ", -1);
            if (fields.length != 2) {
                throw new IllegalArgumentException("not a signature line: " + line);
            }
            byte[] signature;
            try {
                signature = StrictBase64.decode(fields[1]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("a signature is not base64");
            }
            if (signature.length < 5) { // as Go's note package: a key id and at least one byte
                throw new IllegalArgumentException("a signature is no longer than its key id");
            }
            int id = ByteBuffer.wrap(signature).getInt();
            if (!fields[0].equals(name) || id != keyId) {
                continue; // another key's: ignored
            }
            byte[] message = text.getBytes(StandardCharsets.UTF_8);
            if (signature.length != 4 + Ed25519.SIGNATURE_SIZE
                    || !new Ed25519PublicKeyParameters(publicKey, 0)
                            .verify(Ed25519.Algorithm.Ed25519, null, message, 0, message.length, signature, 4)) {
                throw new IllegalArgumentException("the signature of " + name + " does not verify");
            }
            verified = true;
        }
        if (!verified) {
            throw new IllegalArgumentException("no signature of " + name + " on the note");
        }
        return text;
    }

    static int keyId(String name, byte[] publicKey) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(name.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) '\n');
            sha.update(NoteKey.ED25519);
            return ByteBuffer.wrap(sha.digest(publicKey)).getInt();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    static void checkName(String name) {
        if (name.isEmpty()
                || name.codePoints()
                        .anyMatch(c -> Character.isWhitespace(c)
                                || Character.isSpaceChar(c)
                                || c == 0x85 // NEL: a space to Go's unicode.IsSpace, to neither Java test
                                || c == '+'
                                || c < 0x20)) {
            throw new IllegalArgumentException("a key name is not empty and holds no spaces or '+'");
        }
    }

    @Override
    public String toString() {
        return name + "+" + HexFormat.of().toHexDigits(keyId);
    }
}
