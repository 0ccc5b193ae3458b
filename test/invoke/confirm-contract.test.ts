// What the person approving a write sees, from its contract: every line of the request as it will
// go out (multipart parts included), the places svc.yaml puts credentials named but never shown,
// and no secret anywhere in it, even when the model put one in a header or the body.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { parseConfig } from '../../src/config/index.ts';
import { importSpec } from '../../src/import/index.ts';
import { confirmationMessage, describeWrite, MAX_CONFIRM_BODY_CHARS } from '../../src/invoke/confirm.ts';
import { createInvoker } from '../../src/invoke/index.ts';
import { startServer, type TestServer } from './helpers.ts';

const SECRET = 'sk-live-7f3a9c21';

describe('describeWrite', () => {
  test('method and URL, headers, cookies, content type, where credentials go, then the body', () => {
    const c = describeWrite(
      {
        method: 'PUT',
        url: new URL('https://api.example.com/v1/items/7?dry=1'),
        headers: [['X-Trace', 't-1'], ['If-Match', '"e1"']],
        cookies: ['a=1', 'b=2'],
        body: { body: '{"n":1}', contentType: 'application/json' },
        credentials: ['Authorization header', 'query key api_key'],
      },
      'shop',
      'PUT /items/{id}',
      [],
    );
    assert.equal(c.question, "Allow this PUT to spec 'shop' (PUT /items/{id})?");
    assert.equal(
      c.request,
      [
        'PUT https://api.example.com/v1/items/7?dry=1',
        'X-Trace: t-1',
        'If-Match: "e1"',
        'Cookie: a=1; b=2',
        'Content-Type: application/json',
        '(svc adds credentials from svc.yaml: Authorization header, query key api_key; not shown)',
        '',
        '{"n":1}',
      ].join('\n'),
    );
    assert.equal(confirmationMessage(c), `${c.question}\n\n${c.request}`);
  });

  test('nothing to add: only the request line', () => {
    const c = describeWrite({ method: 'DELETE', url: new URL('https://api.example.com/x'), headers: [], cookies: [], credentials: [] }, 's', 'DELETE /x', []);
    assert.equal(c.request, 'DELETE https://api.example.com/x');
  });

  test('a multipart body lists its fields and its files by name, size and type', () => {
    const form = new FormData();
    form.append('title', 'Q3 report');
    form.append('doc', new Blob(['%PDF-1.7'], { type: 'application/pdf' }), 'report.pdf');
    form.append('raw', new Blob(['abc']), '');
    const c = describeWrite({ method: 'POST', url: new URL('https://api.example.com/up'), headers: [], cookies: [], body: { body: form }, credentials: [] }, 's', 'POST /up', []);
    assert.equal(
      c.request,
      ['POST https://api.example.com/up', '', 'multipart form:', 'title=Q3 report', 'doc: file report.pdf (8 bytes, application/pdf)', 'raw: file (unnamed) (3 bytes, application/octet-stream)'].join('\n'),
    );
  });

  test('a long body is cut at the limit with a note; a body at the limit is whole', () => {
    const at = describeWrite({ method: 'POST', url: new URL('https://a.example/x'), headers: [], cookies: [], body: { body: 'b'.repeat(MAX_CONFIRM_BODY_CHARS) }, credentials: [] }, 's', 'POST /x', []);
    assert.ok(at.request.endsWith(`\n${'b'.repeat(MAX_CONFIRM_BODY_CHARS)}`));
    const over = describeWrite({ method: 'POST', url: new URL('https://a.example/x'), headers: [], cookies: [], body: { body: 'b'.repeat(MAX_CONFIRM_BODY_CHARS + 1) }, credentials: [] }, 's', 'POST /x', []);
    assert.ok(over.request.endsWith(`\n${'b'.repeat(MAX_CONFIRM_BODY_CHARS)}\n[body cut: showing ${MAX_CONFIRM_BODY_CHARS} of ${MAX_CONFIRM_BODY_CHARS + 1} characters]`), over.request.slice(-120));
  });

  test('no secret survives in any line, whatever surrounds it', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }), fc.constantFrom('url', 'header', 'cookie', 'body'), (before, after, where) => {
        const v = `${before}${SECRET}${after}`;
        const c = describeWrite(
          {
            method: 'POST',
            url: new URL(`https://a.example/x?${where === 'url' ? `q=${encodeURIComponent(v)}` : 'q=1'}`),
            headers: where === 'header' ? [['X-Note', v]] : [],
            cookies: where === 'cookie' ? [`c=${encodeURIComponent(v)}`] : [],
            body: { body: where === 'body' ? JSON.stringify({ v }) : '{}' },
            credentials: [],
          },
          's',
          'POST /x',
          [SECRET],
        );
        assert.ok(!confirmationMessage(c).includes(SECRET.slice(0, 8)), confirmationMessage(c));
      }),
      { numRuns: 200 },
    );
  });
});

describe('the confirmation names where svc.yaml puts credentials', () => {
  let server: TestServer;
  let dir: string;
  before(async () => {
    process.env.SVC_CONFIRM_KEY = SECRET;
    server = await startServer();
    dir = await mkdtemp(path.join(tmpdir(), 'svc-confirm-'));
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('query keys, cookies, headers and secret svc.yaml headers by name, plain svc.yaml headers not at all', async () => {
    const file = path.join(dir, 'spec.yaml');
    await writeFile(
      file,
      `openapi: 3.0.3
info: { title: t, version: '1' }
servers: [{ url: '${server.origin}/api' }]
security: [{ q: [], c: [], h: [] }]
paths:
  /items:
    post:
      parameters:
        - { name: token, in: query, schema: { type: string } }
      responses: { '200': { description: ok } }
components:
  securitySchemes:
    q: { type: apiKey, in: query, name: api_key }
    c: { type: apiKey, in: cookie, name: sid }
    h: { type: apiKey, in: header, name: X-Key }
`,
    );
    const yaml = `specs:
  - path: ${JSON.stringify(file)}
    name: shop
    writes: confirm
    headers:
      User-Agent: svc-test
      X-Tenant: "\${SVC_CONFIRM_KEY}"
    parameters:
      query.token: "\${SVC_CONFIRM_KEY}"
    auth:
      - { type: apiKey, in: query, name: api_key, value: "\${SVC_CONFIRM_KEY}" }
      - { type: apiKey, in: cookie, name: sid, value: "\${SVC_CONFIRM_KEY}" }
      - { type: apiKey, in: header, name: X-Key, value: "\${SVC_CONFIRM_KEY}" }
`;
    const config = await parseConfig(yaml, path.join(dir, 'svc.yaml'));
    const outcome = await importSpec(file, { name: 'shop', collection: 'default' });
    assert.ok(outcome.ok);
    const asked: string[] = [];
    const endpoint = outcome.spec.endpoints.find((e) => e.method === 'POST')!;
    const r = await createInvoker(config).invoke(endpoint, outcome.spec, {}, { confirm: async (m) => (asked.push(m), false) });
    assert.equal(r.isError, true);
    assert.equal(asked.length, 1);
    const m = asked[0]!;
    assert.ok(m.includes('(svc adds credentials from svc.yaml: X-Tenant header, query key api_key, cookie sid, header X-Key, query key token; not shown)'), m);
    assert.ok(m.includes('User-Agent: svc-test'), m);
    assert.ok(!m.includes(SECRET), m);
    assert.equal(server.requests.length, 0, 'refused: nothing sent');
  });
});
