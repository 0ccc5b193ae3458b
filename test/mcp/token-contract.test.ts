// The HTTP token's refusals and texts in full: every unsafe state folder or token file is refused
// with its code and a hint saying what to do; a token shorter than 16 characters is unusable; the
// token svc creates is 32 random bytes in base64url on one line; the auth line names where the
// token is, in exact words.
import assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { SvcError } from '../../src/model/errors.ts';
import { TOKEN_FILE_NAME, describeAuth, ensureTokenFile, resolveHttpAuth, stateDir } from '../../src/mcp/token.ts';

const root = typeof process.getuid === 'function' && process.getuid() === 0 ? false : 'needs root to chown';

function refusal(code: string, message: string, hint: string): (e: unknown) => boolean {
  return (e) => {
    assert.ok(e instanceof SvcError, String(e));
    assert.deepEqual([e.code, e.message, e.hint], [code, message, hint]);
    return true;
  };
}

describe('HTTP token refusals', () => {
  const base = mkdtempSync(join(tmpdir(), 'svc-tokenc-'));
  after(() => rmSync(base, { recursive: true, force: true }));
  let n = 0;
  const fresh = (): string => join(base, `s${n++}`);

  it('the state folder falls back to the home folder when HOME is empty', () => {
    assert.equal(stateDir({ HOME: '' }), join(homedir(), '.local', 'state', 'svc'));
    assert.equal(stateDir({ XDG_STATE_HOME: '', HOME: '/h' }), '/h/.local/state/svc');
    assert.equal(TOKEN_FILE_NAME, 'http-token');
  });

  it('refuses a state folder writable by group or others, saying how to fix it', () => {
    for (const mode of [0o720, 0o702, 0o770]) {
      const dir = fresh();
      mkdirSync(dir, { mode: 0o700 });
      chmodSync(dir, mode);
      assert.throws(() => ensureTokenFile(dir), refusal('token-folder-unsafe', `${dir} is not a private folder of this user (it must be a real folder, owned by you, not writable by others)`, `remove it or fix its owner and mode (chmod 700 ${dir}), or set serve.tokenEnv in svc.yaml`));
    }
    // Readable by others is fine for the folder (the file itself is 0600).
    const readable = fresh();
    mkdirSync(readable, { mode: 0o755 });
    chmodSync(readable, 0o755);
    assert.ok(ensureTokenFile(readable).token.length > 0);
  });

  it('refuses a state folder or token file of another user', { skip: root }, () => {
    const dir = fresh();
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, 4242, 4242);
    assert.throws(() => ensureTokenFile(dir), (e: unknown) => e instanceof SvcError && e.code === 'token-folder-unsafe');
    const mine = fresh();
    const { file } = ensureTokenFile(mine);
    chownSync(file, 4242, 4242);
    assert.throws(() => ensureTokenFile(mine), (e: unknown) => e instanceof SvcError && e.code === 'token-file-unsafe');
  });

  it('refuses a token file with any permission for group or others, naming the file and the fix', () => {
    for (const mode of [0o640, 0o604, 0o610, 0o601, 0o620, 0o602]) {
      const dir = fresh();
      const { file } = ensureTokenFile(dir);
      chmodSync(file, mode);
      assert.throws(() => ensureTokenFile(dir), refusal('token-file-unsafe', `the HTTP token file ${file} can be read or changed by others`, `delete it (svc creates a new one) or chmod 600 ${file}`));
    }
    const dir = fresh();
    const { file } = ensureTokenFile(dir);
    chmodSync(file, 0o400);
    assert.ok(ensureTokenFile(dir).token, 'read-only for the user is fine');
  });

  it('refuses a folder where the token file should be', () => {
    const dir = fresh();
    mkdirSync(join(dir, TOKEN_FILE_NAME), { recursive: true, mode: 0o700 });
    assert.throws(() => ensureTokenFile(dir), (e: unknown) => e instanceof SvcError && e.code === 'token-file-unsafe');
  });

  it('takes a kept token of 16 characters or more (trimmed), and calls a shorter one unusable', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9_-]{0,40}$/), fc.constantFrom('', '\n', '  \n'), (token, pad) => {
        const dir = fresh();
        mkdirSync(dir, { mode: 0o700 });
        const file = join(dir, TOKEN_FILE_NAME);
        writeFileSync(file, `${token}${pad}`, { mode: 0o600 });
        if (token.length >= 16) assert.deepEqual(ensureTokenFile(dir), { token, file });
        else assert.throws(() => ensureTokenFile(dir), refusal('token-file-bad', `the HTTP token file ${file} holds no usable token`, 'delete it and svc creates a new one'));
      }),
      { numRuns: 40 },
    );
  });

  it('takes exactly 16 characters and refuses 15', () => {
    for (const [length, ok] of [[15, false], [16, true]] as const) {
      const dir = fresh();
      mkdirSync(dir, { mode: 0o700 });
      writeFileSync(join(dir, TOKEN_FILE_NAME), `${'t'.repeat(length)}\n`, { mode: 0o600 });
      if (ok) assert.equal(ensureTokenFile(dir).token, 't'.repeat(16));
      else assert.throws(() => ensureTokenFile(dir), (e: unknown) => e instanceof SvcError && e.code === 'token-file-bad');
    }
  });

  it('refuses a symbolic link in place of the token file, naming the file and what to do', () => {
    const dir = fresh();
    mkdirSync(dir, { mode: 0o700 });
    const target = join(base, `planted-${n}`);
    writeFileSync(target, 'x'.repeat(40), { mode: 0o600 });
    const file = join(dir, TOKEN_FILE_NAME);
    symlinkSync(target, file);
    assert.throws(() => ensureTokenFile(dir), (e: unknown) => {
      assert.ok(e instanceof SvcError);
      assert.equal(e.code, 'token-file-unsafe');
      assert.match(e.message, new RegExp(`^cannot read the HTTP token file ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .*ELOOP`));
      assert.equal(e.hint, 'it must be a regular file (not a symlink) owned by you; delete it and svc creates a new one');
      return true;
    });
  });

  it('closes every file it opens, reading or creating', { skip: existsSync('/proc/self/fd') ? false : 'needs /proc/self/fd' }, () => {
    const open = (): number => readdirSync('/proc/self/fd').length;
    const dir = fresh();
    ensureTokenFile(dir);
    const before = open();
    for (let i = 0; i < 20; i++) ensureTokenFile(dir);
    for (let i = 0; i < 20; i++) ensureTokenFile(fresh());
    assert.equal(open(), before);
  });

  it('creates 32 random bytes in base64url, on one line', () => {
    const { token, file } = ensureTokenFile(fresh());
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(readFileSync(file, 'utf8'), `${token}\n`);
  });

  it('an empty token variable is refused like an unset one, with the hint naming it', () => {
    assert.throws(
      () => resolveHttpAuth({ auth: 'token', tokenEnv: 'T' }, { T: '' }),
      refusal('token-missing', 'environment variable T (serve.tokenEnv) is not set or empty', 'export T=<a long random token> before starting svc serve, or remove serve.tokenEnv to use a token svc creates'),
    );
  });

  it('describes each kind of auth in exact words, never with the token', () => {
    assert.equal(describeAuth({ kind: 'none' }), 'no authentication (serve.auth: none)');
    assert.equal(describeAuth({ kind: 'token', token: 'secret-secret-secret', source: { env: 'SVC_TOKEN' } }), 'clients send "Authorization: Bearer <token>", the token in the environment variable SVC_TOKEN');
    assert.equal(describeAuth({ kind: 'token', token: 'secret-secret-secret', source: { file: '/s/http-token' } }), 'clients send "Authorization: Bearer <token>", the token in /s/http-token');
  });
});
