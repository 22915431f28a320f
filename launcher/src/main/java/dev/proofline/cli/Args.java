package dev.proofline.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code positional --option value} command lines, checked against the options a command knows. */
final class Args {
    private final List<String> positional = new ArrayList<>();
    private final Map<String, String> options = new HashMap<>();

    Args(List<String> words, Set<String> knownOptions) {
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            if (word.startsWith("--")) {
                String name = word.substring(2);
                String value = null;
                int eq = name.indexOf('=');
                if (eq >= 0) {
                    value = name.substring(eq + 1);
                    name = name.substring(0, eq);
                }
                if (!knownOptions.contains(name)) {
                    throw new UsageException("unknown option --" + name);
                }
                if (value == null) {
                    if (i + 1 >= words.size()) {
                        throw new UsageException("--" + name + " needs a value");
                    }
                    value = words.get(++i);
                }
                options.put(name, value);
            } else {
                positional.add(word);
            }
        }
    }

    String positional(int index, String what) {
        if (index >= positional.size()) {
            throw new UsageException("missing " + what);
        }
        return positional.get(index);
    }

    void expectPositionals(int count) {
        if (positional.size() > count) {
            throw new UsageException("unexpected argument '" + positional.get(count) + "'");
        }
    }

    String option(String name) {
        return options.get(name);
    }

    String option(String name, String fallback) {
        return options.getOrDefault(name, fallback);
    }

    /** A whole-number option within {@code [least, most]}, or a usage error that says so. */
    long wholeNumber(String name, long fallback, long least, long most) {
        String text = options.get(name);
        if (text == null) {
            return fallback;
        }
        try {
            long value = Long.parseLong(text);
            if (value >= least && value <= most) {
                return value;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new UsageException("--" + name + " takes a whole number from " + least + " to " + most);
    }
}
