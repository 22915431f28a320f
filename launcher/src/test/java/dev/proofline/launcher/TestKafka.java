package dev.proofline.launcher;

import java.nio.file.Path;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;

/**
 * The Kafka the integration tests run on: Testcontainers' Kafka when asked for
 * ({@code -Dproofline.it.kafka=testcontainers} or {@code PROOFLINE_IT_KAFKA=testcontainers}) and a
 * Docker engine answers; otherwise the embedded KRaft broker. Each test prints which one ran.
 */
interface TestKafka extends AutoCloseable {
    String IMAGE = "apache/kafka:4.1.0";

    String bootstrapServers();

    String description();

    @Override
    void close();

    static TestKafka start(Path dir) throws Exception {
        String wanted = System.getProperty(
                "proofline.it.kafka", System.getenv().getOrDefault("PROOFLINE_IT_KAFKA", "embedded"));
        if (wanted.equals("testcontainers")) {
            if (DockerClientFactory.instance().isDockerAvailable()) {
                return container();
            }
            System.out.println(
                    "proofline.it.kafka=testcontainers, but no Docker engine answers: using the embedded broker");
        }
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(dir, "127.0.0.1", 0);
        return new TestKafka() {
            public String bootstrapServers() {
                return broker.bootstrapServers();
            }

            public String description() {
                return "the embedded KRaft broker at " + broker.bootstrapServers();
            }

            public void close() {
                broker.close();
            }
        };
    }

    private static TestKafka container() {
        KafkaContainer kafka = new KafkaContainer(IMAGE)
                // exactly-once on a single node
                .withEnv("KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR", "1")
                .withEnv("KAFKA_TRANSACTION_STATE_LOG_MIN_ISR", "1")
                .withEnv("KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR", "1");
        kafka.start();
        return new TestKafka() {
            public String bootstrapServers() {
                return kafka.getBootstrapServers();
            }

            public String description() {
                return "Testcontainers Kafka (" + IMAGE + ") at " + kafka.getBootstrapServers();
            }

            public void close() {
                kafka.stop();
            }
        };
    }
}
