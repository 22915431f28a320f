package dev.proofline.topology;

import dev.proofline.engine.Scoring;
import dev.proofline.schemas.VerificationIds;
import org.apache.kafka.common.header.Headers;

/**
 * What the pipeline needs to know about who sent a record ({@code docs/access.md}): the record's
 * verification id (keyed with the deployment's secret), who submitted it (a verified submitter
 * header, or Kafka itself), and whether its receipt counts toward its agent's score. The launcher
 * answers from the caller keys; tests may leave every record Kafka's own and every receipt counted.
 */
public interface Attribution {
    VerificationIds ids();

    /** The submitter id: {@code key:NAME}, {@code address:ADDR} or {@code kafka}. */
    String submitter(Headers headers, byte[] value);

    Scoring scoring(String agentId, String submitter);

    /** Every record Kafka's own, every receipt counted. */
    static Attribution open(VerificationIds ids) {
        return new Attribution() {
            @Override
            public VerificationIds ids() {
                return ids;
            }

            @Override
            public String submitter(Headers headers, byte[] value) {
                return "kafka";
            }

            @Override
            public Scoring scoring(String agentId, String submitter) {
                return Scoring.COUNTED;
            }
        };
    }
}
