// A 401 or 403 to a request that carried no credentials says so, and what to configure: the
// scheme when the spec names one that svc.yaml does not meet (test/invoke/auth.test.ts), else just
// "credentials"; other statuses get no such note. Against a real server on loopback.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseConfig } from '../../src/config/index.ts';
import { importSpec } from '../../src/import/index.ts';
import { createInvoker } from '../../src/invoke/index.ts';
import { startServer, type TestServer } from './helpers.ts';

let server: TestServer;
let dir: string;
before(async () => {
  server = await startServer();
  server.route('/api/', (req, res) => {
    const status = Number(req.url.split('/')[2]);
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end('no');
  });
  dir = await mkdtemp(path.join(tmpdir(), 'svc-note-'));
});
after(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function call(status: number, auth: string): Promise<string> {
  const file = path.join(dir, `s${status}${auth === '' ? '' : 'a'}.yaml`);
  await writeFile(file, `openapi: 3.0.3\ninfo: { title: t, version: '1' }\nservers: [{ url: '${server.origin}/api' }]\npaths:\n  /${status}:\n    get:\n      responses: { '200': { description: ok } }\n`);
  const config = await parseConfig(`specs:\n  - path: ${JSON.stringify(file)}\n    name: n\n${auth}`, path.join(dir, 'svc.yaml'));
  const outcome = await importSpec(file, { name: 'n', collection: 'default' });
  assert.ok(outcome.ok);
  const r = await createInvoker(config).invoke(outcome.spec.endpoints[0]!, outcome.spec, {}, {});
  return r.text;
}

describe('the note on 401 and 403', () => {
  test('no credentials sent and no scheme named: it asks for credentials in svc.yaml', async () => {
    for (const status of [401, 403]) {
      const text = await call(status, '');
      assert.equal(text.split('\n').at(-1), `[svc sent no credentials: GET /${status} needs credentials; configure specs[0].auth in svc.yaml]`);
    }
  });

  test('no note for other statuses', async () => {
    for (const status of [400, 404, 407]) assert.equal((await call(status, '')).includes('svc sent no credentials'), false);
  });
});
