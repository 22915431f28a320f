package dev.proofline.access;

/**
 * Who submitted a verification, as receipts and the receipt index remember it: a key
 * ({@code key:NAME}), an anonymous client address ({@code address:203.0.113.7}), or Kafka itself
 * ({@code kafka}: a producer writing to the input topic directly, trusted by Kafka's own
 * authentication, or a record whose submitter header did not verify).
 */
public record Submitter(String id) {
    public static final Submitter KAFKA = new Submitter("kafka");

    public static Submitter key(String name) {
        return new Submitter("key:" + name);
    }

    public static Submitter address(String address) {
        return new Submitter("address:" + address);
    }

    public boolean isKey() {
        return id.startsWith("key:");
    }

    /** The key's name, for a key; else empty. */
    public String keyName() {
        return isKey() ? id.substring(4) : "";
    }

    @Override
    public String toString() {
        return id;
    }
}
