// Generates TypeScript types from Proofline's /openapi.json with openapi-typescript and type-checks
// a small client with tsc: a typed call to POST /verify/schema and both of its answers (the receipt,
// the error document) must compile, and a wrongly typed request must not (so the types are real,
// not `any`).
// usage: node openapi-typecheck.mjs OPENAPI.json   -> prints "typed" or exits 1 with tsc's output
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import openapiTS, { astToString } from 'openapi-typescript';

const dir = path.dirname(new URL(import.meta.url).pathname);
const doc = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
fs.writeFileSync(path.join(dir, 'api.d.ts'), astToString(await openapiTS(doc)));

const call = `
import type { paths, components } from "./api";
type Verify = paths["/verify/schema"]["post"];
type Body = Verify["requestBody"]["content"]["application/json"];
type Receipt = Verify["responses"]["200"]["content"]["application/json"];
type Problem = Verify["responses"]["422"]["content"]["application/json"];
type Score = paths["/score/{agent_id}"]["get"]["responses"]["200"]["content"]["application/json"];

export async function verify(base: string, body: Body): Promise<Receipt | Problem> {
  const res = await fetch(base + "/verify/schema", { method: "POST", body: JSON.stringify(body) });
  return (await res.json()) as Receipt | Problem;
}

const request: Body = {
  task_id: "t-1",
  agent_id: null,
  expected_schema: { type: "object", required: ["total"] },
  submitted_output: { total: 1 },
  rules: [{ type: "sum_equals", field: "lines[].amount", equals_field: "total" }],
  bounds: { "lines[].amount": { min: 0 } },
  enforce_rules: true,
  detail: "full",
};

verify("http://127.0.0.1:8080", request).then((answer) => {
  if ("attestation" in answer) {
    const result: "pass" | "fail" = answer.result;
    const signature: string = answer.attestation.signature;
    const expected: string | undefined = answer.hints?.[0]?.expected;
    const passed: number = answer.schema_compliance?.passed ?? 0;
    console.log(result, signature, expected, passed);
  } else {
    const code: components["schemas"]["ErrorDocument"]["code"] = answer.code;
    const retryable: boolean = answer.retryable;
    console.log(code, retryable, answer.fields?.[0]?.fix);
  }
});

export function trust(score: Score): number | null {
  return score.trust_score;
}
`;
const bad = `
import type { paths } from "./api";
type Body = paths["/verify/schema"]["post"]["requestBody"]["content"]["application/json"];
export const wrong: Body = { task_id: 5, expected_schema: {}, submitted_output: 1, detail: "everything" };
`;
fs.writeFileSync(path.join(dir, 'call.ts'), call);
fs.writeFileSync(path.join(dir, 'bad.ts'), bad);

const tsc = path.join(dir, 'node_modules', 'typescript', 'bin', 'tsc');
const options = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'es2022', '--moduleResolution', 'bundler',
  '--lib', 'es2022,dom', '--skipLibCheck'];
try {
  execFileSync(process.execPath, [tsc, ...options, path.join(dir, 'call.ts')], { encoding: 'utf8' });
} catch (e) {
  console.error('the typed call does not compile:\n' + e.stdout);
  process.exit(1);
}
try {
  execFileSync(process.execPath, [tsc, ...options, path.join(dir, 'bad.ts')], { encoding: 'utf8' });
  console.error('a request with task_id: 5 and detail: "everything" type-checked: the types are too loose');
  process.exit(1);
} catch (e) {
  // Two errors, both on the wrong values: task_id's number and detail's unknown word.
  const errors = (e.stdout.match(/error TS2322/g) || []).length;
  if (errors !== 2 || !e.stdout.includes("'number' is not assignable to type 'string'")
      || !e.stdout.includes('"everything"')) {
    console.error('bad.ts failed for another reason:\n' + e.stdout);
    process.exit(1);
  }
}
console.log('typed');
