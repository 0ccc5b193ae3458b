// Attacks on the daemon's time and memory through a spec's schemas: a `pattern` with nested
// quantifiers (catastrophic backtracking), a lookahead RE2 cannot run, a body schema too large
// to compile whole.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseConfig } from '../../src/config/index.ts';
import { importSpec } from '../../src/import/index.ts';
import { createInvoker, type InvokeResult } from '../../src/invoke/index.ts';
import { MAX_SCHEMA_NODES } from '../../src/invoke/compile.ts';
import { harness, startServer, type Harness, type TestServer } from './helpers.ts';

let server: TestServer;
let h: Harness;
let dir: string;

before(async () => {
  process.env.SVC_SB_TOKEN = 'bearer-Zs71-bounds';
  server = await startServer();
  dir = await mkdtemp(path.join(tmpdir(), 'svc-bounds-'));
  h = await harness('guarded.yaml', 'g', `serverVariables:\n  port: "${server.port}"\nwrites: allow\nauth:\n  - { type: bearer, token: "\${SVC_SB_TOKEN}" }`);
});
after(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function timed(params: Record<string, unknown>): Promise<{ r: InvokeResult; ms: number }> {
  const started = performance.now();
  const r = await h.call('GET:/patterns', { params });
  return { r, ms: performance.now() - started };
}

describe('spec patterns run in linear time', () => {
  test('a nested-quantifier pattern cannot freeze the daemon with a crafted argument', async () => {
    const { r, ms } = await timed({ nested: `${'a'.repeat(30)}!` });
    assert.equal(r.isError, true);
    assert.match(r.text, /nested: must match pattern "\^\(a\+\)\+\$"/);
    assert.ok(ms < 2000, `took ${ms} ms`);
    const ok = await timed({ nested: 'a'.repeat(5000) });
    assert.equal(ok.r.isError, undefined, ok.r.text);
  });

  test('a nested-quantifier key pattern (patternProperties) cannot freeze it either', async () => {
    const { r, ms } = await timed({ tags: { [`${'b'.repeat(30)}!`]: 'x', bbb: 1 } });
    assert.equal(r.isError, undefined, r.text);
    assert.ok(ms < 2000, `took ${ms} ms`);
    const bad = await timed({ tags: { bbb: 'not a number' } });
    assert.match(bad.r.text, /tags\/bbb: must be integer/);
  });

  test('a pattern RE2 cannot run (lookahead) is skipped with a note, never run by a backtracking engine', async () => {
    const { r } = await timed({ lookahead: 'anything at all' });
    assert.equal(r.isError, undefined, r.text);
    assert.match(r.text, /\[lookahead: pattern "\^\(\?=x\)x\+\$" not checked: svc's linear-time regex engine cannot run it\]/);
  });

  test('patterns RE2 can run are still enforced', async () => {
    assert.match((await timed({ digits: '12a' })).r.text, /digits: must match pattern/);
    assert.equal((await timed({ digits: '123' })).r.isError, undefined);
  });
});

describe('schema compile budget', () => {
  /** Levels L0..L6, each with four properties of the next level: 5,461 sub-schemas in all. */
  function wideSpec(): string {
    const levels = Array.from({ length: 7 }, (_, i) => {
      const props = i < 6 ? ['a', 'b', 'c', 'd'].map((p) => `${p}: { $ref: '#/components/schemas/L${i + 1}' }`).join(', ') : '';
      return `    L${i}:\n      type: object\n      required: [name]\n      properties: { name: { type: string }${props ? `, ${props}` : ''} }`;
    });
    return `openapi: 3.0.3
info: { title: wide, version: '1' }
servers: [{ url: '${server.origin}/api' }]
paths:
  /wide:
    post:
      requestBody: { content: { application/json: { schema: { $ref: '#/components/schemas/L0' } } } }
      responses: { '200': { description: ok } }
components:
  schemas:
${levels.join('\n')}
`;
  }

  test('a body schema past the budget is checked to its top levels only, and the answer says so', async () => {
    const file = path.join(dir, 'wide.yaml');
    await writeFile(file, wideSpec());
    const config = await parseConfig(`specs:\n  - path: ${JSON.stringify(file)}\n    name: wide\n    writes: allow\n`, path.join(dir, 'svc.yaml'));
    const outcome = await importSpec(file, { name: 'wide', collection: 'default' });
    assert.ok(outcome.ok);
    const invoker = createInvoker(config);
    const endpoint = outcome.spec.endpoints[0]!;
    const call = (body: unknown): Promise<InvokeResult> => invoker.invoke(endpoint, outcome.spec, { body }, {});

    const top = await call({ a: { name: 'x' } });
    assert.equal(top.isError, true, 'the top level is still checked');
    assert.match(top.text, /body: must have required property 'name'/);

    // Six levels down, past the budget: not checked, sent, and said.
    let deep: Record<string, unknown> = { missing: 'name' };
    for (let i = 0; i < 6; i++) deep = { name: `l${i}`, a: deep };
    const r = await call(deep);
    assert.equal(r.isError, undefined, r.text);
    assert.match(r.text, /\[body checked to depth \d+ only: its schema \(\d+ sub-schemas, \d+ levels\) is larger than svc checks whole; the API checks the rest\]/);
    assert.ok(MAX_SCHEMA_NODES < 5461);
  });
});
