#!/usr/bin/env node
// ============================================================================================
// HARNESS SELF-TEST ONLY. Not Proofline and not a model for it beyond the wire format: a tiny
// node:http x402 v2 "resource server" used to prove chain.mjs + facilitator.mjs + pay.mjs work
// together without Proofline. It does by hand what a resource server must do:
//   1. no PAYMENT-SIGNATURE -> 402, header PAYMENT-REQUIRED = base64(JSON PaymentRequired), body {}
//   2. PAYMENT-SIGNATURE    -> base64-decode the PaymentPayload, check x402Version == 2 and that
//      payload.accepted equals one of our accepts[] (else 402 again), POST facilitator /verify,
//      if isValid POST facilitator /settle, if success -> 200 with header
//      PAYMENT-RESPONSE = base64(JSON SettleResponse); on failure -> 402 with PAYMENT-REQUIRED
//      (error = reason) and, after a failed settle, PAYMENT-RESPONSE too. Malformed header -> 400.
// It also serves POST /mcp (MCP Streamable HTTP, stateless) with one paid tool "paid_echo", per
// specs/transports-v2/mcp.md: no params._meta["x402/payment"] -> result {isError:true,
// structuredContent: PaymentRequired, content:[{type:"text", text: JSON of {"x402/error": {code: 402,
// message, data: PaymentRequired}}}]}; with a payment ->
// verify, run the tool, settle, result with _meta["x402/payment-response"] = SettleResponse.
// ============================================================================================
//
//   node fake-server.mjs --chain chain.json --facilitator http://127.0.0.1:PORT [--port 0]
//                        [--price 10000] [--timeout 60] [--path /paid]
// Prints ONE ready line:
//   {"ready":true,"url":"http://127.0.0.1:PORT/paid","mcpUrl":"http://127.0.0.1:PORT/mcp","requirements":{...}}
import { createServer } from "node:http";
import { isDeepStrictEqual } from "node:util";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { b64json, emit, loadChain, log, parseArgs, readBody, unb64json } from "./lib.mjs";

const args = parseArgs();
const chainInfo = loadChain(args);
if (!chainInfo || !args.facilitator) {
  log("fake-server", "need --chain FILE (or X402_CHAIN_FILE / X402_CHAIN) and --facilitator URL");
  process.exit(2);
}
const facilitatorUrl = String(args.facilitator).replace(/\/+$/, "");
const paidPath = args.path ?? "/paid";
const port = Number(args.port ?? 0);

const requirements = {
  scheme: "exact",
  network: chainInfo.network, // CAIP-2, e.g. "eip155:31337"
  amount: String(args.price ?? "10000"), // atomic units, string (6 decimals: 10000 = 0.01 USDC)
  asset: chainInfo.token, // EIP-3009 token contract
  payTo: chainInfo.payTo,
  maxTimeoutSeconds: Number(args.timeout ?? 60),
  extra: { name: chainInfo.tokenName ?? "USDC", version: chainInfo.tokenVersion ?? "2" }, // EIP-712 domain
};

function paymentRequired(url, error) {
  return {
    x402Version: 2,
    error,
    resource: { url, description: "harness self-test resource", mimeType: "application/json" },
    accepts: [requirements],
  };
}

function reply(res, status, headers, obj) {
  const body = JSON.stringify(obj);
  res.writeHead(status, {
    "content-type": "application/json",
    "access-control-expose-headers": "PAYMENT-REQUIRED, PAYMENT-RESPONSE",
    ...headers,
  });
  res.end(body);
}

async function facilitator(op, paymentPayload) {
  const r = await fetch(`${facilitatorUrl}/${op}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ x402Version: 2, paymentPayload, paymentRequirements: requirements }),
  });
  const json = await r.json();
  if (!r.ok) throw new Error(`facilitator ${op} HTTP ${r.status}: ${JSON.stringify(json)}`);
  return json;
}

// ---------- MCP (stateless: a new Server + transport per HTTP request) ----------
function mcpToolError(paymentRequiredObj) {
  return {
    isError: true,
    structuredContent: paymentRequiredObj,
    content: [
      {
        type: "text",
        text: JSON.stringify({
          "x402/error": { code: 402, message: paymentRequiredObj.error, data: paymentRequiredObj },
        }),
      },
    ],
  };
}

function mcpServer() {
  const srv = new Server({ name: "x402-harness-fake", version: "0.0.0" }, { capabilities: { tools: {} } });
  srv.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: "paid_echo", description: "echoes its arguments; costs one payment", inputSchema: { type: "object" } }],
  }));
  srv.setRequestHandler(CallToolRequestSchema, async (request) => {
    const resourceUrl = "mcp://tool/paid_echo";
    const need = (error) => mcpToolError(paymentRequired(resourceUrl, error));
    if (request.params.name !== "paid_echo") return { isError: true, content: [{ type: "text", text: "unknown tool" }] };
    const payload = request.params._meta?.["x402/payment"];
    if (!payload) return need("Payment required to access this resource");
    if (payload.x402Version !== 2) return need("unsupported x402Version");
    if (!isDeepStrictEqual(payload.accepted, requirements)) return need("No matching payment requirements");
    const v = await facilitator("verify", payload);
    log("fake-server", "mcp verify", v);
    if (!v.isValid) return need(v.invalidReason ?? "invalid payment");
    const toolResult = { content: [{ type: "text", text: JSON.stringify({ ok: true, echoed: request.params.arguments ?? {} }) }] };
    const s = await facilitator("settle", payload);
    log("fake-server", "mcp settle", s);
    if (!s.success) return need(`Payment settlement failed: ${s.errorReason}`);
    return { ...toolResult, _meta: { "x402/payment-response": s } };
  });
  return srv;
}

async function handleMcp(req, res, rawBody) {
  const srv = mcpServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on("close", () => {
    transport.close();
    srv.close();
  });
  await srv.connect(transport);
  let parsed;
  try {
    parsed = rawBody ? JSON.parse(rawBody) : undefined;
  } catch {
    parsed = undefined;
  }
  await transport.handleRequest(req, res, parsed);
}

const server = createServer(async (req, res) => {
  const url = `http://${req.headers.host}${req.url}`;
  const path = new URL(req.url, "http://x").pathname;
  const requestBody = await readBody(req);
  if (path === "/mcp") {
    try {
      return await handleMcp(req, res, requestBody);
    } catch (e) {
      log("fake-server", `mcp error: ${e.stack || e}`);
      if (!res.headersSent) return reply(res, 500, {}, { error: String(e.message || e) });
      return;
    }
  }
  if (path !== paidPath) return reply(res, 404, {}, { error: "not found" });
  const sigHeader = req.headers["payment-signature"];
  const need = (error, extraHeaders = {}) =>
    reply(res, 402, { "payment-required": b64json(paymentRequired(url, error)), ...extraHeaders }, {});

  if (!sigHeader) return need("PAYMENT-SIGNATURE header is required");
  let payload;
  try {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(sigHeader)) throw new Error("not base64");
    payload = unb64json(sigHeader);
  } catch (e) {
    return reply(res, 400, {}, { error: `malformed PAYMENT-SIGNATURE: ${e.message}` });
  }
  if (payload?.x402Version !== 2) return need("unsupported x402Version");
  if (!isDeepStrictEqual(payload.accepted, requirements)) return need("No matching payment requirements");

  try {
    const v = await facilitator("verify", payload);
    log("fake-server", "verify", v);
    if (!v.isValid) return need(v.invalidReason ?? "invalid payment");
    // (a real server does its work here, between verify and settle)
    const s = await facilitator("settle", payload);
    log("fake-server", "settle", s);
    if (!s.success) return need(s.errorReason ?? "settlement failed", { "payment-response": b64json(s) });
    let echoed = null;
    try {
      echoed = requestBody ? JSON.parse(requestBody) : null;
    } catch {
      echoed = requestBody;
    }
    return reply(res, 200, { "payment-response": b64json(s) }, { ok: true, paidBy: s.payer, echoed });
  } catch (e) {
    log("fake-server", `error: ${e.stack || e}`);
    return reply(res, 500, {}, { error: String(e.message || e) });
  }
});

server.listen(port, "127.0.0.1", () => {
  const base = `http://127.0.0.1:${server.address().port}`;
  emit({ ready: true, url: `${base}${paidPath}`, mcpUrl: `${base}/mcp`, requirements, pid: process.pid });
});
process.on("SIGTERM", () => process.exit(0));
process.on("SIGINT", () => process.exit(0));
if (args["exit-on-stdin-close"]) {
  process.stdin.on("end", () => process.exit(0));
  process.stdin.resume();
}
