// Safe by default: writes only as svc.yaml allows (or as the person confirms), requests only to
// the spec's origin, redirects never to another origin, and a base URL svc can always explain.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { harness, startServer, type TestServer } from './helpers.ts';

let server: TestServer;
let other: TestServer;

before(async () => {
  server = await startServer();
  other = await startServer();
});
after(async () => {
  await server.close();
  await other.close();
});

const portLine = (): string => `serverVariables:\n  port: "${server.port}"`;

describe('writes', () => {
  for (const id of ['POST:/pets', 'PUT:/pets/{petId}', 'PATCH:/pets/{petId}', 'DELETE:/pets/{petId}']) {
    test(`${id.split(':')[0]} is refused by default, naming the key to set`, async () => {
      const h = await harness('petstore.yaml', 'pets', portLine());
      const count = server.requests.length;
      const r = await h.call(id, { params: { petId: '1' }, body: { name: 'x' } });
      assert.equal(r.isError, true);
      assert.match(r.text, /^Refused: \w+ \/pets.* is a write, and writes to spec 'pets' are off/);
      assert.match(r.text, /Hint: to allow them set specs\[0\]\.writes: allow \(or confirm, to ask the person each time\) in svc\.yaml \(.*svc\.yaml line 2\)/);
      assert.equal(server.requests.length, count);
    });
  }

  test('a refused write is refused before its arguments are checked', async () => {
    const h = await harness('petstore.yaml', 'pets', portLine());
    const r = await h.call('POST:/pets', {});
    assert.match(r.text, /^Refused:/);
  });

  test('GET, HEAD and OPTIONS need no permission', async () => {
    const h = await harness('petstore.yaml', 'pets', portLine());
    const r = await h.call('GET:/pets', {});
    assert.equal(r.isError, undefined);
  });

  test('writes: allow lets writes through', async () => {
    const h = await harness('petstore.yaml', 'pets', `${portLine()}\nwrites: allow`);
    const r = await h.call('DELETE:/pets/{petId}', { params: { petId: '1' } });
    assert.equal(r.isError, undefined, r.text);
    assert.equal(server.requests.at(-1)!.method, 'DELETE');
  });

  test('writes: confirm asks the person once per write and sends only when they accept', async () => {
    const h = await harness('petstore.yaml', 'pets', `${portLine()}\nwrites: confirm`);
    const asked: string[] = [];
    const yes = await h.call('DELETE:/pets/{petId}', { params: { petId: '7' } }, { confirm: async (m) => (asked.push(m), true) });
    assert.equal(yes.isError, undefined, yes.text);
    assert.equal(asked.length, 1);
    assert.equal(asked[0], `Allow this DELETE to spec 'pets' (DELETE /pets/{petId})?\n\nDELETE ${server.origin}/api/pets/7`);

    const count = server.requests.length;
    const no = await h.call('DELETE:/pets/{petId}', { params: { petId: '7' } }, { confirm: async () => false });
    assert.equal(no.isError, true);
    assert.match(no.text, /Refused: the person declined DELETE \/pets\/\{petId\}/);
    assert.equal(server.requests.length, count);
  });

  test('writes: confirm with a client that cannot ask is refused with an explanation', async () => {
    const h = await harness('petstore.yaml', 'pets', `${portLine()}\nwrites: confirm`);
    const count = server.requests.length;
    const r = await h.call('DELETE:/pets/{petId}', { params: { petId: '7' } });
    assert.equal(r.isError, true);
    assert.match(r.text, /needs the person's confirmation \(specs\[0\]\.writes: confirm\), but this MCP client cannot ask \(it does not support elicitation\)/);
    assert.equal(server.requests.length, count);
  });

  test('invalid arguments are reported before the person is asked', async () => {
    const h = await harness('petstore.yaml', 'pets', `${portLine()}\nwrites: confirm`);
    let asked = 0;
    const r = await h.call('POST:/pets', { body: { tag: 1 } }, { confirm: async () => (asked++, true) });
    assert.match(r.text, /^Invalid arguments/);
    assert.equal(asked, 0);
  });
});

describe('origins and redirects', () => {
  test('a redirect within the origin is followed', async () => {
    const h = await harness('petstore.yaml', 'pets', portLine());
    server.route('/api/raw/moved', (_req, res) => {
      res.writeHead(302, { location: '/api/raw/here' });
      res.end();
    });
    const r = await h.call('GET:/raw/{kind}', { params: { kind: 'moved' } });
    assert.equal(r.isError, undefined, r.text);
    assert.equal(r.structured?.status, 200);
    assert.equal(server.requests.at(-1)!.url, '/api/raw/here');
  });

  test('a redirect to another origin is not followed: the 3xx comes back with a note', async () => {
    const h = await harness('petstore.yaml', 'pets', portLine());
    server.route('/api/raw/away', (_req, res) => {
      res.writeHead(301, { location: `${other.origin}/steal` });
      res.end();
    });
    const r = await h.call('GET:/raw/{kind}', { params: { kind: 'away' } });
    assert.equal(r.structured?.status, 301);
    assert.match(r.text, /^HTTP 301 Moved Permanently\nlocation: http:\/\/127\.0\.0\.1:\d+\/steal/);
    assert.match(r.text, new RegExp(`\\[redirect to ${other.origin} not followed: svc only follows redirects within ${server.origin}\\]`));
    assert.equal(other.requests.length, 0);
  });

  test('redirect loops stop after a bound', async () => {
    const h = await harness('petstore.yaml', 'pets', portLine());
    server.route('/api/raw/loop', (_req, res) => {
      res.writeHead(307, { location: '/api/raw/loop' });
      res.end();
    });
    const count = server.requests.length;
    const r = await h.call('GET:/raw/{kind}', { params: { kind: 'loop' } });
    assert.match(r.text, /\[stopped after 5 redirects\]/);
    assert.equal(server.requests.length - count, 6);
  });

  test('an operation server on another origin is refused unless svc.yaml lists it', async () => {
    const h = await harness('petstore.yaml', 'pets', portLine());
    const r = await h.call('GET:/uploads/{name}', { params: { name: 'a.txt' } });
    assert.equal(r.isError, true);
    assert.match(r.text, new RegExp(`^Refused: http://localhost:${server.port} is not the origin of spec 'pets' \\(${server.origin}\\)\\.`));
    assert.match(r.text, /Hint: to allow it list it in specs\[0\]\.allowedOrigins in svc\.yaml/);

    const listed = await harness('petstore.yaml', 'pets', `${portLine()}\nallowedOrigins: ["http://localhost:${server.port}"]`);
    const ok = await listed.call('GET:/uploads/{name}', { params: { name: 'a.txt' } });
    assert.equal(ok.isError, undefined, ok.text);
    assert.equal(server.requests.at(-1)!.url, '/files/uploads/a.txt');
  });

  test('svc.yaml baseUrl replaces the spec server, and its origin is the allowed one', async () => {
    const h = await harness('petstore.yaml', 'pets', `baseUrl: ${other.origin}/api`);
    const r = await h.call('GET:/pets', {});
    assert.equal(r.isError, undefined, r.text);
    assert.equal(other.requests.at(-1)!.url, '/api/pets');
  });
});

describe('base URL', () => {
  test('server variables come from svc.yaml, else their defaults', async () => {
    const h = await harness('petstore.yaml', 'pets', '');
    const r = await h.call('GET:/pets', {});
    assert.equal(r.isError, true);
    assert.match(r.text, /Network error on GET http:\/\/127\.0\.0\.1:2\/api\/pets: .*ECONNREFUSED/);
  });

  test('a relative server URL without baseUrl is an error naming the key to set', async () => {
    const h = await harness('swagger.yaml', 'sw', '');
    const r = await h.call('GET:/things/{id}', { params: { id: 1 } });
    assert.equal(r.isError, true);
    assert.match(r.text, /^Server URL '\/v2' of spec 'sw' is relative \(the spec does not say which host serves it\)\./);
    assert.match(r.text, /Hint: set specs\[0\]\.baseUrl in svc\.yaml .* to the API's absolute URL/);
  });

  test('Postman {{baseUrl}} comes from the collection variables, and svc.yaml can override it', async () => {
    const h = await harness('collection.postman.json', 'pm', `serverVariables:\n  baseUrl: ${server.origin}/pm`);
    const r = await h.call('GET:/users/{id}', {});
    assert.equal(r.isError, undefined, r.text);
    assert.equal(server.requests.at(-1)!.url, '/pm/users/7?verbose=true');
    const r2 = await h.call('GET:/users/{id}', { params: { id: '8', verbose: 'false' } });
    assert.equal(r2.isError, undefined, r2.text);
    assert.equal(server.requests.at(-1)!.url, '/pm/users/8?verbose=false');
  });
});
