#!/usr/bin/env node
// Proofline x402 harness: the REFERENCE facilitator (x402Facilitator from @x402/core with the
// facilitator ExactEvmScheme from @x402/evm) behind node:http, for the local anvil chain.
//
//   node facilitator.mjs --chain chain.json [--port 0] [--host 127.0.0.1]
//   (or X402_CHAIN_FILE=chain.json / X402_CHAIN='<json line from chain.mjs>' instead of --chain;
//    --rpc URL --key 0xPRIVATEKEY --network eip155:31337 override/replace the chain file)
//
// Endpoints (x402 v2 facilitator API):
//   POST /verify   {x402Version, paymentPayload, paymentRequirements} -> 200 VerifyResponse
//   POST /settle   {x402Version, paymentPayload, paymentRequirements} -> 200 SettleResponse
//   GET  /supported                                                  -> 200 SupportedResponse
// Malformed JSON / missing fields -> 400 {error}; unexpected exception -> 500 {error}.
// Prints ONE ready line on stdout: {"ready":true,"url":"http://127.0.0.1:PORT",...}; one log line
// per request on stderr. --exit-on-stdin-close stops it when stdin closes.
import { createServer } from "node:http";
import { x402Facilitator } from "@x402/core/facilitator";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import { createWalletClient, http, publicActions } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { emit, loadChain, localChain, log, parseArgs, readBody } from "./lib.mjs";

const args = parseArgs();
const chainInfo = loadChain(args) ?? {};
const rpcUrl = args.rpc ?? chainInfo.rpcUrl;
const key = args.key ?? chainInfo.facilitatorKey;
const network = args.network ?? chainInfo.network ?? (chainInfo.chainId ? `eip155:${chainInfo.chainId}` : undefined);
if (!rpcUrl || !key || !network) {
  log("facilitator", "need --chain FILE (or X402_CHAIN_FILE / X402_CHAIN) or --rpc, --key and --network");
  process.exit(2);
}
const chainId = Number(network.split(":")[1]);
const port = Number(args.port ?? 0);
const host = args.host ?? "127.0.0.1";

const account = privateKeyToAccount(key);
const viemClient = createWalletClient({
  account,
  chain: localChain(chainId, rpcUrl),
  transport: http(rpcUrl),
  pollingInterval: 50, // anvil mines instantly; viem's 4 s default would slow every settle
}).extend(publicActions);

// Same wiring as the repository's examples/typescript/facilitator/basic/index.ts.
const evmSigner = toFacilitatorEvmSigner(
  {
    address: account.address,
    getCode: (a) => viemClient.getCode(a),
    readContract: (a) => viemClient.readContract({ ...a, args: a.args || [] }),
    verifyTypedData: (a) => viemClient.verifyTypedData(a),
    writeContract: (a) => viemClient.writeContract({ ...a, args: a.args || [] }),
    sendTransaction: (a) => viemClient.sendTransaction(a),
    waitForTransactionReceipt: (a) => viemClient.waitForTransactionReceipt(a),
  },
  { confirmationTimeoutMs: 30_000 },
);

const facilitator = new x402Facilitator().register(network, new ExactEvmScheme(evmSigner));

function send(res, status, obj) {
  const body = JSON.stringify(obj);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

const server = createServer(async (req, res) => {
  const path = new URL(req.url, "http://x").pathname;
  try {
    if (req.method === "GET" && path === "/supported") {
      return send(res, 200, facilitator.getSupported());
    }
    if (req.method === "POST" && (path === "/verify" || path === "/settle")) {
      let body;
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        return send(res, 400, { error: "request body is not JSON" });
      }
      const { paymentPayload, paymentRequirements } = body ?? {};
      if (!paymentPayload || typeof paymentPayload !== "object" || !paymentRequirements || typeof paymentRequirements !== "object") {
        return send(res, 400, { error: "Missing paymentPayload or paymentRequirements" });
      }
      const t0 = Date.now();
      const out =
        path === "/verify"
          ? await facilitator.verify(paymentPayload, paymentRequirements)
          : await facilitator.settle(paymentPayload, paymentRequirements);
      log("facilitator", `${path} ${Date.now() - t0}ms`, out);
      return send(res, 200, out);
    }
    send(res, 404, { error: "not found" });
  } catch (e) {
    log("facilitator", `${req.method} ${path} error: ${e?.stack || e}`);
    // x402Facilitator throws e.g. for an unregistered scheme/network or x402Version.
    send(res, 500, { error: e instanceof Error ? e.message : String(e) });
  }
});

server.listen(port, host, () => {
  const url = `http://${host}:${server.address().port}`;
  emit({ ready: true, url, signer: account.address, network, rpcUrl, pid: process.pid });
});

const stop = () => server.close(() => process.exit(0)) && setTimeout(() => process.exit(0), 500).unref();
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
if (args["exit-on-stdin-close"]) {
  process.stdin.on("end", stop);
  process.stdin.resume();
}
