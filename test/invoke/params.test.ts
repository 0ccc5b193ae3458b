// Parameters reach the server exactly as OpenAPI serializes them, in every location and style,
// and no value can change the path, add a query or inject a header.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { harness, startServer, type Harness, type TestServer } from './helpers.ts';

let server: TestServer;
let h: Harness;

before(async () => {
  server = await startServer();
  h = await harness('petstore.yaml', 'pets', `serverVariables:\n  port: "${server.port}"`);
});
after(() => server.close());

async function sent(id: string, params: Record<string, unknown>): Promise<{ url: string; headers: Record<string, unknown> }> {
  const before = server.requests.length;
  const r = await h.call(id, { params });
  assert.equal(r.isError, undefined, r.text);
  assert.equal(server.requests.length, before + 1, 'exactly one request reached the server');
  const rec = server.requests.at(-1)!;
  return { url: rec.url, headers: rec.headers };
}

describe('query parameters', () => {
  test('form style with explode sends arrays as repeated keys, and scalars as they are', async () => {
    const { url } = await sent('GET:/pets', { limit: 5, status: 'sold', tags: ['a b', 'c&d'] });
    assert.equal(url, '/api/pets?limit=5&status=sold&tags=a%20b&tags=c%26d');
  });

  test('form style without explode joins array items with commas', async () => {
    const { url } = await sent('GET:/pets', { ids: [1, 2, 3] });
    assert.equal(url, '/api/pets?ids=1,2,3');
  });

  test('spaceDelimited and pipeDelimited join items with %20 and |', async () => {
    const { url } = await sent('GET:/pets', { spaced: ['x', 'y'], piped: ['p', 'q'] });
    assert.equal(url, '/api/pets?spaced=x%20y&piped=p|q');
  });

  test('deepObject nests keys in brackets', async () => {
    const { url } = await sent('GET:/pets', { filter: { color: 'red', size: { min: 2 } } });
    assert.equal(url, '/api/pets?filter[color]=red&filter[size][min]=2');
  });

  test('deepObject writes arrays with brackets: [] for values, [i] for objects', async () => {
    const { url } = await sent('GET:/pets', { where: { color: ['red', 'blue'], size: [{ min: 1 }, { min: 2 }] } });
    assert.equal(url, '/api/pets?where[color][]=red&where[color][]=blue&where[size][0][min]=1&where[size][1][min]=2');
  });

  test('form style objects with explode spread their properties', async () => {
    const { url } = await sent('GET:/pets', { point: { x: 1, y: 2 } });
    assert.equal(url, '/api/pets?x=1&y=2');
  });

  test('reserved characters in values are percent-encoded and cannot add parameters', async () => {
    const { url } = await sent('GET:/pets', { q: 'a=1&b=2#frag?x' });
    assert.equal(url, '/api/pets?q=a%3D1%26b%3D2%23frag%3Fx');
  });

  test('null for an optional parameter leaves it out', async () => {
    const { url } = await sent('GET:/pets', { limit: null, status: 'sold' });
    assert.equal(url, '/api/pets?status=sold');
  });
});

describe('path parameters', () => {
  test('placeholders are filled, never sent literally', async () => {
    const { url } = await sent('GET:/pets/{petId}', { petId: 'rex' });
    assert.equal(url, '/api/pets/rex');
  });

  for (const [value, expected] of [
    ['a/b', '/api/pets/a%2Fb'],
    ['x?y=1', '/api/pets/x%3Fy%3D1'],
    ['#frag', '/api/pets/%23frag'],
    ['%2e%2e', '/api/pets/%252e%252e'],
    ['../admin', '/api/pets/..%2Fadmin'],
    ['a b', '/api/pets/a%20b'],
  ] as const) {
    test(`the value ${JSON.stringify(value)} stays one segment`, async () => {
      const { url } = await sent('GET:/pets/{petId}', { petId: value });
      assert.equal(url, expected);
    });
  }

  for (const value of ['..', '.']) {
    test(`the value ${JSON.stringify(value)} is refused before anything is sent`, async () => {
      const count = server.requests.length;
      const r = await h.call('GET:/pets/{petId}', { params: { petId: value } });
      assert.equal(r.isError, true);
      assert.match(r.text, /would change the path; svc refuses it/);
      assert.equal(server.requests.length, count);
    });
  }

  test('label style prefixes a dot and joins with commas', async () => {
    const { url } = await sent('GET:/label/{coords}', { coords: [3, 4] });
    assert.equal(url, '/api/label/.3,4');
  });

  test('matrix style with explode writes ;key=value pairs', async () => {
    const { url } = await sent('GET:/matrix/{point}', { point: { x: 1, y: 2 } });
    assert.equal(url, '/api/matrix/;x=1;y=2');
  });

  test('two parameters with one name are told apart by location', async () => {
    const { url } = await sent('GET:/items/{id}', { 'path.id': 'p1', 'query.id': 'q1' });
    assert.equal(url, '/api/items/p1?id=q1');
  });

  test('an ambiguous name is an error that names both qualified forms', async () => {
    const r = await h.call('GET:/items/{id}', { params: { id: 'x' } });
    assert.equal(r.isError, true);
    assert.match(r.text, /'id': ambiguous, use 'path\.id' or 'query\.id'/);
  });
});

describe('header and cookie parameters', () => {
  test('header parameters are sent, arrays joined with commas; cookie parameters form the Cookie header', async () => {
    const { headers } = await sent('GET:/pets', { 'X-Request-Id': 'abc-1', 'X-Flags': ['a', 'b'], session: 's 1;x' });
    assert.equal(headers['x-request-id'], 'abc-1');
    assert.equal(headers['x-flags'], 'a,b');
    assert.equal(headers.cookie, 'session=s%201%3Bx');
  });

  test('header names match case-insensitively', async () => {
    const { headers } = await sent('GET:/pets', { 'x-request-id': 'lower' });
    assert.equal(headers['x-request-id'], 'lower');
  });

  for (const bad of ['a\r\nX-Injected: 1', 'a\nb', 'a\rb']) {
    test(`a header value with CR or LF (${JSON.stringify(bad)}) is refused, nothing is sent`, async () => {
      const count = server.requests.length;
      const r = await h.call('GET:/pets', { params: { 'X-Request-Id': bad } });
      assert.equal(r.isError, true);
      assert.match(r.text, /Header 'X-Request-Id' contains a line break/);
      assert.equal(server.requests.length, count);
    });
  }

  test('a cookie value with a line break is refused', async () => {
    const count = server.requests.length;
    const r = await h.call('GET:/pets', { params: { session: 'x\r\nSet-Cookie: y' } });
    assert.equal(r.isError, true);
    assert.match(r.text, /line break/);
    assert.equal(server.requests.length, count);
  });
});
