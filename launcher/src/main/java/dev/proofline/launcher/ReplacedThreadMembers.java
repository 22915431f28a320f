package dev.proofline.launcher;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MemberToRemove;
import org.apache.kafka.clients.admin.RemoveMembersFromConsumerGroupOptions;
import org.apache.kafka.common.errors.UnknownMemberIdException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a replaced stream thread out of the consumer group once it has ended, so that its
 * partitions move on at once. Kafka Streams replaces a thread without leaving the group (a static
 * member never leaves on its own: that is what lets a restarted instance take its place back at
 * once), and the replacement joins under a new thread number, so the dead member kept its
 * partitions until its session timed out: 45 s without a receipt on them.
 *
 * <p>The member goes only after the thread has ended: until then it still holds its open
 * transaction and its state directories, which the partitions' next owner needs.
 */
final class ReplacedThreadMembers {
    private static final Logger LOG = LoggerFactory.getLogger(ReplacedThreadMembers.class);
    // Streams names its threads CLIENT-StreamThread-N.
    private static final Pattern THREAD_NUMBER = Pattern.compile("-StreamThread-(\\d+)$");
    private static final long END_WAIT_SECONDS = 60;
    private static final long ADMIN_WAIT_SECONDS = 10;

    private final Admin admin;
    private final String groupId;
    private final IntFunction<Optional<String>> memberOfThread;

    /**
     * @param memberOfThread the static member ({@code group.instance.id}) of the stream thread with
     *                       this number, empty when the instance has none (a dynamic member leaves
     *                       the group as its thread closes)
     */
    ReplacedThreadMembers(Admin admin, String groupId, IntFunction<Optional<String>> memberOfThread) {
        this.admin = admin;
        this.groupId = groupId;
        this.memberOfThread = memberOfThread;
    }

    /** Once {@code thread}, a stream thread being replaced, has ended, removes its static member, in the background. */
    void removeOnceEnded(Thread thread) {
        Optional<String> member = member(thread.getName());
        if (member.isEmpty()) {
            return;
        }
        Thread remover = new Thread(() -> removeOnceEnded(thread, member.get()), "proofline-member-removal");
        remover.setDaemon(true);
        remover.start();
    }

    /** The static member of the stream thread named {@code threadName}, if it has one. */
    Optional<String> member(String threadName) {
        Matcher number = THREAD_NUMBER.matcher(threadName);
        return number.find() ? memberOfThread.apply(Integer.parseInt(number.group(1))) : Optional.empty();
    }

    private static boolean nameTakenByALiveThread(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.isAlive() && t.getName().equals(name));
    }

    private void removeOnceEnded(Thread thread, String member) {
        try {
            thread.join(TimeUnit.SECONDS.toMillis(END_WAIT_SECONDS));
            if (thread.isAlive()) {
                LOG.warn("a replaced stream thread has not ended after {} s: it stays in the group", END_WAIT_SECONDS);
                return;
            }
            if (nameTakenByALiveThread(thread.getName())) {
                return; // Streams gave its number to a newer thread, whose member this now is
            }
            admin.removeMembersFromConsumerGroup(
                            groupId, new RemoveMembersFromConsumerGroupOptions(List.of(new MemberToRemove(member))))
                    .all()
                    .get(ADMIN_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof UnknownMemberIdException)) { // else already gone: nothing to do
                LOG.warn(
                        "a replaced stream thread stays in the group until its session times out: {}",
                        e.getCause().getClass().getSimpleName());
            }
        } catch (TimeoutException | RuntimeException e) {
            LOG.warn(
                    "a replaced stream thread stays in the group until its session times out: {}",
                    e.getClass().getSimpleName());
        }
    }
}
