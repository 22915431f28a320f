#!/usr/bin/env node
// Proofline x402 harness: the REFERENCE client (@x402/fetch wrapFetchWithPayment + x402Client with
// the client ExactEvmScheme from @x402/evm and a viem account) calling one URL.
//
//   node pay.mjs --url URL [--chain chain.json] [--body FILE | --data 'JSON'] [--method POST]
//                [--content-type application/json] [--key 0xPAYERKEY | --payer payer|unfunded]
//                [--max-amount ATOMIC] [--print-signature] [--sign-only] [--signature BASE64]
//                [--expect-status N]
//
// Default: send the request; on 402 read PAYMENT-REQUIRED, sign an EIP-3009 authorization, resend
// with PAYMENT-SIGNATURE; print ONE JSON line:
//   {status, headers:{...raw, lower-case names}, paymentResponse:<decoded PAYMENT-RESPONSE>|null,
//    paymentRequired:<decoded PAYMENT-REQUIRED of the final response>|null, body:<JSON or text>,
//    [paymentSignature:<raw base64 header sent>, paymentPayload:<decoded>, paymentRequiredFirst]}
// --print-signature adds paymentSignature/paymentPayload (to replay the same payment later).
// --sign-only: make the first request, expect 402, build + sign the payment but DO NOT send it; print
//   {status:402, paymentRequired, paymentSignature, paymentPayload}.
// --signature B64: no payment logic; send the request once with this PAYMENT-SIGNATURE (replay).
// The payer key comes from --key, else the chain file's payer (or unfundedPayer with --payer unfunded).
// Spend controls: the harness token is not an x402 "default asset", so it is allow-listed for the
// chain's network (capped by --max-amount if given); without a chain file spend controls are off.
// Exit code: 0 normally; 1 on an error (printed as {"error":...}); 3 if --expect-status differs.
import { readFileSync } from "node:fs";
import { wrapFetchWithPayment, x402Client, decodePaymentResponseHeader } from "@x402/fetch";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import { emit, loadChain, log, parseArgs, unb64json } from "./lib.mjs";

const args = parseArgs();
const chainInfo = loadChain(args);
if (!args.url) {
  log("pay", "--url is required");
  process.exit(2);
}
const method = String(args.method ?? "POST").toUpperCase();
let body;
if (args.body) body = readFileSync(args.body);
else if (args.data !== undefined) body = String(args.data);
const headers = {};
if (body !== undefined) headers["content-type"] = args["content-type"] ?? "application/json";
const init = { method, headers, body: method === "GET" || method === "HEAD" ? undefined : body };

function payerKey() {
  if (args.key) return args.key;
  if (!chainInfo) throw new Error("need --key or a chain file");
  return args.payer === "unfunded" ? chainInfo.unfundedPayer.privateKey : chainInfo.payer.privateKey;
}

async function describe(response, extra = {}) {
  const h = Object.fromEntries([...response.headers.entries()]);
  const text = await response.text();
  let parsed = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    /* keep text */
  }
  const pr = response.headers.get("payment-response");
  const preq = response.headers.get("payment-required");
  return {
    status: response.status,
    headers: h,
    paymentResponse: pr ? decodePaymentResponseHeader(pr) : null,
    paymentRequired: preq ? unb64json(preq) : null,
    body: parsed,
    ...extra,
  };
}

async function main() {
  // Replay mode: send the given PAYMENT-SIGNATURE as is.
  if (args.signature) {
    const r = await fetch(args.url, { ...init, headers: { ...headers, "PAYMENT-SIGNATURE": String(args.signature) } });
    return describe(r);
  }

  const account = privateKeyToAccount(payerKey());
  // x402Client.fromConfig is where spendControls go (same as wrapFetchWithPaymentFromConfig).
  const config = {
    schemes: [{ network: "eip155:*", client: new ExactEvmScheme(account) }],
    spendControls: chainInfo
      ? { allowedAssets: [{ network: chainInfo.network, asset: chainInfo.token, ...(args["max-amount"] ? { maxAmountPerPayment: String(args["max-amount"]) } : {}) }] }
      : false,
  };
  const payClient = x402Client.fromConfig(config);

  if (args["sign-only"]) {
    const r = await fetch(args.url, init);
    const preq = r.headers.get("payment-required");
    if (r.status !== 402 || !preq) return describe(r, { error: "expected a 402 with PAYMENT-REQUIRED" });
    const paymentRequired = unb64json(preq);
    const paymentPayload = await payClient.createPaymentPayload(paymentRequired);
    const paymentSignature = Buffer.from(JSON.stringify(paymentPayload), "utf8").toString("base64");
    return { status: 402, paymentRequired, paymentSignature, paymentPayload };
  }

  // Capture what the wrapper sends: the raw PAYMENT-SIGNATURE and the first PAYMENT-REQUIRED.
  const sent = [];
  let firstRequired = null;
  const capturingFetch = async (input, init2) => {
    const req = input instanceof Request ? input : new Request(input, init2);
    const sig = req.headers.get("payment-signature");
    if (sig) sent.push(sig);
    const resp = await fetch(req);
    if (!firstRequired && resp.status === 402 && resp.headers.get("payment-required")) {
      firstRequired = unb64json(resp.headers.get("payment-required"));
    }
    return resp;
  };
  const fetchWithPayment = wrapFetchWithPayment(capturingFetch, payClient);
  const response = await fetchWithPayment(args.url, init);
  const extra = {};
  if (args["print-signature"]) {
    extra.paymentSignature = sent.at(-1) ?? null;
    extra.paymentPayload = sent.length ? unb64json(sent.at(-1)) : null;
    extra.paymentRequiredFirst = firstRequired;
    if (sent.length > 1) extra.allPaymentSignatures = sent;
  }
  return describe(response, extra);
}

main()
  .then((out) => {
    emit(out);
    // exit now: keep-alive sockets to the server would otherwise hold the process for seconds
    process.exitCode = args["expect-status"] && Number(args["expect-status"]) !== out.status ? 3 : 0;
    process.stdout.write("", () => process.exit());
  })
  .catch((e) => {
    emit({ error: e instanceof Error ? e.message : String(e) });
    process.exitCode = 1;
    process.stdout.write("", () => process.exit());
  });
