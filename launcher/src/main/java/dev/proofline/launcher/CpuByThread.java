package dev.proofline.launcher;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where the CPU of one bench phase went, by kind of thread: the broker, the stream threads, their
 * producers, the node's other readers, the bench's own clients; and all of this process's CPU
 * (garbage collection and the JIT included) per receipt. With the broker in the same process, this
 * is the whole machine's work for a receipt.
 */
final class CpuByThread {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final Map<Long, Long> before;
    private final Map<Long, String> names = new HashMap<>();
    private final long processBefore;
    private final long gcMillisBefore;
    private final long jitMillisBefore;
    private final GcPauses pauses;

    private CpuByThread() {
        this.before = snapshot();
        this.processBefore = processCpuNanos();
        this.gcMillisBefore = gcMillis();
        this.jitMillisBefore = jitMillis();
        this.pauses = GcPauses.start();
    }

    static CpuByThread start() {
        return new CpuByThread();
    }

    /** This process's CPU since the start, per receipt, in microseconds. */
    double microsPer(long receipts) {
        return (processCpuNanos() - processBefore) / 1000.0 / Math.max(1, receipts);
    }

    /** One line: CPU per answer ({@code per} names it: a receipt, a REST receipt) and each kind of thread's share. */
    String line(String per, long receipts) {
        Map<Long, Long> after = snapshot();
        Map<String, Long> byKind = new LinkedHashMap<>();
        long threadsTotal = 0;
        for (Map.Entry<Long, Long> thread : after.entrySet()) {
            long spent = thread.getValue() - before.getOrDefault(thread.getKey(), 0L);
            byKind.merge(kind(names.getOrDefault(thread.getKey(), "")), spent, Long::sum);
            threadsTotal += spent;
        }
        long process = processCpuNanos() - processBefore;
        StringBuilder line = new StringBuilder(String.format(
                "CPU per %s, whole process  %,10.0f µs  (", per, process / 1000.0 / Math.max(1, receipts)));
        long total = Math.max(1, process);
        byKind.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(kind ->
                        line.append(String.format("%s %.0f%%, ", kind.getKey(), 100.0 * kind.getValue() / total)));
        return line.append(String.format(
                        "GC, JIT and other %.0f%%; GC pauses %,d ms, the longest %,d ms; JIT compiling %,d ms)",
                        100.0 * (process - threadsTotal) / total,
                        gcMillis() - gcMillisBefore,
                        pauses.stopAndGetLongestMillis(),
                        jitMillis() - jitMillisBefore))
                .toString();
    }

    private Map<Long, Long> snapshot() {
        Map<Long, Long> cpu = new HashMap<>();
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info != null) {
                long nanos = THREADS.getThreadCpuTime(info.getThreadId());
                if (nanos >= 0) {
                    cpu.put(info.getThreadId(), nanos);
                    names.put(info.getThreadId(), info.getThreadName());
                }
            }
        }
        return cpu;
    }

    private static String kind(String thread) {
        if (thread.contains("StreamThread") && thread.endsWith("-producer")) {
            return "streams producers";
        } else if (thread.contains("StreamThread") || thread.contains("StateUpdater")) {
            return "stream threads";
        } else if (thread.startsWith("data-plane")
                || thread.startsWith("kafka-") && !thread.contains("|")
                || thread.contains("coordinator")
                || thread.startsWith("Txn")
                || thread.startsWith("AddPartitions")
                || thread.startsWith("quorum")
                || thread.startsWith("log-")
                || thread.startsWith("ReplicaFetcher")) {
            return "broker";
        } else if (thread.startsWith("JettyServerThreadPool") || thread.startsWith("Javalin")) {
            return "HTTP server";
        } else if (thread.startsWith("proofline-")) {
            return "node readers";
        }
        return "bench clients and other";
    }

    private static long gcMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(gc -> Math.max(0, gc.getCollectionTime()))
                .sum();
    }

    private static long jitMillis() {
        var jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}
