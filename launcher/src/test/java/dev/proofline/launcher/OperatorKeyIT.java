package dev.proofline.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proofline.cli.ProoflineCliAccess;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first operator key follows the deployment, not the data dir: a data dir kept across a new
 * cluster (a new callers topic) gets the new deployment's operator, since the token it held opens
 * nothing there; a deployment whose operator was revoked on purpose gets none back on a restart.
 */
class OperatorKeyIT {
    @TempDir
    Path tmp;

    @Test
    void aTokenFromAnotherDeploymentIsReplacedAndARevokedOperatorStaysRevoked() throws Exception {
        Map<String, String> settings = Map.of("keys.dir", tmp.resolve("keys").toString());
        String first;
        try (TestKafka kafka = TestKafka.start(tmp.resolve("broker-1"));
                ProoflineNode node = TestNodes.start(kafka.bootstrapServers(), tmp, settings)) {
            first = node.newOperatorToken().orElseThrow();
            assertEquals(200, metricsStatus(node, first));
        }
        try (TestKafka kafka = TestKafka.start(tmp.resolve("broker-2"))) {
            String second;
            try (ProoflineNode node = TestNodes.start(kafka.bootstrapServers(), tmp, settings)) {
                second = node.newOperatorToken()
                        .orElseThrow(() -> new AssertionError("a new cluster has no operator: one is made"));
                assertNotEquals(first, second);
                assertEquals(Optional.of(second), node.operatorToken(), "the data dir keeps the new token");
                assertEquals(200, metricsStatus(node, second));
                assertEquals(401, metricsStatus(node, first), "the old deployment's token opens nothing here");
            }
            String name = operatorName(kafka.bootstrapServers());
            assertEquals(0, cli(kafka.bootstrapServers(), "revoke", name));
            try (ProoflineNode node = TestNodes.start(kafka.bootstrapServers(), tmp, settings)) {
                assertEquals(Optional.empty(), node.newOperatorToken(), "a revoked operator is not made again");
                assertEquals(Optional.of(second), node.operatorToken());
                assertEquals(401, metricsStatus(node, second));
            }
        }
    }

    private int cli(String bootstrap, String... action) {
        return cli(bootstrap, new ByteArrayOutputStream(), action);
    }

    private int cli(String bootstrap, ByteArrayOutputStream out, String... action) {
        List<String> args = new java.util.ArrayList<>(List.of("caller"));
        args.addAll(List.of(action));
        args.addAll(List.of(
                "--bootstrap-servers",
                bootstrap,
                "--data-dir",
                tmp.resolve("node").toString(),
                "--keys-dir",
                tmp.resolve("keys").toString()));
        return ProoflineCliAccess.run(args, out);
    }

    /** The one active operator's name, from {@code caller list}. */
    private String operatorName(String bootstrap) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(0, cli(bootstrap, out, "list"));
        String listed = out.toString(StandardCharsets.UTF_8);
        Matcher active = Pattern.compile("(?m)^(operator-[0-9a-f]{6})\\s+operator\\s.*\\sactive\\s")
                .matcher(listed);
        assertTrue(active.find(), listed);
        return active.group(1);
    }

    private static int metricsStatus(ProoflineNode node, String token) throws Exception {
        return HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(node.httpUrl() + "/metrics"))
                                .header("Authorization", "Bearer " + token)
                                .build(),
                        HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }
}
