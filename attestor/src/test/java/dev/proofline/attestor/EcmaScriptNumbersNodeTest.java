package dev.proofline.attestor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our number printing against Node's own {@code String(x)}, the definition RFC 8785 points to, on
 * random doubles of every exponent and on the edges where printers usually go wrong.
 */
class EcmaScriptNumbersNodeTest {
    private static final int RANDOM_COUNT = 120_000;

    @Test
    void matchesNodeOnRandomAndEdgeDoubles(@TempDir Path tmp) throws Exception {
        Assumptions.assumeTrue(
                nodeAvailable(), "SKIPPED: node is not on PATH, so ECMAScript printing was not compared");
        List<Double> values = edgeCases();
        SplittableRandom random = new SplittableRandom(8785);
        while (values.size() < RANDOM_COUNT) {
            double d = Double.longBitsToDouble(random.nextLong()); // every exponent and mantissa
            if (Double.isFinite(d)) {
                values.add(d);
            }
            values.add(random.nextDouble() * Math.pow(10, random.nextInt(-30, 30))); // human-sized numbers
            values.add((double) random.nextLong(-(1L << 60), 1L << 60)); // integers past 2^53
            // short decimals such as prices, which take the 15-digit fast path
            long digits = random.nextLong(1, 1_000_000_000_000_000L) / (long) Math.pow(10, random.nextInt(0, 15));
            values.add(Double.parseDouble(digits + "e-" + random.nextInt(0, 23)));
        }
        StringBuilder bits = new StringBuilder();
        for (double d : values) {
            bits.append(Long.toHexString(Double.doubleToRawLongBits(d))).append('\n');
        }
        Path input = tmp.resolve("bits.txt");
        Files.writeString(input, bits);
        Path script = tmp.resolve("print.js");
        Files.writeString(script, """
                const lines = require('fs').readFileSync(process.argv[2], 'utf8').trim().split('\\n');
                const buf = new DataView(new ArrayBuffer(8));
                const out = lines.map(h => { buf.setBigUint64(0, BigInt('0x' + h)); return String(buf.getFloat64(0)); });
                require('fs').writeFileSync(process.argv[3], out.join('\\n') + '\\n');
                """);
        Path output = tmp.resolve("node.txt");
        Process node = new ProcessBuilder("node", script.toString(), input.toString(), output.toString())
                .inheritIO()
                .start();
        assertTrue(node.waitFor(120, TimeUnit.SECONDS), "node did not finish");
        assertEquals(0, node.exitValue());
        List<String> expected = Files.readAllLines(output, StandardCharsets.UTF_8);
        assertEquals(values.size(), expected.size());
        int mismatches = 0;
        StringBuilder first = new StringBuilder();
        for (int i = 0; i < values.size(); i++) {
            String ours = EcmaScriptNumbers.format(values.get(i));
            if (!ours.equals(expected.get(i))) {
                if (mismatches++ < 5) {
                    first.append(String.format(
                            "%n  %s: node %s, ours %s",
                            Long.toHexString(Double.doubleToRawLongBits(values.get(i))), expected.get(i), ours));
                }
            }
        }
        assertEquals(0, mismatches, mismatches + " of " + values.size() + " differ:" + first);
        System.out.println("ECMAScript number printing matched node on " + values.size() + " doubles");
    }

    private static List<Double> edgeCases() {
        List<Double> edges = new ArrayList<>(List.of(
                0.0,
                -0.0,
                Double.MIN_VALUE,
                -Double.MIN_VALUE,
                Double.MIN_NORMAL,
                Double.MAX_VALUE,
                -Double.MAX_VALUE,
                Math.nextDown(Double.MIN_NORMAL),
                Math.nextUp(Double.MIN_NORMAL),
                1e21,
                Math.nextDown(1e21),
                Math.nextUp(1e21),
                1e20,
                999999999999999999999.0,
                1e-7,
                Math.nextDown(1e-7),
                Math.nextUp(1e-7),
                1e-6,
                Math.nextDown(1e-6),
                0.000001,
                9007199254740992.0,
                9007199254740993.0,
                9007199254740994.0,
                18014398509481984.0,
                333333333.33333329,
                4.5,
                0.002,
                1e-27,
                1e30,
                0.1,
                0.2,
                0.1 + 0.2,
                2e23,
                5e-324,
                1.7976931348623157e308,
                2.2250738585072014e-308,
                2.225073858507201e-308,
                123456789012345680000.0));
        for (int exponent = -330; exponent <= 310; exponent++) {
            double power = Double.parseDouble("1e" + exponent);
            edges.add(power);
            edges.add(Math.nextUp(power));
            edges.add(Math.nextDown(power));
        }
        for (int shift = 0; shift < 64; shift++) {
            edges.add(Math.scalb(1.0, shift + 20));
            edges.add(Math.nextDown(Math.scalb(1.0, shift + 20)));
        }
        edges.removeIf(d -> !Double.isFinite(d));
        return edges;
    }

    private static boolean nodeAvailable() {
        try {
            Process p = new ProcessBuilder("node", "--version")
                    .redirectErrorStream(true)
                    .start();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
