package dev.proofline.attestor;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Optional;

/**
 * Ed25519 through AWS-LC (Amazon Corretto Crypto Provider, a standard JCA provider): about three
 * times Bouncy Castle's signing rate on one thread. The build ships its Linux x86_64 library; where
 * it does not load (another platform), {@link #signer} gives Bouncy Castle's, which stays the
 * portable implementation and the one that reads and writes key files. Both give the same bytes.
 */
public final class FastEd25519 {
    private static final String ALGORITHM = "Ed25519";

    private FastEd25519() {}

    /** AWS-LC when it loads here; why not, otherwise. */
    public static Optional<Throwable> unavailableBecause() {
        try {
            Throwable error = AmazonCorrettoCryptoProvider.INSTANCE.getLoadingError();
            return Optional.ofNullable(error);
        } catch (LinkageError e) {
            return Optional.of(e);
        }
    }

    public static boolean available() {
        return unavailableBecause().isEmpty();
    }

    /** The fastest signer for this key on this platform. */
    public static Ed25519Signer signer(SigningKey key) {
        if (available()) {
            try {
                return new AwsLcSigner(key);
            } catch (GeneralSecurityException e) {
                // AWS-LC loaded but refused the key: Bouncy Castle signs instead, the same bytes.
            }
        }
        return bouncyCastle(key);
    }

    /** Bouncy Castle's pure-Java Ed25519: the reference, and the fallback. */
    public static Ed25519Signer bouncyCastle(SigningKey key) {
        return new Ed25519Signer() {
            @Override
            public byte[] sign(byte[] message) {
                return key.sign(message);
            }

            @Override
            public String implementation() {
                return "Bouncy Castle (pure Java)";
            }
        };
    }

    /** One JCA {@link Signature} per thread: an instance is not thread-safe, creating one per call is slow. */
    static final class AwsLcSigner implements Ed25519Signer {
        private final PrivateKey privateKey;
        private final ThreadLocal<Signature> signatures;

        AwsLcSigner(SigningKey key) throws GeneralSecurityException {
            byte[] der;
            try {
                der = KeyFiles.pkcs8Der(key);
            } catch (java.io.IOException e) {
                throw new GeneralSecurityException("the key does not encode as PKCS#8", e);
            }
            // AWS-LC's provider has no Ed25519 KeyFactory: the JDK's reads the key, AWS-LC signs with it.
            this.privateKey = KeyFactory.getInstance(ALGORITHM).generatePrivate(new PKCS8EncodedKeySpec(der));
            this.signatures = ThreadLocal.withInitial(() -> {
                try {
                    Signature signature = Signature.getInstance(ALGORITHM, AmazonCorrettoCryptoProvider.INSTANCE);
                    signature.initSign(privateKey);
                    return signature;
                } catch (GeneralSecurityException e) {
                    throw new IllegalStateException("AWS-LC refused an Ed25519 key it accepted before", e);
                }
            });
            sign(new byte[0]); // fail here, not on the first receipt
        }

        @Override
        public byte[] sign(byte[] message) {
            Signature signature = signatures.get();
            try {
                signature.update(message);
                return signature.sign(); // also resets it for the next message
            } catch (GeneralSecurityException e) {
                signatures.remove(); // it may hold part of this message: the next one starts clean
                throw new IllegalStateException("AWS-LC could not sign", e);
            }
        }

        @Override
        public String implementation() {
            return "AWS-LC (Amazon Corretto Crypto Provider " + AmazonCorrettoCryptoProvider.INSTANCE.getVersionStr()
                    + ")";
        }
    }
}
