// The version svc gives as its serverInfo: the one its package.json names, and 0.0.0 (never a
// failed start) when that file is missing, is not JSON or names no version. Real files in a temp folder.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { packageVersion } from '../../src/mcp/identity.ts';

describe('server version', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-identity-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text?: string): URL => {
    const path = join(dir, name);
    if (text !== undefined) writeFileSync(path, text);
    return pathToFileURL(path);
  };

  // That SERVER_VERSION is svc's own package.json's is server-contract.test.ts's "identity".
  it('is the version a package.json names', () => {
    assert.equal(packageVersion(file('named.json', '{"name":"x","version":"4.5.6-rc.1"}')), '4.5.6-rc.1');
  });

  it('is 0.0.0 when the package.json names none, is not JSON, or is missing', () => {
    assert.equal(packageVersion(file('unnamed.json', '{"name":"x"}')), '0.0.0');
    assert.equal(packageVersion(file('broken.json', '{"version":')), '0.0.0');
    assert.equal(packageVersion(file('missing.json')), '0.0.0');
  });
});
