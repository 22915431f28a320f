package dev.proofline.reputation;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a score query needs of one agent: its history (the KTable) and its daily windows (the
 * windowed store), read together from the instance that owns the agent.
 *
 * @param days one entry per UTC day with counted receipts, oldest first, as far back as the
 *     windowed store keeps them
 */
public record AgentStanding(AgentHistory history, List<Day> days) {
    /** The windows a score answer shows: the UTC day of {@code as_of}, and the 7 and 30 days ending with it. */
    public static final List<Integer> WINDOW_DAYS = List.of(1, 7, 30);

    private static final long DAY = Duration.ofDays(1).toMillis();

    /** One daily window: its start (UTC midnight, epoch milliseconds) and counts. */
    public record Day(long startMillis, long passed, long failed) {}

    public AgentStanding {
        days = List.copyOf(days);
    }

    /** Passed and failed in each window ending with the UTC day of {@code asOfMillis}, by its name ({@code 7d}). */
    public Map<String, DailyCounts> windows(long asOfMillis) {
        return windows(days, asOfMillis);
    }

    /** The same for any list of days (an agent with none has every window at zero). */
    public static Map<String, DailyCounts> windows(List<Day> days, long asOfMillis) {
        long lastDay = Math.floorDiv(asOfMillis, DAY) * DAY;
        Map<String, DailyCounts> windows = new LinkedHashMap<>();
        for (int length : WINDOW_DAYS) {
            long firstDay = lastDay - (length - 1) * DAY;
            long passed = 0;
            long failed = 0;
            for (Day day : days) {
                if (day.startMillis() >= firstDay && day.startMillis() <= lastDay) {
                    passed += day.passed();
                    failed += day.failed();
                }
            }
            windows.put(length + "d", new DailyCounts(passed, failed));
        }
        return windows;
    }

    /** The form the internal route carries between instances: the history's JSON plus {@code days}. */
    public ObjectNode toJson() {
        ObjectNode node = AgentHistorySerde.toJson(history);
        var list = node.putArray("days");
        days.forEach(d -> list.addObject()
                .put("start_ms", d.startMillis())
                .put("passed", d.passed())
                .put("failed", d.failed()));
        return node;
    }

    public static AgentStanding fromJson(JsonNode node) {
        List<Day> days = new ArrayList<>();
        node.path("days")
                .forEach(d -> days.add(new Day(
                        d.get("start_ms").asLong(),
                        d.get("passed").asLong(),
                        d.get("failed").asLong())));
        return new AgentStanding(AgentHistorySerde.fromJson(node), days);
    }
}
