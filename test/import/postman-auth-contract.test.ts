// Postman auth the importer infers or reads, from its contract: a hand-written Authorization
// header names the scheme by its first word (Bearer or Basic, any case, spaces around allowed, a
// space after it required), and an OAuth2 block's empty token URL is no token URL.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { importSpec } from '../../src/import/index.ts';
import type { ImportedSpec } from '../../src/model/index.ts';

let dir: string;
let serial = 0;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-import-auth-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function load(request: object): Promise<ImportedSpec> {
  const file = join(dir, `u${serial++}.json`);
  const doc = { info: { name: 'c', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: [{ name: 'R', request: { method: 'GET', url: 'https://api.example.com/x', ...request } }] };
  writeFileSync(file, JSON.stringify(doc));
  const o = await importSpec(file, { name: 's', collection: 'c' });
  assert.ok(o.ok, JSON.stringify(!o.ok && o.errors));
  return o.spec;
}

describe('a hand-written Authorization header', () => {
  test('Bearer or Basic as the first word, in any case and after spaces, is the scheme; a word merely starting so is not', async () => {
    const cases: [string, string | undefined][] = [
      ['Bearer abc', 'bearer'],
      ['  bearer abc', 'bearer'],
      ['BASIC dXNlcjpwYXNz', 'basic'],
      ['\tBasic\tx', 'basic'],
      ['BearerToken abc', undefined],
      ['Basically x', undefined],
      ['Token abc', undefined],
    ];
    for (const [value, scheme] of cases) {
      const spec = await load({ header: [{ key: 'Authorization', value }] });
      const e = spec.endpoints[0]!;
      if (scheme === undefined) {
        assert.equal('security' in e, false, value);
        assert.deepEqual(spec.securitySchemes, {}, value);
      } else {
        assert.deepEqual(e.security, [{ [scheme]: [] }], value);
        assert.deepEqual(spec.securitySchemes, { [scheme]: { type: 'http', scheme } }, value);
      }
    }
  });
});

describe('OAuth2 blocks', () => {
  test('an empty access token URL is no token URL; a set one is kept', async () => {
    const none = await load({ auth: { type: 'oauth2', oauth2: [{ key: 'accessTokenUrl', value: '' }, { key: 'scope', value: 'read  write' }] } });
    assert.deepEqual(none.securitySchemes, { oauth2: { type: 'oauth2', scopes: ['read', 'write'] } });
    const set = await load({ auth: { type: 'oauth2', oauth2: [{ key: 'accessTokenUrl', value: 'https://a.example.com/token' }] } });
    assert.deepEqual(set.securitySchemes, { oauth2: { type: 'oauth2', tokenUrl: 'https://a.example.com/token' } });
  });
});
