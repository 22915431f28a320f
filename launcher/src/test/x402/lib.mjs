// Shared helpers for the Proofline x402 test harness (test-only; local anvil chain only).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { mnemonicToAccount } from "viem/accounts";
import { bytesToHex, defineChain } from "viem";

export const HERE = dirname(fileURLToPath(import.meta.url));
export const ANVIL_BIN = join(HERE, "node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil");

/** Anvil's default dev mnemonic: public test keys, worthless outside a local chain. */
export const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";

/** Anvil dev account `index` as {address, privateKey}. */
export function devAccount(index) {
  const acct = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index });
  return { address: acct.address, privateKey: bytesToHex(acct.getHdKey().privateKey) };
}

/**
 * Minimal `--name value` / `--flag` parser. Returns {name: value|true, _: [positionals]}.
 * Names are kept as written (kebab-case).
 */
export function parseArgs(argv = process.argv.slice(2)) {
  const out = { _: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      if (eq > 0) {
        out[a.slice(2, eq)] = a.slice(eq + 1);
      } else if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) {
        out[a.slice(2)] = argv[++i];
      } else {
        out[a.slice(2)] = true;
      }
    } else {
      out._.push(a);
    }
  }
  return out;
}

/**
 * The chain description printed by chain.mjs: from `--chain FILE`, else env X402_CHAIN_FILE,
 * else env X402_CHAIN (the JSON itself). Returns null when none is given.
 */
export function loadChain(args) {
  if (args.chain) return JSON.parse(readFileSync(args.chain, "utf8"));
  if (process.env.X402_CHAIN_FILE) return JSON.parse(readFileSync(process.env.X402_CHAIN_FILE, "utf8"));
  if (process.env.X402_CHAIN) return JSON.parse(process.env.X402_CHAIN);
  return null;
}

/** A viem chain object for a local anvil chain. */
export function localChain(chainId, rpcUrl) {
  return defineChain({
    id: chainId,
    name: `anvil-${chainId}`,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

/** Print one JSON line to stdout. */
export function emit(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

/** Log to stderr with a prefix. */
export function log(prefix, ...parts) {
  process.stderr.write(`[${prefix}] ${parts.map((p) => (typeof p === "string" ? p : JSON.stringify(p))).join(" ")}\n`);
}

/** Minimal ERC-20 ABI used by the harness. */
export const erc20Abi = [
  { type: "function", name: "balanceOf", stateMutability: "view", inputs: [{ name: "a", type: "address" }], outputs: [{ type: "uint256" }] },
  { type: "function", name: "name", stateMutability: "view", inputs: [], outputs: [{ type: "string" }] },
  { type: "function", name: "decimals", stateMutability: "view", inputs: [], outputs: [{ type: "uint8" }] },
  { type: "function", name: "authorizationState", stateMutability: "view", inputs: [{ name: "a", type: "address" }, { name: "n", type: "bytes32" }], outputs: [{ type: "bool" }] },
];

/** Read a request body (node:http) as a string. */
export function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Standard (not URL-safe) base64 of the UTF-8 JSON, as x402 v2 headers use. */
export const b64json = (obj) => Buffer.from(JSON.stringify(obj), "utf8").toString("base64");
export const unb64json = (s) => JSON.parse(Buffer.from(s, "base64").toString("utf8"));
