// The HTTP bearer token svc creates when svc.yaml names none: random, kept in the user's state
// folder in a file only the user can read, reused by later starts, refused when others could read
// or replace it; a token variable that is not set is a clear error naming it.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { describeAuth, ensureTokenFile, resolveHttpAuth, stateDir } from '../../src/mcp/token.ts';

describe('HTTP token', () => {
  const root = mkdtempSync(join(tmpdir(), 'svc-token-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  let n = 0;
  const fresh = (): string => join(root, `s${n++}`);

  it('lives in $XDG_STATE_HOME/svc, else ~/.local/state/svc', () => {
    assert.equal(stateDir({ XDG_STATE_HOME: '/x/state', HOME: '/home/u' }), '/x/state/svc');
    assert.equal(stateDir({ XDG_STATE_HOME: 'relative', HOME: '/home/u' }), '/home/u/.local/state/svc');
    assert.equal(stateDir({ HOME: '/home/u' }), '/home/u/.local/state/svc');
  });

  it('is created at first start in a 0700 folder, file 0600, and reused by the next start', () => {
    const dir = fresh();
    const first = ensureTokenFile(dir);
    assert.ok(first.token.length >= 40);
    assert.equal(statSync(dir).mode & 0o777, 0o700);
    assert.equal(statSync(first.file).mode & 0o777, 0o600);
    assert.equal(readFileSync(first.file, 'utf8').trim(), first.token);
    assert.deepEqual(ensureTokenFile(dir), first);
    assert.notEqual(ensureTokenFile(fresh()).token, first.token, 'each new folder gets a new random token');
  });

  it('refuses a token file others can read, and a symlink in its place', () => {
    const dir = fresh();
    const { file } = ensureTokenFile(dir);
    chmodSync(file, 0o644);
    assert.throws(() => ensureTokenFile(dir), /can be read or changed by others/);
    const other = fresh();
    mkdirSync(other, { recursive: true, mode: 0o700 });
    writeFileSync(join(root, 'planted'), 'x'.repeat(40), { mode: 0o600 });
    symlinkSync(join(root, 'planted'), join(other, 'http-token'));
    assert.throws(() => ensureTokenFile(other), /not a symlink|symbolic|ELOOP/);
  });

  it('refuses a state folder others can write to', () => {
    const dir = fresh();
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o777);
    assert.throws(() => ensureTokenFile(dir), /not a private folder/);
  });

  it('comes from serve.tokenEnv when set, and names an unset variable', () => {
    const auth = resolveHttpAuth({ auth: 'token', tokenEnv: 'MY_TOKEN' }, { MY_TOKEN: 'abc-secret-value', XDG_STATE_HOME: fresh() });
    assert.deepEqual(auth, { kind: 'token', token: 'abc-secret-value', source: { env: 'MY_TOKEN' } });
    assert.throws(() => resolveHttpAuth({ auth: 'token', tokenEnv: 'MY_TOKEN' }, {}), /MY_TOKEN \(serve\.tokenEnv\) is not set/);
    assert.deepEqual(resolveHttpAuth({ auth: 'none' }, {}), { kind: 'none' });
  });

  it('is described by where it is and how to send it, never by its value', () => {
    const state = fresh();
    const auth = resolveHttpAuth({ auth: 'token' }, { XDG_STATE_HOME: state });
    assert.equal(auth.kind, 'token');
    const line = describeAuth(auth);
    assert.match(line, /Authorization: Bearer <token>/);
    assert.ok(line.includes(join(state, 'svc', 'http-token')));
    assert.ok(auth.kind === 'token' && !line.includes(auth.token));
  });
});
