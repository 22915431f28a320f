// Talks to Proofline's /mcp with the official MCP TypeScript SDK only.
// usage: node mcp-client-check.mjs MCP_URL REQUEST.json AGENT_ID [KEY]   -> one JSON line
// With KEY, the client sends Authorization: Bearer KEY, as an MCP client holding a caller key does.
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const [url, requestFile, agentId, key] = process.argv.slice(2);
const client = new Client({ name: 'proofline-mcp-check', version: '1.0.0' });
const requestInit = key ? { headers: { Authorization: 'Bearer ' + key } } : undefined;
await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit }));
const tools = await client.listTools();
const request = JSON.parse(readFileSync(requestFile, 'utf8'));
const verified = await client.callTool({ name: 'verify_schema', arguments: request });
const record = await client.callTool({ name: 'get_verification_record', arguments: { agent_id: agentId } });
const invalid = await client.callTool({ name: 'verify_schema', arguments: { task_id: 't' } });
await client.close();

const wrongOrigin = await fetch(url, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Origin: 'http://evil.example' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
});
const badKey = await fetch(url, {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream',
    Authorization: 'Bearer pl_not-a-key-anyone-was-given' },
  body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
});
console.log(JSON.stringify({
  badKeyStatus: badKey.status, badKeyChallenge: badKey.headers.get('www-authenticate'),
  tools: tools.tools.map((t) => t.name).sort(),
  verified: verified.content[0].text, verifiedIsError: verified.isError === true,
  record: record.content[0].text, recordIsError: record.isError === true,
  invalid: invalid.content[0].text, invalidIsError: invalid.isError === true,
  wrongOriginStatus: wrongOrigin.status,
}));
