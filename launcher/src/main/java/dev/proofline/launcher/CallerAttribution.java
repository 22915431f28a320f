package dev.proofline.launcher;

import dev.proofline.access.CallerRecord;
import dev.proofline.access.CallerRegistry;
import dev.proofline.access.CallerRole;
import dev.proofline.access.Submitter;
import dev.proofline.access.SubmitterStamp;
import dev.proofline.contract.ScoredAgents;
import dev.proofline.engine.Scoring;
import dev.proofline.schemas.VerificationIds;
import dev.proofline.topology.Attribution;
import org.apache.kafka.common.header.Headers;

/**
 * The pipeline's view of callers ({@code docs/access.md}): ids keyed with the deployment secret, the
 * submitter from the front door's authenticated header (else Kafka itself), and scores that a
 * stranger cannot move: an agent id bound to keys counts only what its owners, operators, or
 * producers on Kafka (authenticated by Kafka) submit.
 */
final class CallerAttribution implements Attribution {
    private final VerificationIds ids;
    private final SubmitterStamp stamp;
    private final CallerRegistry callers;

    CallerAttribution(VerificationIds ids, SubmitterStamp stamp, CallerRegistry callers) {
        this.ids = ids;
        this.stamp = stamp;
        this.callers = callers;
    }

    @Override
    public VerificationIds ids() {
        return ids;
    }

    @Override
    public String submitter(Headers headers, byte[] value) {
        return stamp.submitter(headers, value).id();
    }

    @Override
    public Scoring scoring(String agentId, String submitter) {
        if (!ScoredAgents.isScored(agentId) || Submitter.KAFKA.id().equals(submitter)) {
            return Scoring.COUNTED;
        }
        var owners = callers.ownersOf(agentId);
        if (owners.isEmpty()) {
            return Scoring.COUNTED; // unbound ids stay open to anyone
        }
        Submitter who = new Submitter(submitter);
        if (who.isKey()) {
            CallerRecord key =
                    callers.named(who.keyName()).filter(CallerRecord::active).orElse(null);
            if (key != null && (key.role() == CallerRole.OPERATOR || owners.contains(key))) {
                return Scoring.COUNTED;
            }
        }
        return Scoring.notCounted("agent_id is bound to another caller's key; only its owner's verifications"
                + " count toward its score");
    }

    /** Submitter headers that did not verify since start. */
    long forgedSubmitters() {
        return stamp.forgedCount();
    }
}
