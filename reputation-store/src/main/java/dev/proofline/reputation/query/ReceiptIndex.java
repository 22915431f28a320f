package dev.proofline.reputation.query;

import dev.proofline.reputation.ReceiptPosition;
import dev.proofline.reputation.ReputationTopology;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * Finds where a receipt is from its verification id alone. The index lives with the receipts'
 * partitions (keyed by agent), which the caller does not know, so every instance is asked; at most
 * one has it. If none has it but one could not answer, the answer is "not queryable", not "not
 * found".
 */
public final class ReceiptIndex {
    /** The internal route an instance answers from its own index; never forwarded again. */
    public static final String INTERNAL_PATH = "/internal/receipt-index/";

    private final Instances instances;
    private final RecentReceipts recent;

    /** With the receipts this instance just answered callers with, found before the index has them. */
    public ReceiptIndex(Instances instances, RecentReceipts recent) {
        this.instances = instances;
        this.recent = recent;
    }

    public Optional<ReceiptPosition> find(String verificationId) {
        Optional<ReceiptPosition> answered = recent.answeredAt(verificationId);
        if (answered.isPresent()) {
            return answered;
        }
        Instances.FanOut<Optional<ReceiptPosition>> answers = instances.askEvery(
                ReputationTopology.RECEIPT_INDEX,
                () -> findLocally(verificationId),
                instance -> ask(instance, verificationId));
        Optional<ReceiptPosition> found =
                answers.answers().stream().flatMap(Optional::stream).findFirst();
        if (found.isEmpty() && !answers.complete()) {
            throw new NotQueryableException("an instance could not answer");
        }
        return found;
    }

    /** This instance's own index (the receipts partitions it processes). */
    public Optional<ReceiptPosition> findLocally(String verificationId) {
        ReadOnlyWindowStore<String, ReceiptPosition> index = instances.localStore(
                ReputationTopology.RECEIPT_INDEX, QueryableStoreTypes.<String, ReceiptPosition>windowStore());
        // Windows are the receipts' record times; the store itself forgets past its retention.
        try (WindowStoreIterator<ReceiptPosition> found =
                index.fetch(verificationId, Instant.EPOCH, Instant.now().plusSeconds(86_400))) {
            return found.hasNext() ? Optional.of(found.next().value) : Optional.empty();
        }
    }

    private Optional<ReceiptPosition> ask(HostInfo instance, String verificationId) {
        return instances
                .ask(instance, INTERNAL_PATH + URLEncoder.encode(verificationId, StandardCharsets.UTF_8))
                .map(json -> new ReceiptPosition(
                        json.get("partition").asInt(), json.get("offset").asLong()));
    }
}
