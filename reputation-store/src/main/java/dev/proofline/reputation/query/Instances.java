package dev.proofline.reputation.query;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreType;
import tools.jackson.databind.JsonNode;

/**
 * The one place that answers "which instance": which instance owns a key, which instances hold a
 * store, this instance's own stores, and asking the others over their internal routes. Every
 * instance advertises its HTTP address as {@code application.server}, so Kafka Streams' metadata
 * names instances by the address their internal routes answer on (kafka-streams-examples'
 * {@code MetadataService} is the model).
 */
public final class Instances {
    /** What every instance holding a store said, and whether every one of them answered. */
    public record FanOut<T>(List<T> answers, int asked, boolean complete) {}

    private final KafkaStreams streams;
    private final HostInfo self;
    private final InstanceClient client;

    /**
     * @param credential what this instance sends another on the internal routes to show it belongs
     *                   to the deployment (a header value derived from the shared secret)
     */
    public Instances(KafkaStreams streams, HostInfo self, String credentialHeader, String credential) {
        this.streams = streams;
        this.self = self;
        this.client = new InstanceClient(credentialHeader, credential);
    }

    /** Throws {@link NotQueryableException} unless the pipeline runs (not while it starts or stops). */
    public void requireRunning() {
        KafkaStreams.State state = streams.state();
        if (state != KafkaStreams.State.RUNNING) {
            throw new NotQueryableException("the pipeline is " + state);
        }
    }

    /** The instance whose store holds this key now; throws while no instance owns it (a rebalance). */
    public HostInfo owner(String store, String key) {
        KeyQueryMetadata owner =
                streams.queryMetadataForKey(store, key, Serdes.String().serializer());
        if (owner == null
                || owner.activeHost() == null
                || HostInfo.unavailable().equals(owner.activeHost())) {
            throw new NotQueryableException("no instance owns the key yet");
        }
        return owner.activeHost();
    }

    public boolean isSelf(HostInfo instance) {
        return self.equals(instance);
    }

    /** This instance's own store; throws {@link NotQueryableException} while it cannot be queried. */
    public <T> T localStore(String store, QueryableStoreType<T> type) {
        try {
            return streams.store(StoreQueryParameters.fromNameAndType(store, type));
        } catch (InvalidStateStoreException e) {
            throw new NotQueryableException(e.getMessage());
        }
    }

    /** The partition of {@code store} that holds {@code key}, or -1 when Streams cannot say yet. */
    public int partitionOf(String store, String key) {
        KeyQueryMetadata metadata =
                streams.queryMetadataForKey(store, key, Serdes.String().serializer());
        return metadata == null ? -1 : metadata.partition();
    }

    /**
     * One partition of this instance's store (all of them for -1): a composite store would try every
     * local partition in turn, and a window fetch seeks every segment of each.
     */
    public <T> T localStore(String store, QueryableStoreType<T> type, int partition) {
        if (partition < 0) {
            return localStore(store, type);
        }
        try {
            return streams.store(
                    StoreQueryParameters.fromNameAndType(store, type).withPartition(partition));
        } catch (InvalidStateStoreException e) {
            throw new NotQueryableException(e.getMessage());
        }
    }

    /**
     * Asks every instance that holds {@code store}: this one through {@code local}, the others
     * through {@code remote}. An instance that cannot answer makes the result incomplete rather than
     * failing it; the caller decides what an incomplete answer means.
     */
    public <T> FanOut<T> askEvery(String store, Supplier<T> local, Function<HostInfo, T> remote) {
        requireRunning();
        List<T> answers = new ArrayList<>();
        int asked = 0;
        boolean complete = true;
        for (StreamsMetadata instance : streams.metadataForAllStreamsClients()) {
            if (!instance.stateStoreNames().contains(store)) {
                continue;
            }
            asked++;
            try {
                answers.add(isSelf(instance.hostInfo()) ? local.get() : remote.apply(instance.hostInfo()));
            } catch (NotQueryableException e) {
                complete = false;
            }
        }
        return new FanOut<>(answers, asked, complete);
    }

    /** Another instance's JSON answer on an internal route, or empty when it has nothing there. */
    public Optional<JsonNode> ask(HostInfo instance, String path) {
        return client.get(instance, path);
    }
}
