package dev.proofline.attestor;

import java.util.Optional;
import org.bouncycastle.crypto.params.Ed25519PublicKeyParameters;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Checks a signed answer with nothing but the answer and the public key ({@code docs/signing.md}): rebuild
 * the signed message from the answer without its {@code attestation}, check the Ed25519 signature,
 * then optionally recompute the request hashes and compare them one by one.
 */
public final class ReceiptVerifier {
    private final TrustedKeys keys;

    public ReceiptVerifier(TrustedKeys keys) {
        this.keys = keys;
    }

    public VerificationOutcome verifySignature(JsonNode answer, AttestationContext context) {
        if (answer == null || !answer.isObject()) {
            return VerificationOutcome.invalid("not a JSON object");
        }
        JsonNode attestation = answer.get("attestation");
        if (attestation == null || !attestation.isObject()) {
            return VerificationOutcome.invalid("no attestation object");
        }
        String algorithm = text(attestation, "algorithm");
        String keyVersion = text(attestation, "key_version");
        String timestamp = text(attestation, "timestamp");
        String signatureText = text(attestation, "signature");
        if (!PublishedKey.ED25519.equals(algorithm)) {
            return VerificationOutcome.invalid("attestation.algorithm is not Ed25519");
        }
        if (keyVersion == null || timestamp == null || signatureText == null) {
            return VerificationOutcome.invalid("attestation needs key_version, timestamp and signature strings");
        }
        Optional<byte[]> publicKey = keys.forVersion(keyVersion);
        if (publicKey.isEmpty()) {
            return VerificationOutcome.invalid("no trusted key has version " + keyVersion);
        }
        byte[] signature;
        try {
            signature = StrictBase64.decode(signatureText);
        } catch (IllegalArgumentException e) {
            return VerificationOutcome.invalid("attestation.signature is not padded standard base64");
        }
        if (signature.length != Ed25519.SIGNATURE_SIZE) {
            return VerificationOutcome.invalid("attestation.signature is " + signature.length + " bytes, not 64");
        }
        ObjectNode response = ((ObjectNode) answer).deepCopy();
        response.remove("attestation");
        byte[] message;
        try {
            message = AttestationMessage.of(context, keyVersion, timestamp, response);
        } catch (CanonicalJsonException e) {
            return VerificationOutcome.invalid("the answer has no canonical form: " + e.getMessage());
        }
        Ed25519PublicKeyParameters key;
        try {
            key = new Ed25519PublicKeyParameters(publicKey.get());
        } catch (IllegalArgumentException notAPoint) {
            return VerificationOutcome.invalid("the published key " + keyVersion + " is not an Ed25519 public key");
        }
        boolean ok = key.verify(Ed25519.Algorithm.Ed25519, null, message, 0, message.length, signature, 0);
        return ok
                ? VerificationOutcome.VALID
                : VerificationOutcome.invalid("signature does not match the "
                        + context.name().toLowerCase() + " answer under key " + keyVersion);
    }

    /**
     * Recomputes each hash the receipt carries from {@code request} and names the first that
     * differs. A compact receipt has no {@code request_hash}; only the hashes present are compared.
     */
    public static VerificationOutcome compareHashes(JsonNode receipt, JsonNode request) {
        RequestHashes recomputed = RequestHashes.of(request);
        for (String name : RequestHashes.NAMES) {
            JsonNode claimed = receipt.get(name);
            if (claimed == null) {
                continue;
            }
            String expected = recomputed.byName(name);
            if (!expected.equals(claimed.asString())) {
                return VerificationOutcome.invalid(
                        name + " differs: the receipt has " + claimed.asString() + ", the request gives " + expected);
            }
        }
        return VerificationOutcome.VALID;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && value.isString() ? value.stringValue() : null;
    }
}
