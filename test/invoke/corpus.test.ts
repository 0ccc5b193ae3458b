// invoke over real API descriptions (../shared/specs): endpoints (up to 60 per file), called with values for its
// required parameters against a loopback server, either reaches the server with every placeholder
// filled or comes back with a clear argument error; nothing crashes.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '../../src/config/index.ts';
import { createInvoker } from '../../src/invoke/index.ts';
import type { Parameter } from '../../src/model/index.ts';
import { type CorpusLoader, corpusLoader } from '../support/corpus-snapshots.ts';
import { startServer, type TestServer } from './helpers.ts';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CORPUS = path.resolve(REPO, '../shared/specs');
const SUBJECTS = [
  'openapi-3.0/stripe/2023-09-12/spec3.yaml',
  'openapi-3.0/spotify/official-spotify-open-api.yml',
  'openapi-3.0/atlassian-jira/software-swagger.v3.json',
  'openapi-3.1/readme-oas-examples/schema-types.json',
  'openapi-3.1/readme-oas-examples/train-travel.json',
  'swagger-2.0/azure-storage/blob-storage-2021-10-04.json',
  'swagger-2.0/zoom/openapi.v2.json',
  'postman/twitter/Twitter API v2.postman_collection.json',
];

const present = existsSync(CORPUS);

function sample(p: Parameter): unknown {
  const t = p.type.split('|')[0]!;
  if (t.endsWith('[]')) return [sample({ ...p, type: t.slice(0, -2) })];
  if (t === 'integer' || t === 'number') return 1;
  if (t === 'boolean') return true;
  if (t === 'object') return {};
  return 'x1';
}

describe('invoke over the corpus', { skip: present ? false : `corpus not found at ${CORPUS} (../shared/specs); skipping` }, () => {
  let server: TestServer;
  // The descriptions as the daemon serves them, through snapshots kept between runs: reading them
  // instead of parsing them again (Stripe's is 4 MB of YAML) is most of this file's CPU time.
  let loader: CorpusLoader | undefined;
  before(async () => {
    server = await startServer();
    loader = await corpusLoader('invoke-corpus');
  });
  after(async () => {
    await server?.close();
    await loader?.close();
  });

  for (const rel of SUBJECTS) {
    test(rel, { skip: present && !existsSync(path.join(CORPUS, rel)) ? `${rel} missing from the corpus` : false }, async () => {
      const file = path.join(CORPUS, rel);
      const config = await parseConfig(
        `specs:\n  - path: ${JSON.stringify(file)}\n    name: s\n    baseUrl: ${server.origin}/base\n    writes: allow\n    retries: 0\n    timeoutMs: 5000\n`,
        path.join(REPO, 'svc.yaml'),
      );
      const outcome = await loader!.load(file, { name: 's', collection: 'default' });
      assert.ok(outcome.ok, `import failed: ${JSON.stringify(!outcome.ok && outcome.errors)}`);
      const spec = outcome.spec;
      const invoker = createInvoker(config);
      let sent = 0;
      let refused = 0;
      // An even sample keeps the big descriptions (Stripe) to a few seconds.
      const step = Math.max(1, Math.ceil(spec.endpoints.length / 60));
      const chosen = spec.endpoints.filter((_, i) => i % step === 0);
      for (const endpoint of chosen) {
        const params: Record<string, unknown> = {};
        for (const p of endpoint.parameters) {
          if (!p.required) continue;
          const dup = endpoint.parameters.some((o) => o !== p && o.name === p.name);
          params[dup ? `${p.in}.${p.name}` : p.name] = sample(p);
        }
        const before = server.requests.length;
        const r = await invoker.invoke(endpoint, spec, { params }, {});
        assert.doesNotMatch(r.text, /^Invoke failed:/, `${endpoint.id}: ${r.text}`);
        if (server.requests.length > before) {
          sent++;
          const url = server.requests.at(-1)!.url;
          assert.ok(url.startsWith('/base/'), `${endpoint.id} went to ${url}`);
          assert.doesNotMatch(url.split('?')[0]!, /[{}]/, `${endpoint.id}: placeholder sent literally: ${url}`);
        } else {
          refused++;
          assert.equal(r.isError, true);
          assert.match(r.text, /^(Invalid arguments for|The body for|Refused:)/, `${endpoint.id}: ${r.text.slice(0, 300)}`);
        }
      }
      assert.ok(sent > 0, 'some endpoints were called');
      assert.equal(sent + refused, chosen.length);
    });
  }
});
