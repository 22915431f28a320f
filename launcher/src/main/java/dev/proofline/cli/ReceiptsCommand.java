package dev.proofline.cli;

import dev.proofline.client.AgentCardKeys;
import dev.proofline.client.InvalidReceiptException;
import dev.proofline.client.VerifiedReceipt;
import dev.proofline.client.VerifiedReceiptStream;
import dev.proofline.schemas.RestSchemaRegistryClient;
import java.io.PrintStream;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code proofline receipts --follow [--agent ID] [--from-beginning] [--max N] [--url URL]
 * [--bootstrap-servers HOST:PORT] [--config FILE] [--<setting> VALUE]...}: one line per receipt whose signature verifies, as it lands; receipts that
 * do not verify are reported on stderr, never printed as valid.
 */
final class ReceiptsCommand implements Command {
    @Override
    public int run(List<String> words, PrintStream out, PrintStream err) throws Exception {
        boolean follow = words.contains("--follow");
        boolean fromBeginning = words.contains("--from-beginning");
        DeploymentArgs deployment = DeploymentArgs.parse(
                words.stream()
                        .filter(w -> !w.equals("--follow") && !w.equals("--from-beginning"))
                        .toList(),
                Set.of("agent", "max", "url"));
        Args args = deployment.ownArgs();
        args.expectPositionals(0);
        if (!follow) {
            throw new UsageException("only --follow is supported: receipts are a stream");
        }
        String agent = args.option("agent");
        int max = (int) args.wholeNumber("max", 0, 0, Integer.MAX_VALUE);
        String url = deployment.baseUrl();
        CountDownLatch enough = new CountDownLatch(1);
        AtomicInteger printed = new AtomicInteger();
        AtomicInteger invalid = new AtomicInteger();
        VerifiedReceiptStream.Listener listener = new VerifiedReceiptStream.Listener() {
            @Override
            public void onReceipt(VerifiedReceipt r, String correlationId) {
                if (agent != null && !agent.equals(r.agentId())) {
                    return;
                }
                int n = printed.incrementAndGet();
                if (max > 0 && n > max) {
                    return; // the rest of the batch that was already read while stopping
                }
                out.println(r.verificationId() + "  " + r.result() + "  " + r.agentId() + "  " + r.taskId()
                        + "  signature valid");
                out.flush();
                if (max > 0 && n == max) {
                    enough.countDown();
                }
            }

            @Override
            public void onInvalid(InvalidReceiptException problem, String correlationId) {
                invalid.incrementAndGet();
                err.println("NOT VERIFIED: " + problem.getMessage());
            }
        };
        try (VerifiedReceiptStream stream = new VerifiedReceiptStream(
                deployment.kafkaClient(),
                deployment.settings().topics().receipts(),
                null,
                new RestSchemaRegistryClient(deployment.registryUrl()),
                AgentCardKeys.of(url),
                fromBeginning,
                listener)) {
            enough.await(); // until --max receipts, or Ctrl-C
        }
        return invalid.get() > 0 ? 1 : 0;
    }
}
