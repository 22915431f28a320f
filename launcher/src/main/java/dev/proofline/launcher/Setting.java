package dev.proofline.launcher;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * One operator setting, declared once: its key, how its text becomes a typed value, its default and
 * what it is for. {@link Settings} lists them all; the README's configuration table is checked
 * against that list.
 *
 * @param shownDefault the default as the README shows it ({@code ""} for none)
 */
public record Setting<T>(
        String key, Function<String, T> parser, T defaultValue, String shownDefault, String description) {

    /** The value set, parsed, or the default ({@code Optional.empty()} when there is neither). */
    public Optional<T> valueIn(ProoflineConfig config) {
        Optional<String> raw = config.raw(key);
        if (raw.isEmpty()) {
            return Optional.ofNullable(defaultValue);
        }
        try {
            return Optional.of(parser.apply(raw.get().trim()));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(key + " is not valid: " + e.getMessage());
        }
    }

    /** The value, for settings that always have one (a default or a set value). */
    public T in(ProoflineConfig config) {
        return valueIn(config).orElseThrow(() -> new IllegalStateException(key + " has no value and no default"));
    }

    static Setting<String> text(String key, String defaultValue, String description) {
        return new Setting<>(key, s -> s, defaultValue, defaultValue, description);
    }

    /** A text setting with no default of its own: empty unless set (the default is derived). */
    static Setting<String> optionalText(String key, String shownDefault, String description) {
        return new Setting<>(key, s -> s, null, shownDefault, description);
    }

    static Setting<Integer> integer(String key, int defaultValue, int min, int max, String description) {
        return new Setting<>(
                key,
                s -> within(key, Integer.parseInt(s), min, max),
                defaultValue,
                Integer.toString(defaultValue),
                description);
    }

    /** {@code true} or {@code false}, nothing else (a typo must not silently pick one). */
    static Setting<Boolean> flag(String key, boolean defaultValue, String description) {
        return new Setting<>(
                key,
                s -> switch (s) {
                    case "true" -> true;
                    case "false" -> false;
                    default -> throw new IllegalArgumentException("must be true or false");
                },
                defaultValue,
                Boolean.toString(defaultValue),
                description);
    }

    /** Comma-separated values; empty by default. */
    static Setting<List<String>> list(String key, String description) {
        return new Setting<>(
                key,
                s -> Arrays.stream(s.split(","))
                        .map(String::trim)
                        .filter(v -> !v.isEmpty())
                        .toList(),
                List.of(),
                "",
                description);
    }

    static Setting<Path> path(String key, String shownDefault, String description) {
        return new Setting<>(key, Path::of, null, shownDefault, description);
    }

    static Setting<Duration> seconds(String key, int defaultSeconds, String description) {
        return new Setting<>(
                key,
                s -> Duration.ofSeconds(within(key, Integer.parseInt(s), 1, 3600)),
                Duration.ofSeconds(defaultSeconds),
                Integer.toString(defaultSeconds),
                description);
    }

    static Setting<Duration> hours(String key, int defaultHours, String description) {
        return new Setting<>(
                key,
                s -> Duration.ofHours(within(key, Integer.parseInt(s), 1, 24 * 366)),
                Duration.ofHours(defaultHours),
                Integer.toString(defaultHours),
                description);
    }

    private static int within(String key, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException("must be between " + min + " and " + max);
        }
        return value;
    }
}
