// Endpoint ids (src/model/endpoint.ts): `spec:METHOD:/path` reads back into the same three parts for
// any spec name without a colon and any path (colons in the path included), the method in any case;
// a text not shaped like an id (no spec name, one colon, no method svc knows) reads as no id.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { endpointId, HTTP_METHODS, parseEndpointId, type HttpMethod } from '../../src/model/endpoint.ts';

const specName = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !s.includes(':'));
const method = fc.constantFrom(...HTTP_METHODS);
const anyPath = fc.string({ maxLength: 24 });
const anyCase = (m: string) => fc.array(fc.boolean(), { minLength: m.length, maxLength: m.length }).map((up) => [...m].map((c, i) => (up[i] ? c : c.toLowerCase())).join(''));

test('an id reads back into its spec, method and path, whatever the path holds', () => {
  fc.assert(
    fc.property(specName, method, anyPath, (spec, m, p) => {
      const id = endpointId(spec, m, p);
      assert.equal(id, `${spec}:${m}:${p}`);
      assert.deepEqual(parseEndpointId(id), { spec, method: m, path: p });
    }),
    { numRuns: 500 },
  );
});

test('the method of an id may be written in any case, and reads as the upper-case method', () => {
  fc.assert(
    fc.property(specName, method.chain((m) => fc.tuple(fc.constant(m), anyCase(m))), anyPath, (spec, [m, written], p) => {
      assert.deepEqual(parseEndpointId(`${spec}:${written}:${p}`), { spec, method: m as HttpMethod, path: p });
    }),
    { numRuns: 500 },
  );
});

test('a text that is not shaped like an id reads as no id', () => {
  // No spec name before the first colon.
  fc.assert(fc.property(method, anyPath, (m, p) => assert.equal(parseEndpointId(`:${m}:${p}`), undefined)));
  // One colon or none: no method part.
  fc.assert(
    fc.property(fc.string({ maxLength: 24 }).filter((s) => s.split(':').length <= 2), (text) => assert.equal(parseEndpointId(text), undefined)),
  );
  // One colon, even when what follows it starts with a method.
  fc.assert(
    fc.property(specName, method, fc.string({ maxLength: 6 }).filter((s) => !s.includes(':')), (spec, m, rest) => assert.equal(parseEndpointId(`${spec}:${m}${rest}`), undefined)),
  );
  // A method svc does not know, or none.
  const notMethod = fc.string({ maxLength: 8 }).filter((s) => !s.includes(':') && !(HTTP_METHODS as readonly string[]).includes(s.toUpperCase()));
  fc.assert(fc.property(specName, notMethod, anyPath, (spec, m, p) => assert.equal(parseEndpointId(`${spec}:${m}:${p}`), undefined)));
  for (const text of ['', ':', '::', 'pets', 'pets:GET', 'pets:GET/x', 'pets:GETx', 'p:post/', ':GET:/x', 'pets::/x', 'pets:TRACE:/x', 'pets:GETS:/x', 'pets: GET:/x']) {
    assert.equal(parseEndpointId(text), undefined, text);
  }
  assert.deepEqual(parseEndpointId('p:get:'), { spec: 'p', method: 'GET', path: '' });
  assert.deepEqual(parseEndpointId('p:GET:a:b:/c'), { spec: 'p', method: 'GET', path: 'a:b:/c' });
});
