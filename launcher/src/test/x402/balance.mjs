#!/usr/bin/env node
// Proofline x402 harness: token balances on the local chain.
//
//   node balance.mjs --chain chain.json [ADDRESS ...]
//   node balance.mjs --rpc URL --token 0xTOKEN ADDRESS ...
//   node balance.mjs --chain chain.json --nonce 0xFROM 0xNONCE   (EIP-3009 authorizationState)
//
// Without addresses and with a chain file: payer, payTo, unfundedPayer and facilitator.
// Prints ONE JSON line: {"token":"0x..","blockNumber":"N","balances":{"0xAddr":"atomic units",...}}
// (with --nonce: {"authorizer":..,"nonce":..,"used":true|false}).
import { createPublicClient, getAddress, http } from "viem";
import { emit, erc20Abi, loadChain, log, parseArgs } from "./lib.mjs";

const args = parseArgs();
const chainInfo = loadChain(args) ?? {};
const rpcUrl = args.rpc ?? chainInfo.rpcUrl;
const token = args.token ?? chainInfo.token;
if (!rpcUrl || !token) {
  log("balance", "need --chain FILE (or X402_CHAIN_FILE / X402_CHAIN) or --rpc and --token");
  process.exit(2);
}
const client = createPublicClient({ transport: http(rpcUrl) });

if (args.nonce) {
  const authorizer = getAddress(String(args.nonce));
  const nonce = args._[0];
  const used = await client.readContract({ address: token, abi: erc20Abi, functionName: "authorizationState", args: [authorizer, nonce] });
  emit({ token, authorizer, nonce, used });
} else {
  let addresses = args._;
  if (!addresses.length) {
    addresses = [chainInfo.payer?.address, chainInfo.payTo, chainInfo.unfundedPayer?.address, chainInfo.facilitator].filter(Boolean);
  }
  const blockNumber = await client.getBlockNumber();
  const balances = {};
  for (const a of addresses) {
    const addr = getAddress(a);
    balances[addr] = (
      await client.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [addr], blockNumber })
    ).toString();
  }
  emit({ token, blockNumber: blockNumber.toString(), balances });
}
