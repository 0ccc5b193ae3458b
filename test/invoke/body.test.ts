// Request bodies arrive encoded as their media type says: JSON, form (deepObject and JSON fields),
// multipart (file parts), text; Swagger 2.0 formData follows its consumes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { harness, startServer, type Harness, type Recorded, type TestServer } from './helpers.ts';

let server: TestServer;
let h: Harness;

before(async () => {
  server = await startServer();
  h = await harness('petstore.yaml', 'pets', `serverVariables:\n  port: "${server.port}"\nwrites: allow`);
});
after(() => server.close());

async function sent(id: string, args: { params?: Record<string, unknown>; body?: unknown; contentType?: string }, harnessed = h): Promise<Recorded> {
  const count = server.requests.length;
  const r = await harnessed.call(id, args);
  assert.equal(r.isError, undefined, r.text);
  assert.equal(server.requests.length, count + 1);
  return server.requests.at(-1)!;
}

describe('OpenAPI 3 bodies', () => {
  test('JSON is the default when the endpoint accepts it', async () => {
    const rec = await sent('POST:/pets', { body: { name: 'rex', tag: 'dog' } });
    assert.equal(rec.method, 'POST');
    assert.equal(rec.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(rec.body.toString()), { name: 'rex', tag: 'dog' });
  });

  test('PATCH is sent with its own JSON media type', async () => {
    const rec = await sent('PATCH:/pets/{petId}', { params: { petId: '9' }, body: { tag: 'cat' } });
    assert.equal(rec.method, 'PATCH');
    assert.equal(rec.url, '/api/pets/9');
    assert.equal(rec.headers['content-type'], 'application/merge-patch+json');
    assert.equal(rec.body.toString(), '{"tag":"cat"}');
  });

  test('PUT and DELETE reach the server with their methods', async () => {
    assert.equal((await sent('PUT:/pets/{petId}', { params: { petId: '9' }, body: { name: 'a' } })).method, 'PUT');
    const del = await sent('DELETE:/pets/{petId}', { params: { petId: '9' } });
    assert.equal(del.method, 'DELETE');
    assert.equal(del.body.length, 0);
  });

  test('form-urlencoded uses repeated keys for arrays, deepObject where the encoding says, JSON for JSON fields', async () => {
    const rec = await sent('POST:/pets', {
      contentType: 'application/x-www-form-urlencoded',
      body: { name: 'rex & co', tags: ['a', 'b'], filter: { color: 'red' }, meta: { k: 1 } },
    });
    assert.equal(rec.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.equal(rec.body.toString(), 'name=rex%20%26%20co&tags=a&tags=b&filter[color]=red&meta=%7B%22k%22%3A1%7D');
    const parsed = new URLSearchParams(rec.body.toString());
    assert.equal(parsed.get('name'), 'rex & co');
    assert.equal(parsed.get('meta'), '{"k":1}');
  });

  test('multipart sends fields, binary fields as file parts and objects as JSON parts', async () => {
    const rec = await sent('POST:/pets', { contentType: 'multipart/form-data', body: { name: 'rex', photo: 'PNGDATA', meta: { a: 1 } } });
    const type = String(rec.headers['content-type']);
    assert.match(type, /^multipart\/form-data; boundary=/);
    const form = await new Response(rec.body, { headers: { 'content-type': type } }).formData();
    assert.equal(form.get('name'), 'rex');
    const photo = form.get('photo') as File;
    assert.equal(typeof photo, 'object');
    assert.equal(photo.name, 'photo');
    assert.equal(await photo.text(), 'PNGDATA');
    const meta = form.get('meta') as File;
    assert.equal(meta.type, 'application/json');
    assert.equal(await meta.text(), '{"a":1}');
  });

  test('text/plain sends the string as is', async () => {
    const rec = await sent('POST:/pets', { contentType: 'text/plain', body: 'just a line\n' });
    assert.equal(rec.headers['content-type'], 'text/plain');
    assert.equal(rec.body.toString(), 'just a line\n');
  });

  test('a form body that is not an object is refused before sending', async () => {
    const count = server.requests.length;
    const r = await h.call('POST:/pets', { contentType: 'multipart/form-data', body: [1, 2] });
    assert.equal(r.isError, true);
    assert.match(r.text, /body/);
    assert.equal(server.requests.length, count);
  });
});

describe('Swagger 2.0 formData', () => {
  let sw: Harness;
  before(async () => {
    sw = await harness('swagger.yaml', 'sw', `baseUrl: ${server.origin}/v2\nwrites: allow`);
  });

  test('formData under consumes application/x-www-form-urlencoded is form-encoded', async () => {
    const rec = await sent('POST:/form', { body: { name: 'n 1', count: 3 } }, sw);
    assert.equal(rec.url, '/v2/form');
    assert.equal(rec.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.equal(rec.body.toString(), 'name=n%201&count=3');
  });

  test('formData under consumes multipart/form-data is multipart, type: file fields as files', async () => {
    const rec = await sent('POST:/upload', { body: { name: 'doc', file: 'hello' } }, sw);
    const type = String(rec.headers['content-type']);
    assert.match(type, /^multipart\/form-data; boundary=/);
    const form = await new Response(rec.body, { headers: { 'content-type': type } }).formData();
    assert.equal(form.get('name'), 'doc');
    assert.equal(await (form.get('file') as File).text(), 'hello');
  });

  test('missing required formData fields are named', async () => {
    const r = await sw.call('POST:/form', { body: { count: 1 } });
    assert.equal(r.isError, true);
    assert.match(r.text, /- body: must have required property 'name'/);
  });

  test('collectionFormat pipes becomes pipeDelimited', async () => {
    const rec = await sent('GET:/things/{id}', { params: { id: 4, tags: ['a', 'b'] } }, sw);
    assert.equal(rec.url, '/v2/things/4?tags=a|b');
  });
});
