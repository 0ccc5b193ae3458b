// Arguments are checked against the endpoint's schemas before anything is sent, and the error
// lists what is expected so the next call can be right.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { harness, startServer, type Harness, type TestServer } from './helpers.ts';

let server: TestServer;
let h: Harness;

before(async () => {
  server = await startServer();
  h = await harness('petstore.yaml', 'pets', `serverVariables:\n  port: "${server.port}"\nwrites: allow`);
});
after(() => server.close());

async function refused(id: string, args: { params?: Record<string, unknown>; body?: unknown; contentType?: string }): Promise<string> {
  const count = server.requests.length;
  const r = await h.call(id, args);
  assert.equal(r.isError, true, r.text);
  assert.equal(server.requests.length, count, 'nothing was sent');
  assert.equal(r.structured, undefined);
  return r.text;
}

describe('parameters', () => {
  test('a missing required parameter is named with its location and type', async () => {
    const text = await refused('GET:/pets/{petId}', {});
    assert.match(text, /^Invalid arguments for GET \/pets\/\{petId\}:\n- petId \(path, string\): required/);
    assert.match(text, /Expected params: petId \(path, string, required\)/);
  });

  test('a wrong type says what the value must be', async () => {
    const text = await refused('GET:/pets', { params: { limit: 'ten' } });
    assert.match(text, /- limit: must be integer/);
  });

  test('a value out of range or not in the enum says the bound or the allowed values', async () => {
    const text = await refused('GET:/pets', { params: { limit: 500, status: 'lost' } });
    assert.match(text, /- limit: must be <= 100/);
    assert.match(text, /- status: must be one of "available", "sold"/);
  });

  test('an unknown parameter is refused and every expected one is listed', async () => {
    const text = await refused('GET:/pets', { params: { limt: 5 } });
    assert.match(text, /- 'limt': unknown parameter/);
    assert.match(text, /Expected params: limit \(query, integer\), status \(query, string\), tags \(query, string\[\]\)/);
  });

  test('a value matching no alternative of anyOf is told once, with the alternatives', async () => {
    const text = await refused('GET:/pets', { params: { size: true } });
    assert.match(text, /^Invalid arguments for GET \/pets:\n- size: must be one of: integer, string: "small"\|"large"\nExpected params:/);
  });

  test('array items are checked', async () => {
    const text = await refused('GET:/pets', { params: { ids: [1, 'two'] } });
    assert.match(text, /- ids\/1: must be integer/);
  });

  test('params that are not an object are refused', async () => {
    const text = await refused('GET:/pets', { params: ['limit'] as unknown as Record<string, unknown> });
    assert.match(text, /params: must be an object keyed by parameter name, got array/);
  });
});

describe('bodies', () => {
  test('a required body that is missing is named with its media types', async () => {
    const text = await refused('POST:/pets', {});
    assert.match(text, /- body \(application\/json or application\/x-www-form-urlencoded or multipart\/form-data or text\/plain\): required/);
    assert.match(text, /Expected body \(required\): application\/json object with id \(integer\), name \(string, required\), tag \(string\|null\), age \(integer\)/);
  });

  test('a body that misses a required property or has the wrong type is refused', async () => {
    const text = await refused('POST:/pets', { body: { tag: 5 } });
    assert.match(text, /- body: must have required property 'name'/);
    assert.match(text, /- body\/tag: must be string,null/);
  });

  test('OpenAPI 3.0 nullable and boolean exclusiveMinimum are understood', async () => {
    const ok = await h.call('POST:/pets', { body: { name: 'rex', tag: null, age: 1 } });
    assert.equal(ok.isError, undefined, ok.text);
    const text = await refused('POST:/pets', { body: { name: 'rex', age: 0 } });
    assert.match(text, /- body\/age: must be > 0/);
  });

  test('readOnly properties are not required in a request', async () => {
    const r = await h.call('PUT:/pets/{petId}', { params: { petId: '1' }, body: { name: 'rex' } });
    assert.equal(r.isError, undefined, r.text);
  });

  test('a recursive schema validates nested values (cycles accept anything past the loop)', async () => {
    const ok = await h.call('POST:/trees', { body: { name: 'root', children: [{ name: 'a', children: [] }] } });
    assert.equal(ok.isError, undefined, ok.text);
    const text = await refused('POST:/trees', { body: { children: [] } });
    assert.match(text, /- body: must have required property 'name'/);
  });

  test('a body for an endpoint that takes none is refused', async () => {
    const text = await refused('GET:/pets/{petId}', { params: { petId: '1' }, body: { x: 1 } });
    assert.match(text, /- body: GET \/pets\/\{petId\} takes no request body/);
  });

  test('a content type the endpoint does not accept is refused with the ones it does', async () => {
    const text = await refused('POST:/pets', { body: { name: 'x' }, contentType: 'application/xml' });
    assert.match(text, /contentType 'application\/xml': not one of application\/json, application\/x-www-form-urlencoded, multipart\/form-data, text\/plain/);
  });
});
