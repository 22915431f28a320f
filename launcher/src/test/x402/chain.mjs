#!/usr/bin/env node
// Proofline x402 harness: a local EVM chain with an EIP-3009 "USDC" test token.
//
//   node chain.mjs [--port 8545] [--chain-id 31337] [--mint 100000000] [--out chain.json] [--exit-on-stdin-close]
//
// Starts anvil (binary from @foundry-rs/anvil-linux-amd64) on 127.0.0.1:PORT, compiles
// contracts/TestUSDC.sol with solc-js on OpenZeppelin 5.7.0 (cached in .cache/), deploys it with
// viem from anvil dev account 0 (the facilitator), mints --mint atomic units (6 decimals; default
// 100 USDC) to the payer (dev account 1), places a Multicall3 stand-in at the canonical address,
// then prints ONE JSON line on stdout (also written to --out FILE if given) and keeps anvil running.
// Stops anvil and exits on SIGTERM/SIGINT, and also when stdin closes if --exit-on-stdin-close is given
// (handy for a parent JVM: closing the child's stdin is a clean stop).
// Anvil gets PR_SET_PDEATHSIG (via setpriv) so it dies even if this process is SIGKILLed.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createPublicClient, createWalletClient, getAddress, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { ANVIL_BIN, HERE, devAccount, emit, localChain, log, parseArgs } from "./lib.mjs";

const MULTICALL3_ADDRESS = "0xcA11bde05977b3631167028862bE2a173976CA11";
const args = parseArgs();
const port = Number(args.port ?? 8545);
const chainId = Number(args["chain-id"] ?? 31337);
const mintAmount = BigInt(args.mint ?? "100000000");
const host = "127.0.0.1";
const rpcUrl = `http://${host}:${port}`;

// ---------- compile (cached in .cache/, keyed by solc + OZ versions, sources and settings) ----------
async function compileContracts() {
  const version = (pkg) => JSON.parse(readFileSync(join(HERE, "node_modules", pkg, "package.json"), "utf8")).version;
  const sources = {
    "TestUSDC.sol": { content: readFileSync(join(HERE, "contracts/TestUSDC.sol"), "utf8") },
    "Multicall3Lite.sol": { content: readFileSync(join(HERE, "contracts/Multicall3Lite.sol"), "utf8") },
  };
  const settings = {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: "cancun",
    outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
  };
  const key = createHash("sha256")
    .update(JSON.stringify({ solc: version("solc"), oz: version("@openzeppelin/contracts"), sources, settings }))
    .digest("hex")
    .slice(0, 16);
  const cacheFile = join(HERE, ".cache", `contracts-${key}.json`);
  if (existsSync(cacheFile)) return JSON.parse(readFileSync(cacheFile, "utf8"));

  const t0 = Date.now();
  const solc = (await import("solc")).default;
  const findImports = (path) => {
    const p = join(HERE, "node_modules", path);
    return existsSync(p) ? { contents: readFileSync(p, "utf8") } : { error: `not found: ${path}` };
  };
  const out = JSON.parse(solc.compile(JSON.stringify({ language: "Solidity", sources, settings }), { import: findImports }));
  const errors = (out.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length) throw new Error("solc: " + errors.map((e) => e.formattedMessage).join("\n"));
  const pick = (file, name) => ({
    abi: out.contracts[file][name].abi,
    bytecode: "0x" + out.contracts[file][name].evm.bytecode.object,
    deployedBytecode: "0x" + out.contracts[file][name].evm.deployedBytecode.object,
  });
  const result = { TestUSDC: pick("TestUSDC.sol", "TestUSDC"), Multicall3Lite: pick("Multicall3Lite.sol", "Multicall3Lite") };
  mkdirSync(join(HERE, ".cache"), { recursive: true });
  writeFileSync(cacheFile, JSON.stringify(result));
  log("chain", `compiled contracts with solc ${solc.version()} in ${Date.now() - t0} ms`);
  return result;
}

// ---------- anvil ----------
function startAnvil() {
  const anvilArgs = ["--host", host, "--port", String(port), "--chain-id", String(chainId), "--accounts", "10", "--silent"];
  const haveSetpriv = spawnSync("setpriv", ["--version"], { stdio: "ignore" }).status === 0;
  const [cmd, cmdArgs] = haveSetpriv
    ? ["setpriv", ["--pdeathsig", "KILL", "--", ANVIL_BIN, ...anvilArgs]]
    : [ANVIL_BIN, anvilArgs];
  const child = spawn(cmd, cmdArgs, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  child.on("exit", (code, sig) => {
    if (!shuttingDown) {
      log("chain", `anvil exited unexpectedly (code ${code}, signal ${sig}): ${stderr.trim()}`);
      process.exit(1);
    }
  });
  return child;
}

async function waitForRpc(client, ms = 15000) {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      return await client.getChainId();
    } catch (e) {
      if (Date.now() > deadline) throw new Error(`anvil did not answer on ${rpcUrl}: ${e.message}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

let shuttingDown = false;
let anvil;
function shutdown(code = 0) {
  if (shuttingDown) return;
  shuttingDown = true;
  if (anvil && anvil.exitCode === null) anvil.kill("SIGTERM");
  setTimeout(() => process.exit(code), 200).unref();
}
process.on("SIGTERM", () => shutdown(0));
process.on("SIGINT", () => shutdown(0));

async function main() {
  const artifactsP = compileContracts(); // compile while anvil starts
  anvil = startAnvil();
  const chain = localChain(chainId, rpcUrl);
  const transport = http(rpcUrl);
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 });
  const gotId = await waitForRpc(publicClient);
  if (gotId !== chainId) throw new Error(`chain id ${gotId} != ${chainId}`);
  const artifacts = await artifactsP;

  const facilitator = devAccount(0);
  const payer = devAccount(1);
  const payTo = devAccount(2);
  const unfundedPayer = devAccount(3);
  const deployer = privateKeyToAccount(facilitator.privateKey);
  const wallet = createWalletClient({ account: deployer, chain, transport, pollingInterval: 50 });

  const deployHash = await wallet.deployContract({ abi: artifacts.TestUSDC.abi, bytecode: artifacts.TestUSDC.bytecode });
  const receipt = await publicClient.waitForTransactionReceipt({ hash: deployHash });
  const token = getAddress(receipt.contractAddress);
  const mintHash = await wallet.writeContract({ address: token, abi: artifacts.TestUSDC.abi, functionName: "mint", args: [payer.address, mintAmount] });
  await publicClient.waitForTransactionReceipt({ hash: mintHash });

  const existing = await publicClient.getCode({ address: MULTICALL3_ADDRESS });
  if (!existing || existing === "0x") {
    await publicClient.request({ method: "anvil_setCode", params: [MULTICALL3_ADDRESS, artifacts.Multicall3Lite.deployedBytecode] });
  }

  const info = {
    rpcUrl,
    chainId,
    network: `eip155:${chainId}`,
    token,
    tokenName: "USDC",
    tokenVersion: "2",
    decimals: 6,
    minted: mintAmount.toString(),
    payer,
    payTo: payTo.address,
    payToKey: payTo.privateKey,
    unfundedPayer,
    facilitator: facilitator.address,
    facilitatorKey: facilitator.privateKey,
    multicall3: MULTICALL3_ADDRESS,
    anvilPid: anvil.pid,
    pid: process.pid,
  };
  if (args.out) writeFileSync(args.out, JSON.stringify(info, null, 2) + "\n");
  emit(info);

  if (args["exit-on-stdin-close"]) {
    process.stdin.on("end", () => shutdown(0));
    process.stdin.on("error", () => shutdown(0));
    process.stdin.resume();
  }
}

main().catch((e) => {
  log("chain", `failed: ${e.stack || e}`);
  shutdown(1);
});
