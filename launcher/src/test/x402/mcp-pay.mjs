#!/usr/bin/env node
// Proofline x402 harness: an MCP client (@modelcontextprotocol/sdk, Streamable HTTP) that pays for
// a tool call per the x402 v2 MCP transport (specs/transports-v2/mcp.md), signing with the same
// reference x402Client + ExactEvmScheme as pay.mjs.
//
//   node mcp-pay.mjs --url http://127.0.0.1:PORT/mcp --tool NAME [--args 'JSON' | --args-file FILE]
//                    [--chain chain.json] [--key 0xKEY | --payer payer|unfunded] [--max-amount N]
//                    [--header 'Name: value'] [--sign-only] [--payment FILE_OR_JSON]
//
// Flow: tools/call without payment; if the result has isError:true and a PaymentRequired
// (structuredContent, else JSON in content[0].text, with x402Version and accepts), build a
// PaymentPayload and call again with params._meta["x402/payment"] = PaymentPayload.
// Prints ONE JSON line:
//   {paid:bool, paymentRequired:<first PaymentRequired>|null, paymentPayload:<sent>|null,
//    result:<final CallToolResult>, paymentResponse:<result._meta["x402/payment-response"]>|null}
// --sign-only: stop after building the payload (printed, not sent).
// --payment X: send this PaymentPayload (a file path or a JSON string) in _meta directly (replay).
// Exit code 0, or 1 with {"error":...}.
import { existsSync, readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { x402Client } from "@x402/core/client";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import { privateKeyToAccount } from "viem/accounts";
import { emit, loadChain, log, parseArgs } from "./lib.mjs";

const PAYMENT_META_KEY = "x402/payment";
const PAYMENT_RESPONSE_META_KEY = "x402/payment-response";

const args = parseArgs();
const chainInfo = loadChain(args);
if (!args.url || !args.tool) {
  log("mcp-pay", "--url and --tool are required");
  process.exit(2);
}
const toolArgs = args["args-file"] ? JSON.parse(readFileSync(args["args-file"], "utf8")) : JSON.parse(args.args ?? "{}");
const headers = {};
if (args.header) {
  const [k, ...v] = String(args.header).split(":");
  headers[k.trim()] = v.join(":").trim();
}

/** PaymentRequired from a tool result, per the spec's client rules (structuredContent first). */
export function extractPaymentRequired(result) {
  if (!result?.isError) return null;
  const ok = (o) => o && typeof o === "object" && "x402Version" in o && Array.isArray(o.accepts);
  if (ok(result.structuredContent)) return result.structuredContent;
  const text = result.content?.[0]?.type === "text" ? result.content[0].text : null;
  if (text) {
    try {
      const parsed = JSON.parse(text);
      if (ok(parsed)) return parsed;
      if (ok(parsed?.["x402/error"]?.data)) return parsed["x402/error"].data;
    } catch {
      /* not JSON */
    }
  }
  return null;
}

function payClient() {
  const key = args.key ?? (args.payer === "unfunded" ? chainInfo?.unfundedPayer?.privateKey : chainInfo?.payer?.privateKey);
  if (!key) throw new Error("need --key or a chain file");
  const account = privateKeyToAccount(key);
  return x402Client.fromConfig({
    schemes: [{ network: "eip155:*", client: new ExactEvmScheme(account) }],
    spendControls: chainInfo
      ? { allowedAssets: [{ network: chainInfo.network, asset: chainInfo.token, ...(args["max-amount"] ? { maxAmountPerPayment: String(args["max-amount"]) } : {}) }] }
      : false,
  });
}

async function main() {
  const transport = new StreamableHTTPClientTransport(new URL(args.url), { requestInit: { headers } });
  const client = new Client({ name: "proofline-x402-harness", version: "0.0.0" });
  await client.connect(transport);
  try {
    const call = (meta) => client.callTool({ name: args.tool, arguments: toolArgs, ...(meta ? { _meta: meta } : {}) });
    if (args.payment) {
      const p = String(args.payment);
      const payload = JSON.parse(existsSync(p) ? readFileSync(p, "utf8") : p);
      const result = await call({ [PAYMENT_META_KEY]: payload });
      return { paid: true, paymentRequired: extractPaymentRequired(result), paymentPayload: payload, result, paymentResponse: result._meta?.[PAYMENT_RESPONSE_META_KEY] ?? null };
    }
    const first = await call();
    const paymentRequired = extractPaymentRequired(first);
    if (!paymentRequired) return { paid: false, paymentRequired: null, paymentPayload: null, result: first, paymentResponse: null };
    const paymentPayload = await payClient().createPaymentPayload(paymentRequired);
    if (args["sign-only"]) return { paid: false, paymentRequired, paymentPayload, result: first, paymentResponse: null };
    const result = await call({ [PAYMENT_META_KEY]: paymentPayload });
    return { paid: true, paymentRequired, paymentPayload, result, paymentResponse: result._meta?.[PAYMENT_RESPONSE_META_KEY] ?? null };
  } finally {
    await client.close().catch(() => {});
  }
}

main()
  .then((out) => {
    emit(out);
    process.stdout.write("", () => process.exit(0));
  })
  .catch((e) => {
    emit({ error: e instanceof Error ? e.message : String(e) });
    process.stdout.write("", () => process.exit(1));
  });
