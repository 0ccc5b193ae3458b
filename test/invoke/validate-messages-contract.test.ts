// What a refused call says about each wrong value, from the validator's errors: an unknown property
// of a closed object by name, a value that fits no branch of an anyOf with the branches' labels
// (single-value branches as their value, nested alternatives flattened), and arguments that are
// not an object named by their kind.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseConfig } from '../../src/config/index.ts';
import { importSpec } from '../../src/import/index.ts';
import { createInvoker, type InvokeArgs, type InvokeResult } from '../../src/invoke/index.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'svc-validate-messages-'));
});
after(() => rm(dir, { recursive: true, force: true }));

/** Calls the one POST of a spec whose JSON request body has `schema` (YAML flow), with `args`. */
async function call(schema: string, args: InvokeArgs): Promise<InvokeResult> {
  const file = path.join(dir, `spec-${Math.random().toString(36).slice(2)}.yaml`);
  await writeFile(
    file,
    `openapi: 3.0.3\ninfo: { title: t, version: '1' }\nservers: [{ url: 'http://127.0.0.1:9/api' }]\npaths:\n  /things:\n    post:\n` +
      `      requestBody: { required: true, content: { application/json: { schema: ${schema} } } }\n      responses: { '200': { description: ok } }\n`,
  );
  const config = await parseConfig(`specs:\n  - path: ${JSON.stringify(file)}\n    name: v\n    writes: allow\n`, path.join(dir, 'svc.yaml'));
  const outcome = await importSpec(file, { name: 'v', collection: 'default' });
  assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome.errors));
  return createInvoker(config).invoke(outcome.spec.endpoints[0]!, outcome.spec, args, {});
}

/** The problem lines of a refusal (`- ...`). */
function problems(r: InvokeResult): string[] {
  assert.equal(r.isError, true, r.text);
  return r.text.split('\n').filter((l) => l.startsWith('- '));
}

describe('problems with a body', () => {
  test('an unknown property of a closed object is named', async () => {
    const r = await call('{ type: object, additionalProperties: false, properties: { a: { type: integer } } }', { body: { a: 1, zz: 2 } });
    assert.deepEqual(problems(r), ["- body: unknown property 'zz'"]);
  });

  test('a value that fits no branch of an anyOf lists the branches once, values as values', async () => {
    const r = await call('{ anyOf: [{ type: string, enum: [on] }, { type: string, enum: [off, auto] }, { type: integer }, { type: integer }] }', { body: true });
    assert.deepEqual(problems(r), ['- body: must be one of: "on", string: "off"|"auto", integer']);
  });

  test('nested alternatives in a branch are flattened into its label', async () => {
    const r = await call('{ oneOf: [{ anyOf: [{ type: string, enum: [x] }, { type: string, enum: [y, z] }] }, { type: boolean }] }', { body: 5 });
    // The inner anyOf fails too and is told first, with its own branches.
    assert.deepEqual(problems(r), ['- body: must be one of: "x", string: "y"|"z"', '- body: must be exactly one of: "x"|string: "y"|"z", boolean']);
  });
});

test('params that are not an object are named by their kind', async () => {
  for (const [params, kind] of [[null, 'null'], [[1], 'array'], ['a', 'string'], [3, 'number']] as const) {
    const r = await call('{ type: object }', { params: params as unknown as Record<string, unknown>, body: {} });
    assert.deepEqual(problems(r), [`- params: must be an object keyed by parameter name, got ${kind}`]);
  }
});
