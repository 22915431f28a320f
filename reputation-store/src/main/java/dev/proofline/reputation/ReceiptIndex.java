package dev.proofline.reputation;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * Finds where a receipt is from its verification id alone. The index lives with the receipts'
 * partitions (keyed by agent), which the caller does not know, so every instance is asked (this
 * one from its own store, the others over an internal route); at most one has it. If none has it
 * but one could not answer, the answer is "not queryable", not "not found".
 */
public final class ReceiptIndex {
    /** The internal route an instance answers from its own index; never forwarded again. */
    public static final String INTERNAL_PATH = "/internal/receipt-index/";

    private final KafkaStreams streams;
    private final HostInfo self;
    private final InstanceClient instances = new InstanceClient();

    public ReceiptIndex(KafkaStreams streams, HostInfo self) {
        this.streams = streams;
        this.self = self;
    }

    public Optional<ReceiptPosition> find(String verificationId) {
        if (streams.state() != KafkaStreams.State.RUNNING) {
            throw new AgentHistories.NotQueryableException("the pipeline is " + streams.state());
        }
        boolean everyoneAnswered = true;
        for (StreamsMetadata instance : streams.metadataForAllStreamsClients()) {
            if (!instance.stateStoreNames().contains(ReputationTopology.RECEIPT_INDEX)) {
                continue;
            }
            try {
                Optional<ReceiptPosition> found = self.equals(instance.hostInfo()) ? findLocally(verificationId)
                        : instances.get(instance.hostInfo(), INTERNAL_PATH + URLEncoder.encode(verificationId, StandardCharsets.UTF_8))
                                .map(json -> new ReceiptPosition(json.get("partition").asInt(), json.get("offset").asLong()));
                if (found.isPresent()) {
                    return found;
                }
            } catch (AgentHistories.NotQueryableException e) {
                everyoneAnswered = false;
            }
        }
        if (!everyoneAnswered) {
            throw new AgentHistories.NotQueryableException("an instance could not answer");
        }
        return Optional.empty();
    }

    /** This instance's own index (the receipts partitions it processes). */
    public Optional<ReceiptPosition> findLocally(String verificationId) {
        try {
            ReadOnlyWindowStore<String, ReceiptPosition> index = streams.store(StoreQueryParameters.fromNameAndType(
                    ReputationTopology.RECEIPT_INDEX, QueryableStoreTypes.<String, ReceiptPosition>windowStore()));
            // Windows are the receipts' record times; the store itself forgets past its retention.
            try (WindowStoreIterator<ReceiptPosition> found = index.fetch(verificationId, Instant.EPOCH, Instant.now().plusSeconds(86_400))) {
                return found.hasNext() ? Optional.of(found.next().value) : Optional.empty();
            }
        } catch (InvalidStateStoreException e) {
            throw new AgentHistories.NotQueryableException(e.getMessage());
        }
    }
}
