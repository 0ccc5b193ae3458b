// What comes back: `HTTP <status> <reason>`, the headers that matter, the body compact and cut
// cleanly when long; images as image content; errors that say what happened and where;
// retries only where they are safe, timeouts that fire.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { deflateSync } from 'node:zlib';
import { harness, startServer, type Harness, type TestServer } from './helpers.ts';

let server: TestServer;
let h: Harness;
let timed: Harness;

/** A valid 1x1 PNG, built here so the test needs no binary fixture. */
function png(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer): number => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const counters = new Map<string, number>();
function hit(name: string): number {
  const n = (counters.get(name) ?? 0) + 1;
  counters.set(name, n);
  return n;
}

before(async () => {
  server = await startServer();
  server.route('/api/raw/', (req, res) => {
    const kind = req.url.split('?')[0]!.slice('/api/raw/'.length);
    switch (kind) {
      case 'json':
        res.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          link: '</api/raw/json?page=2>; rel="next"',
          'x-ratelimit-remaining': '41',
          'set-cookie': 'track=1',
          server: 'test',
          etag: '"x"',
        });
        res.end('{\n  "id": 1,\n  "name": "Rex",\n  "tags": [ "a", "b" ]\n}\n');
        return;
      case 'big-json': {
        const items = Array.from({ length: 5000 }, (_, i) => ({ id: i, name: `pet number ${i}`, note: 'é'.repeat(5) }));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(items, null, 2));
        return;
      }
      case 'text':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('line one\nline two\n');
        return;
      case 'big-text': {
        const lines = Array.from({ length: 4000 }, (_, i) => `line ${i} ${'x'.repeat(20)}`).join('\n');
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(lines);
        return;
      }
      case 'image':
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(png());
        return;
      case 'big-image':
        res.writeHead(200, { 'content-type': 'image/jpeg' });
        res.end(Buffer.alloc(3000, 7));
        return;
      case 'binary':
        res.writeHead(200, { 'content-type': 'application/pdf' });
        res.end(Buffer.alloc(1234, 1));
        return;
      case 'untyped':
        res.writeHead(200, {});
        res.end('plain words without a type');
        return;
      case 'missing':
        res.writeHead(404, { 'content-type': 'application/problem+json' });
        res.end('{"title":"Not Found","detail":"no pet 9"}');
        return;
      case 'broken':
        res.writeHead(500, { 'content-type': 'text/html' });
        res.end('<h1>oops</h1>');
        return;
      case 'flaky':
        if (hit('flaky') < 3) {
          res.writeHead(503, { 'retry-after': '0' });
          res.end('busy');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('finally');
        return;
      case 'always-busy':
        hit('always-busy');
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end('bad gateway');
        return;
      case 'patient':
        hit('patient');
        res.writeHead(429, { 'retry-after': '3600', 'content-type': 'text/plain' });
        res.end('slow down');
        return;
      case 'slow':
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('late');
        }, 2000).unref();
        return;
      case 'slow-body':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('start ');
        setTimeout(() => res.end('end'), 2000).unref();
        return;
      case 'empty':
        res.writeHead(204);
        res.end();
        return;
      default:
        res.writeHead(400);
        res.end();
    }
  });
  server.route('/api/pets', (req, res) => {
    if (req.method === 'POST') {
      hit('post');
      res.writeHead(503, { 'retry-after': '0' });
      res.end('busy');
      return;
    }
    res.writeHead(200);
    res.end();
  });
  const limits = 'limits:\n  maxResponseBytes: 2000\n  maxImageBytes: 1000\n';
  h = await harness('petstore.yaml', 'pets', `serverVariables:\n  port: "${server.port}"\nwrites: allow\nretries: 2`, limits);
  // The timeout tests have their own short limit; every other call keeps the default, so a loaded
  // machine that answers a local request slowly does not turn them into timeouts.
  timed = await harness('petstore.yaml', 'pets', `serverVariables:\n  port: "${server.port}"\ntimeoutMs: 300`, limits);
});
after(() => server.close());

const raw = (kind: string) => h.call('GET:/raw/{kind}', { params: { kind } });

describe('successful responses', () => {
  test('JSON is compacted after the status line and the headers that matter', async () => {
    const r = await raw('json');
    assert.equal(
      r.text,
      'HTTP 200 OK\ncontent-type: application/json; charset=utf-8\nlink: </api/raw/json?page=2>; rel="next"\nx-ratelimit-remaining: 41\n\n{"id":1,"name":"Rex","tags":["a","b"]}',
    );
    assert.deepEqual(r.structured, {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', link: '</api/raw/json?page=2>; rel="next"', 'x-ratelimit-remaining': '41' },
      body: { id: 1, name: 'Rex', tags: ['a', 'b'] },
      truncated: false,
    });
    assert.equal(r.isError, undefined);
  });

  test('text comes back as is', async () => {
    const r = await raw('text');
    assert.equal(r.text, 'HTTP 200 OK\ncontent-type: text/plain\n\nline one\nline two\n');
    assert.equal(r.structured?.body, 'line one\nline two\n');
  });

  test('a body without a content type that decodes as text is shown as text', async () => {
    const r = await raw('untyped');
    assert.match(r.text, /\n\nplain words without a type$/);
  });

  test('204 has no body', async () => {
    const r = await raw('empty');
    assert.equal(r.text, 'HTTP 204 No Content');
    assert.deepEqual(r.structured, { status: 204, headers: {}, body: null, truncated: false });
  });
});

describe('large bodies', () => {
  test('long JSON is cut after a complete element, with a note giving the full size', async () => {
    const r = await raw('big-json');
    assert.equal(r.structured?.truncated, true);
    const body = r.structured?.body as string;
    assert.ok(Buffer.byteLength(body) <= 2000);
    assert.match(body, /^\[\{"id":0,"name":"pet number 0","note":"ééééé"\},/);
    assert.match(body, /\}$/, 'ends after a complete object');
    assert.match(r.text, /\n\[truncated: showing 1\.\d KB of \d+\.\d KB \(compacted JSON; \d+\.\d KB as sent\)\]$/);
  });

  test('long text is cut at a line end, with a note giving the full size', async () => {
    const r = await raw('big-text');
    const body = r.structured?.body as string;
    assert.equal(r.structured?.truncated, true);
    assert.ok(Buffer.byteLength(body) <= 2000);
    assert.match(body, /xxxxxxxxxxxxxxxxxxxx\n$/);
    assert.match(r.text, /\[truncated: showing 1\.\d KB of 120\.0 KB\]$/);
  });
});

describe('images and binary', () => {
  test('an image comes back as image content', async () => {
    const r = await raw('image');
    const image = png();
    assert.deepEqual(r.images, [{ type: 'image', data: image.toString('base64'), mimeType: 'image/png' }]);
    assert.equal(r.text, `HTTP 200 OK\ncontent-type: image/png\n\n[image/png image, ${image.length} bytes, attached]`);
  });

  test('an image over the limit is described, not attached', async () => {
    const r = await raw('big-image');
    assert.equal(r.images, undefined);
    assert.match(r.text, /\[image\/jpeg image, 2\.9 KB: over the 1000 bytes image limit, not attached\]$/);
  });

  test('other binary is reported by type and size only', async () => {
    const r = await raw('binary');
    assert.match(r.text, /\n\n\[application\/pdf body, 1\.2 KB: not shown\]$/);
    assert.equal(r.structured?.body, null);
  });
});

describe('errors', () => {
  test('a 4xx is a tool error that still carries status and body', async () => {
    const r = await raw('missing');
    assert.equal(r.isError, true);
    assert.equal(r.text, 'HTTP 404 Not Found\ncontent-type: application/problem+json\n\n{"title":"Not Found","detail":"no pet 9"}');
    assert.equal(r.structured?.status, 404);
    assert.deepEqual(r.structured?.body, { title: 'Not Found', detail: 'no pet 9' });
  });

  test('a 5xx is a tool error that still carries status and body', async () => {
    const r = await raw('broken');
    assert.equal(r.isError, true);
    assert.match(r.text, /^HTTP 500 Internal Server Error\ncontent-type: text\/html\n\n<h1>oops<\/h1>$/);
  });

  test('a timeout says what timed out, after how long, and which key raises it', async () => {
    const started = Date.now();
    const r = await timed.call('GET:/raw/{kind}', { params: { kind: 'slow' } });
    assert.equal(r.isError, true);
    assert.match(r.text, new RegExp(`^Timed out after 300 ms waiting for GET ${server.origin}/api/raw/slow\\.`));
    assert.match(r.text, /raise specs\[0\]\.timeoutMs in svc\.yaml/);
    assert.ok(Date.now() - started < 1500);
  });

  test('a body that stalls also times out', async () => {
    const r = await timed.call('GET:/raw/{kind}', { params: { kind: 'slow-body' } });
    assert.equal(r.isError, true);
    assert.match(r.text, /^Timed out after 300 ms waiting for GET/);
  });

  test('a cancelled call says so', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const r = await h.call('GET:/raw/{kind}', { params: { kind: 'slow' } }, { signal: ac.signal });
    assert.equal(r.isError, true);
    assert.match(r.text, /^Cancelled: GET /);
  });
});

describe('retries', () => {
  test('a GET answered 503 is retried, honouring Retry-After, and the note says so', async () => {
    const r = await raw('flaky');
    assert.equal(r.isError, undefined, r.text);
    assert.equal(counters.get('flaky'), 3);
    assert.equal(r.text, 'HTTP 200 OK\ncontent-type: text/plain\n\nfinally\n[after 2 retries]');
  });

  test('retries are bounded by the configured count', async () => {
    const r = await raw('always-busy');
    assert.equal(r.isError, true);
    assert.equal(counters.get('always-busy'), 3, 'one try and 2 retries');
    assert.match(r.text, /^HTTP 502 Bad Gateway/);
  });

  test('a Retry-After longer than svc waits is not waited for', async () => {
    const started = Date.now();
    const r = await raw('patient');
    assert.equal(counters.get('patient'), 1);
    assert.ok(Date.now() - started < 1000);
    assert.match(r.text, /^HTTP 429 Too Many Requests\ncontent-type: text\/plain\nretry-after: 3600\n\nslow down\n/);
    assert.match(r.text, /\[not retried: Retry-After asks for 3600 s, more than svc waits\]$/);
  });

  test('a POST is never retried', async () => {
    const r = await h.call('POST:/pets', { body: { name: 'rex' } });
    assert.equal(r.isError, true);
    assert.equal(counters.get('post'), 1);
  });
});

describe('network errors', () => {
  test('a refused connection names the method, the URL and the cause', async () => {
    const closed = await startServer();
    const origin = closed.origin;
    await closed.close();
    const h2 = await harness('petstore.yaml', 'pets', `baseUrl: ${origin}/api`);
    const r = await h2.call('GET:/pets', {});
    assert.equal(r.isError, true);
    assert.match(r.text, new RegExp(`^Network error on GET ${origin}/api/pets: connect ECONNREFUSED`));
    assert.equal(r.structured, undefined);
  });
});
