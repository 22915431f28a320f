package dev.proofline.attestor;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bouncycastle.asn1.ASN1ObjectIdentifier;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.crypto.params.AsymmetricKeyParameter;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.util.PrivateKeyFactory;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemReader;
import org.bouncycastle.util.io.pem.PemWriter;

/**
 * Private keys on disk: PKCS#8 PEM ({@code -----BEGIN PRIVATE KEY-----}, readable by OpenSSL),
 * created owner-only (0600) before a single key byte is written.
 *
 * <p>The key version travels in the file as RFC 7468 explanatory text before the PEM block
 * ({@code Key-Version: v1-2026-11-29}), which PEM parsers ignore. A PEM without that line (one made
 * by {@code openssl genpkey -algorithm ed25519}, say) gets a version derived from its public key.
 */
public final class KeyFiles {
    private static final String VERSION_LABEL = "Key-Version: ";
    /** id-Ed25519 (RFC 8410); Bouncy Castle keeps its constant in an internal package. */
    private static final ASN1ObjectIdentifier ID_ED25519 = new ASN1ObjectIdentifier("1.3.101.112");

    private static final Pattern VERSION_LINE = Pattern.compile("(?m)^" + VERSION_LABEL + "(\\S+)\\s*$");

    private KeyFiles() {}

    /**
     * Writes a new key file, whole and readable by its owner only; never overwrites one
     * ({@link FileAlreadyExistsException}).
     */
    public static void write(Path file, SigningKey key) throws IOException {
        StringWriter pem = new StringWriter();
        pem.write(VERSION_LABEL + key.version() + "\n");
        try (PemWriter writer = new PemWriter(pem)) {
            writer.writeObject(new PemObject("PRIVATE KEY", pkcs8(key)));
        }
        if (!OwnerOnlyFiles.createWhole(file, pem.toString().getBytes(StandardCharsets.US_ASCII))) {
            throw new FileAlreadyExistsException(file.toString(), null, "refusing to overwrite the existing key file");
        }
    }

    /**
     * The RFC 8410 form: a version-0 PrivateKeyInfo holding the 32-byte seed. Bouncy Castle's
     * factory writes version 1 with the public key attached, which OpenSSL 3.0 refuses to load.
     */
    private static byte[] pkcs8(SigningKey key) throws IOException {
        return pkcs8Der(key);
    }

    /** The key's RFC 8410 PKCS#8 DER, as JCA providers take it ({@code PKCS8EncodedKeySpec}). */
    static byte[] pkcs8Der(SigningKey key) throws IOException {
        PrivateKeyInfo info = new PrivateKeyInfo(
                new AlgorithmIdentifier(ID_ED25519),
                new DEROctetString(key.privateKey().getEncoded()));
        return info.getEncoded();
    }

    public static SigningKey read(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.US_ASCII);
        PemObject pem;
        try (PemReader reader = new PemReader(new StringReader(text))) {
            pem = reader.readPemObject();
        }
        if (pem == null || !"PRIVATE KEY".equals(pem.getType())) {
            throw new IOException(file + " holds no PKCS#8 'PRIVATE KEY' PEM block");
        }
        AsymmetricKeyParameter key = PrivateKeyFactory.createKey(pem.getContent());
        if (!(key instanceof Ed25519PrivateKeyParameters ed25519)) {
            throw new IOException(file + " holds a " + key.getClass().getSimpleName() + ", not an Ed25519 key");
        }
        Matcher version = VERSION_LINE.matcher(text);
        if (version.find()) {
            return new SigningKey(version.group(1), ed25519);
        }
        byte[] publicKey = ed25519.generatePublicKey().getEncoded();
        return new SigningKey("ed25519-" + Sha256.hex(publicKey).substring(0, 12), ed25519);
    }
}
