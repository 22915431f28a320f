package dev.proofline.launcher;

import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a stream thread that is being replaced out of the consumer group, so that its partitions
 * move to its replacement at once. Kafka Streams replaces a thread without leaving the group (a
 * static member never leaves on its own: that is what lets a restarted instance take its place
 * back at once), and the replacement joins under a new thread number, so the dead member kept its
 * partitions until its session timed out: 45 s without a receipt on them.
 */
final class ReplacedThreadMembers {
    private static final Logger LOG = LoggerFactory.getLogger(ReplacedThreadMembers.class);
    // Streams names its threads CLIENT-StreamThread-N and each one's static member INSTANCE-N.
    private static final Pattern THREAD_NUMBER = Pattern.compile("-StreamThread-(\\d+)$");
    private static final long WAIT_SECONDS = 5;

    private final Admin admin;
    private final String groupId;
    private final String groupInstanceId;

    /**
     * @param groupInstanceId the instance's static membership, {@code null} when it has none (a
     *                        dynamic member leaves the group as its thread closes)
     */
    ReplacedThreadMembers(Admin admin, String groupId, String groupInstanceId) {
        this.admin = admin;
        this.groupId = groupId;
        this.groupInstanceId = groupInstanceId;
    }

    /** Removes the static member of the stream thread named {@code threadName}, if it has one. */
    void remove(String threadName) {
        Matcher number = THREAD_NUMBER.matcher(threadName);
        if (groupInstanceId == null || !number.find()) {
            return;
        }
        MemberToRemove member = new MemberToRemove(groupInstanceId + "-" + number.group(1));
        try {
            admin.removeMembersFromConsumerGroup(groupId, new RemoveMembersFromConsumerGroupOptions(List.of(member)))
                    .all()
                    .get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn(
                    "the replaced stream thread stays in the group until its session times out: {}",
                    e instanceof ExecutionException
                            ? e.getCause().getClass().getSimpleName()
                            : "no answer in " + WAIT_SECONDS + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
