#!/usr/bin/env node
// HARNESS SELF-TEST (no Proofline involved): starts chain.mjs, facilitator.mjs and the throwaway
// fake-server.mjs on free loopback ports, drives them with pay.mjs / mcp-pay.mjs / balance.mjs and
// checks that money moves by exactly the price, and that replays and bad payments are refused.
//
//   node selftest.mjs [--price 10000] [--keep]      (--keep: leave the processes running, print their info)
//
// Prints "ok - ..." / "not ok - ..." per check and a closing line "N passed, N failed"; exit 1 on failure.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { HERE, parseArgs, unb64json } from "./lib.mjs";

const args = parseArgs();
const price = BigInt(args.price ?? "10000");
const work = mkdtempSync(join(tmpdir(), "x402-selftest-"));
const children = [];
let passed = 0;
let failed = 0;

function check(name, cond, detail) {
  if (cond) {
    passed++;
    console.log(`ok - ${name}`);
  } else {
    failed++;
    console.log(`not ok - ${name}${detail !== undefined ? ": " + JSON.stringify(detail).slice(0, 800) : ""}`);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Start a long-running harness script and resolve with its first stdout JSON line. */
function startService(script, scriptArgs, timeoutMs = 90_000) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(HERE, script), ...scriptArgs, "--exit-on-stdin-close"], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    children.push(child);
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
      if (args.verbose) process.stderr.write(d);
    });
    const timer = setTimeout(() => reject(new Error(`${script} not ready in ${timeoutMs} ms: ${stderr}`)), timeoutMs);
    const rl = createInterface({ input: child.stdout });
    rl.once("line", (line) => {
      clearTimeout(timer);
      resolve(JSON.parse(line));
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}: ${stderr}`));
    });
  });
}

/** Run a one-shot harness script and parse its JSON stdout line. */
function run(script, scriptArgs) {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(HERE, script), ...scriptArgs], { timeout: 120_000 }, (err, stdout, stderr) => {
      try {
        resolve(JSON.parse(stdout.trim().split("\n").at(-1)));
      } catch {
        resolve({ error: `${script} failed: ${err?.message} ${stderr}` });
      }
    });
  });
}

async function postJson(url, body) {
  const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: r.status, json: await r.json() };
}

async function main() {
  const chainPort = await freePort();
  const chainFile = join(work, "chain.json");
  const t0 = Date.now();
  const chain = await startService("chain.mjs", ["--port", String(chainPort), "--out", chainFile]);
  console.log(`# chain ready in ${Date.now() - t0} ms: ${chain.rpcUrl} ${chain.network} token ${chain.token}`);
  const fac = await startService("facilitator.mjs", ["--chain", chainFile, "--port", "0"]);
  console.log(`# facilitator ready: ${fac.url}`);
  const srv = await startService("fake-server.mjs", ["--chain", chainFile, "--facilitator", fac.url, "--port", "0", "--price", String(price)]);
  console.log(`# fake server ready: ${srv.url} ${srv.mcpUrl}`);
  const bodyFile = join(work, "body.json");
  writeFileSync(bodyFile, JSON.stringify({ query: "self-test" }));
  const C = ["--chain", chainFile];
  const bal = async () => (await run("balance.mjs", C)).balances;

  // 1. facilitator /supported
  const sup = await (await fetch(`${fac.url}/supported`)).json();
  check("GET /supported lists exact on the chain", sup.kinds?.some((k) => k.x402Version === 2 && k.scheme === "exact" && k.network === chain.network), sup);

  // 2. unpaid request -> 402 with a spec-shaped PAYMENT-REQUIRED
  const r402 = await fetch(srv.url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
  const pr = r402.headers.get("payment-required") ? unb64json(r402.headers.get("payment-required")) : null;
  const a = pr?.accepts?.[0];
  check(
    "unpaid -> 402 + PAYMENT-REQUIRED",
    r402.status === 402 && pr?.x402Version === 2 && a?.scheme === "exact" && a?.network === chain.network && a?.amount === String(price) &&
      a?.asset === chain.token && a?.payTo === chain.payTo && a?.extra?.name === "USDC" && a?.extra?.version === "2",
    pr,
  );

  // 3. pay over HTTP
  const before = await bal();
  const paid = await run("pay.mjs", [...C, "--url", srv.url, "--body", bodyFile, "--print-signature"]);
  const after = await bal();
  check("pay.mjs -> 200 with PAYMENT-RESPONSE success", paid.status === 200 && paid.paymentResponse?.success === true && /^0x[0-9a-f]{64}$/.test(paid.paymentResponse?.transaction) && paid.paymentResponse?.payer === chain.payer.address && paid.paymentResponse?.network === chain.network, paid);
  const dPayer = BigInt(before[chain.payer.address]) - BigInt(after[chain.payer.address]);
  const dPayTo = BigInt(after[chain.payTo]) - BigInt(before[chain.payTo]);
  check(`payer -${price}, payTo +${price} exactly`, dPayer === price && dPayTo === price, { before, after });
  console.log(`# balances before ${JSON.stringify(before)}`);
  console.log(`# balances after  ${JSON.stringify(after)}`);
  const nonce = paid.paymentPayload?.payload?.authorization?.nonce;
  const ns = await run("balance.mjs", [...C, "--nonce", chain.payer.address, nonce]);
  check("EIP-3009 nonce marked used on chain", ns.used === true, ns);

  // 4. replay the same PAYMENT-SIGNATURE -> refused, no money moves
  const replay = await run("pay.mjs", ["--url", srv.url, "--body", bodyFile, "--signature", paid.paymentSignature]);
  const afterReplay = await bal();
  check("replayed signature -> 402 invalid_exact_evm_nonce_already_used", replay.status === 402 && replay.paymentRequired?.error === "invalid_exact_evm_nonce_already_used", replay);
  check("replay moved no money", JSON.stringify(afterReplay) === JSON.stringify(after), afterReplay);

  // 5. unfunded payer -> refused
  const poor = await run("pay.mjs", [...C, "--payer", "unfunded", "--url", srv.url, "--body", bodyFile]);
  check("unfunded payer -> 402 invalid_exact_evm_insufficient_balance", poor.status === 402 && poor.paymentRequired?.error === "invalid_exact_evm_insufficient_balance", poor);

  // 6. facilitator API directly: verify, settle, settle again, tampered value
  const signed = await run("pay.mjs", [...C, "--url", srv.url, "--body", bodyFile, "--sign-only"]);
  const reqs = signed.paymentRequired?.accepts?.[0];
  const v1 = await postJson(`${fac.url}/verify`, { x402Version: 2, paymentPayload: signed.paymentPayload, paymentRequirements: reqs });
  check("POST /verify -> isValid true", v1.status === 200 && v1.json.isValid === true && v1.json.payer === chain.payer.address, v1);
  const tampered = structuredClone(signed.paymentPayload);
  tampered.payload.authorization.value = String(price - 1n);
  const v2 = await postJson(`${fac.url}/verify`, { x402Version: 2, paymentPayload: tampered, paymentRequirements: reqs });
  check("POST /verify tampered value -> invalid", v2.status === 200 && v2.json.isValid === false, v2);
  const s1 = await postJson(`${fac.url}/settle`, { x402Version: 2, paymentPayload: signed.paymentPayload, paymentRequirements: reqs });
  check("POST /settle -> success", s1.status === 200 && s1.json.success === true && s1.json.network === chain.network, s1);
  const s2 = await postJson(`${fac.url}/settle`, { x402Version: 2, paymentPayload: signed.paymentPayload, paymentRequirements: reqs });
  check("POST /settle again -> success false", s2.status === 200 && s2.json.success === false && s2.json.transaction === "", s2);
  const bad = await postJson(`${fac.url}/verify`, { x402Version: 2 });
  check("POST /verify without payload -> 400", bad.status === 400, bad);

  // 7. MCP transport
  const b7 = await bal();
  const mcp = await run("mcp-pay.mjs", [...C, "--url", srv.mcpUrl, "--tool", "paid_echo", "--args", '{"x":1}']);
  const a7 = await bal();
  check("MCP: first call isError + PaymentRequired", mcp.paymentRequired?.x402Version === 2 && mcp.paymentRequired?.resource?.url === "mcp://tool/paid_echo", mcp);
  check("MCP: paid call -> _meta x402/payment-response success", mcp.paid === true && !mcp.result?.isError && mcp.paymentResponse?.success === true, mcp);
  check("MCP: moved exactly the price", BigInt(b7[chain.payer.address]) - BigInt(a7[chain.payer.address]) === price && BigInt(a7[chain.payTo]) - BigInt(b7[chain.payTo]) === price, { b7, a7 });
  const mreplay = await run("mcp-pay.mjs", [...C, "--url", srv.mcpUrl, "--tool", "paid_echo", "--payment", JSON.stringify(mcp.paymentPayload)]);
  check("MCP: replayed payment -> isError nonce used", mreplay.result?.isError === true && mreplay.paymentRequired?.error === "invalid_exact_evm_nonce_already_used", mreplay);

  if (args.keep) {
    console.log(JSON.stringify({ chainFile, chain, facilitator: fac, server: srv }));
    await new Promise(() => {});
  }
}

main()
  .catch((e) => {
    failed++;
    console.log(`not ok - harness error: ${e.stack || e}`);
  })
  .finally(() => {
    for (const c of children) {
      c.stdin.end();
      c.kill("SIGTERM");
    }
    console.log(`${passed} passed, ${failed} failed`);
    setTimeout(() => process.exit(failed ? 1 : 0), 300);
  });
