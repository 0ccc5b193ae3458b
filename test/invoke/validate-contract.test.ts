// What a refused call tells the model to send instead, from its contract: the expected body's
// media type (the one asked for, else JSON, form, multipart, text, then the first listed) and its
// shape, each property with a type label read from the schema; and the choice of body media type.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseConfig } from '../../src/config/index.ts';
import { importSpec } from '../../src/import/index.ts';
import { createInvoker, type InvokeResult } from '../../src/invoke/index.ts';
import { chooseContent } from '../../src/invoke/validate.ts';
import type { BodyContent } from '../../src/model/index.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'svc-validate-'));
});
after(() => rm(dir, { recursive: true, force: true }));

/** Calls the one operation of a spec whose request body is `body` (YAML), with `args`. */
async function call(body: string, args: { params?: Record<string, unknown>; body?: unknown; contentType?: string } = {}, openapi = '3.0.3'): Promise<InvokeResult> {
  const file = path.join(dir, `spec-${Math.random().toString(36).slice(2)}.yaml`);
  await writeFile(file, `openapi: ${openapi}\ninfo: { title: t, version: '1' }\nservers: [{ url: 'http://127.0.0.1:9/api' }]\npaths:\n  /things:\n    post:\n      requestBody:\n${body}\n      responses: { '200': { description: ok } }\n`);
  const config = await parseConfig(`specs:\n  - path: ${JSON.stringify(file)}\n    name: v\n    writes: allow\n`, path.join(dir, 'svc.yaml'));
  const outcome = await importSpec(file, { name: 'v', collection: 'default' });
  assert.ok(outcome.ok, JSON.stringify(!outcome.ok && outcome.errors));
  return createInvoker(config).invoke(outcome.spec.endpoints[0]!, outcome.spec, args, {});
}

function expectedBody(r: InvokeResult): string {
  assert.equal(r.isError, true, r.text);
  const line = r.text.split('\n').find((l) => l.startsWith('Expected body'));
  assert.ok(line !== undefined, r.text);
  return line;
}

describe('the expected body in a refusal', () => {
  // The schema is read 5 levels deep for this line: a branch's enum or items sit deeper (any).
  test('each property with its type label, required ones marked', async () => {
    const r = await call(
      `        required: true
        content:
          application/json:
            schema:
              type: object
              required: [ids, mode]
              properties:
                ids: { type: array, items: { type: integer } }
                anything: { type: array, items: {} }
                mode: { type: string, enum: [fast, slow] }
                either: { anyOf: [{ type: string, enum: [a] }, { type: integer }, { type: string, enum: [a] }] }
                choice: { oneOf: [{ type: boolean }, { type: array, items: { type: string } }] }
                free: {}
                count: { type: integer, nullable: true }`,
      { params: { nope: 1 } },
    );
    assert.equal(
      expectedBody(r),
      'Expected body (required): application/json object with ids (integer[], required), anything (any[]), mode (string: "fast"|"slow", required), either (string|integer), choice (boolean|any[]), free (any), count (integer|null)',
    );
  });

  test('type lists from OpenAPI 3.1 are joined', async () => {
    const r = await call(
      `        content:
          application/json:
            schema: { type: object, properties: { v: { type: [string, number] } } }`,
      { params: { nope: 1 } },
      '3.1.0',
    );
    assert.equal(expectedBody(r), 'Expected body: application/json object with v (string|number)');
  });

  test('more than 20 properties: the first 20 and how many more', async () => {
    const props = Array.from({ length: 23 }, (_, i) => `                p${i}: { type: string }`).join('\n');
    const r = await call(`        content:\n          application/json:\n            schema:\n              type: object\n              properties:\n${props}`, { params: { nope: 1 } });
    const listed = Array.from({ length: 20 }, (_, i) => `p${i} (string)`).join(', ');
    assert.equal(expectedBody(r), `Expected body: application/json object with ${listed}, and 3 more`);
  });

  test('a body that is not an object shows its type; no schema shows the media type alone', async () => {
    const s = await call(`        content:\n          text/plain:\n            schema: { type: string }`, { params: { nope: 1 } });
    assert.equal(expectedBody(s), 'Expected body: text/plain string');
    const n = await call(`        content:\n          application/octet-stream: {}`, { params: { nope: 1 } });
    assert.equal(expectedBody(n), 'Expected body: application/octet-stream');
    const u = await call(`        content:\n          application/json:\n            schema: { allOf: [{ type: string }] }`, { params: { nope: 1 } });
    assert.equal(expectedBody(u), 'Expected body: application/json');
  });

  test('a body for a media type the endpoint does not take is refused with the ones it does', async () => {
    const r = await call(`        content:\n          application/json: { schema: { type: object } }\n          application/xml: { schema: { type: object } }`, { body: { a: 1 }, contentType: 'text/csv' });
    assert.equal(r.isError, true);
    assert.match(r.text, /- contentType 'text\/csv': not one of application\/json, application\/xml/);
  });
});

describe('chooseContent', () => {
  const c = (...types: string[]): BodyContent[] => types.map((mediaType) => ({ mediaType }));
  test('the one asked for (parameters and case ignored), else JSON, form, multipart, text, else the first', () => {
    assert.equal(chooseContent(c('application/json', 'text/plain'), 'TEXT/Plain; charset=utf-8')?.mediaType, 'text/plain');
    assert.equal(chooseContent(c('application/json'), 'text/plain'), undefined);
    assert.equal(chooseContent(c('text/plain', 'multipart/form-data', 'application/x-www-form-urlencoded', 'application/hal+json'), undefined)?.mediaType, 'application/hal+json');
    assert.equal(chooseContent(c('text/plain', 'multipart/form-data', 'application/x-www-form-urlencoded'), undefined)?.mediaType, 'application/x-www-form-urlencoded');
    assert.equal(chooseContent(c('text/plain', 'multipart/form-data'), undefined)?.mediaType, 'multipart/form-data');
    assert.equal(chooseContent(c('application/xml', 'text/csv'), undefined)?.mediaType, 'text/csv');
    assert.equal(chooseContent(c('application/xml', 'image/png'), undefined)?.mediaType, 'application/xml');
    assert.equal(chooseContent(c('image/png', '*/*'), undefined)?.mediaType, '*/*');
    assert.equal(chooseContent([], undefined), undefined);
  });
});
