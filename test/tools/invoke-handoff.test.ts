// The invoke tool hands the call over whole: the endpoint found by its id, the params, body and
// chosen media type as given, the session's way to confirm a write, and its cancel signal; a real
// HTTP server on loopback sees what was sent.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { z } from 'zod';
import { invoke } from '../../src/tools/invoke.ts';
import { benchOfSources, openapi, type Bench } from './support.ts';

interface Seen {
  method: string;
  url: string;
  type: string | undefined;
  body: string;
}

const PATHS = {
  '/items/{id}': {
    get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }, { name: 'q', in: 'query', schema: { type: 'string' } }], responses: { '200': { description: 'OK' } } },
    post: {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      requestBody: {
        content: {
          'application/json': { schema: { type: 'object', properties: { name: { type: 'string' } } } },
          'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { name: { type: 'string' } } } },
        },
      },
      responses: { '200': { description: 'OK' } },
    },
  },
  '/slow': { get: { responses: { '200': { description: 'OK' } } } },
};

describe('invoke hands the call over', () => {
  let http: Server;
  let seen: Seen[];
  let open: Bench;
  let confirm: Bench;

  before(async () => {
    http = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', type: req.headers['content-type'], body });
        const answer = () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"ok":true}');
        };
        if (req.url === '/slow') setTimeout(answer, 3000).unref();
        else answer();
      });
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const port = (http.address() as AddressInfo).port;
    open = await benchOfSources([{ file: 'items.json', text: openapi(PATHS), entry: `baseUrl: http://127.0.0.1:${port}\nwrites: allow` }]);
    confirm = await benchOfSources([{ file: 'items.json', text: openapi(PATHS), entry: `baseUrl: http://127.0.0.1:${port}\nwrites: confirm` }]);
  });
  beforeEach(() => {
    seen = [];
  });
  after(async () => {
    http.closeAllConnections();
    await new Promise<void>((resolve) => http.close(() => resolve()));
    await open?.cleanup();
    await confirm?.cleanup();
  });

  it('sends the params by name', async () => {
    const r = await open.run('invoke', { endpointId: 'items:GET:/items/{id}', params: { id: 7, q: 'x y' } });
    assert.equal(r.isError, undefined, r.text);
    assert.deepEqual(seen.map((s) => `${s.method} ${s.url}`), ['GET /items/7?q=x%20y']);
    assert.match(r.text, /200/);
  });

  it('finds the endpoint with spaces around its id and a lower-case method', async () => {
    const r = await open.run('invoke', { endpointId: ' items:get:/items/{id} ', params: { id: 8 } });
    assert.equal(r.isError, undefined, r.text);
    assert.deepEqual(seen.map((s) => s.url), ['/items/8']);
  });

  it('sends the body in JSON, or in the media type chosen', async () => {
    await open.run('invoke', { endpointId: 'items:POST:/items/{id}', params: { id: 1 }, body: { name: 'Rex' } });
    await open.run('invoke', { endpointId: 'items:POST:/items/{id}', params: { id: 2 }, body: { name: 'Rex' }, contentType: 'application/x-www-form-urlencoded' });
    await open.run('invoke', { endpointId: 'items:POST:/items/{id}', params: { id: 3 } });
    assert.deepEqual(
      seen.map((s) => [s.url, s.type, s.body]),
      [
        ['/items/1', 'application/json', '{"name":"Rex"}'],
        ['/items/2', 'application/x-www-form-urlencoded', 'name=Rex'],
        ['/items/3', undefined, ''],
      ],
    );
  });

  it("asks the session's confirm before a write under writes: confirm, and sends nothing when it says no", async () => {
    const asked: string[] = [];
    const no = await confirm.runWith({ confirm: async (m: string) => (asked.push(m), false) }, 'invoke', { endpointId: 'items:POST:/items/{id}', params: { id: 4 }, body: { name: 'Rex' } });
    assert.equal(no.isError, true);
    assert.equal(asked.length, 1);
    assert.match(asked[0]!, /POST/);
    assert.equal(seen.length, 0);
    const yes = await confirm.runWith({ confirm: async () => true }, 'invoke', { endpointId: 'items:POST:/items/{id}', params: { id: 5 }, body: { name: 'Rex' } });
    assert.equal(yes.isError, undefined, yes.text);
    assert.deepEqual(seen.map((s) => s.url), ['/items/5']);
    const cannot = await confirm.run('invoke', { endpointId: 'items:POST:/items/{id}', params: { id: 6 } });
    assert.equal(cannot.isError, true);
    assert.equal(seen.length, 1);
  });

  it('stops waiting for the answer when the session cancels the call', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 200).unref();
    const r = await open.runWith({ signal: controller.signal }, 'invoke', { endpointId: 'items:GET:/slow' });
    assert.equal(r.isError, true, r.text);
    assert.ok(Date.now() - started < 2500, `took ${Date.now() - started} ms`);
    assert.match(r.text, /cancel/i);
    assert.deepEqual(seen.map((s) => s.url), ['/slow']);
  });

  it('offers endpointId, params, body and contentType, and says what params must be', () => {
    const shape = z.object(invoke.inputShape);
    assert.deepEqual(Object.keys(invoke.inputShape), ['endpointId', 'params', 'body', 'contentType']);
    const r = shape.safeParse({ endpointId: 'x', params: 'nope' });
    assert.equal(r.success, false);
    assert.equal(r.error?.issues[0]?.message, 'params must be an object of values by parameter name');
    assert.equal(shape.safeParse({ endpointId: 3 }).error?.issues[0]?.message, 'endpointId must be a text like github:POST:/repos/{owner}/{repo}/issues');
    assert.equal(invoke.inputShape.endpointId!.description, 'spec:METHOD:/path, as listed');
    assert.ok(shape.safeParse({ endpointId: 'x', body: [1], contentType: 'text/plain', params: { a: 1 } }).success);
  });
});
