package dev.proofline.launcher;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The longest stop-the-world collection of one bench phase: what a caller may have waited behind,
 * beside the total the collectors' beans report. Concurrent cycles are not pauses and are left out.
 */
final class GcPauses implements NotificationListener {
    private final AtomicLong longestMillis = new AtomicLong();
    private final List<NotificationEmitter> emitters = new ArrayList<>();

    private GcPauses() {}

    static GcPauses start() {
        GcPauses pauses = new GcPauses();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter emitter && !isConcurrent(gc.getName())) {
                emitter.addNotificationListener(pauses, null, null);
                pauses.emitters.add(emitter);
            }
        }
        return pauses;
    }

    @Override
    public void handleNotification(Notification notification, Object handback) {
        if (GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            GarbageCollectionNotificationInfo info =
                    GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
            longestMillis.accumulateAndGet(info.getGcInfo().getDuration(), Math::max);
        }
    }

    /** The longest pause so far, and stops listening. */
    long stopAndGetLongestMillis() {
        for (NotificationEmitter emitter : emitters) {
            try {
                emitter.removeNotificationListener(this);
            } catch (ListenerNotFoundException e) {
                // already gone: nothing to stop
            }
        }
        return longestMillis.get();
    }

    private static boolean isConcurrent(String collector) {
        return collector.contains("Concurrent") || collector.contains("Cycles");
    }
}
