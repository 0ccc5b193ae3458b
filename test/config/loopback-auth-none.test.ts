// serve.auth: none is allowed only where no other machine can connect: the loopback names and
// addresses. From the contract, over generated hosts: every loopback form is accepted with auth
// none, every near miss is refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseConfig } from '../../src/config/index.ts';
import { petsProject, problemsOf } from './helpers.ts';

const pets = petsProject();

/** The problems of `serve: { transport: http, host, auth: none }`: none when the host is loopback. */
async function authNoneProblems(host: string): Promise<string[]> {
  try {
    const c = await parseConfig(`serve:\n  transport: http\n  host: ${JSON.stringify(host)}\n  auth: none\nspecs: [specs/pets.yaml]\n`, pets.config());
    assert.equal(c.serve.auth, 'none');
    // An IPv6 address in brackets, as a URL writes it, is served as listen() takes it: bare.
    assert.equal(c.serve.host, host === '[::1]' ? '::1' : host);
    return [];
  } catch (error) {
    return problemsOf(error).map((p) => p.message);
  }
}

const octet = fc.integer({ min: 0, max: 999 }).map(String);

describe('serve.auth: none and loopback hosts', () => {
  it('localhost, ::1 and [::1] take auth none', async () => {
    for (const host of ['localhost', '::1', '[::1]']) assert.deepEqual(await authNoneProblems(host), [], host);
  });

  it('any 127.a.b.c, whatever the digits of each part, takes auth none', async () => {
    await fc.assert(
      fc.asyncProperty(octet, octet, octet, async (a, b, c) => {
        assert.deepEqual(await authNoneProblems(`127.${a}.${b}.${c}`), []);
      }),
      { numRuns: 50 },
    );
  });

  it('a near miss of a loopback form is refused', async () => {
    const near = fc.oneof(
      fc.tuple(octet, octet, octet).map(([a, b, c]) => `x127.${a}.${b}.${c}`),
      fc.tuple(octet, octet, octet).map(([a, b, c]) => `127.${a}.${b}.${c}.nip.io`),
      fc.tuple(octet, octet).map(([a, b]) => `127.${a}.${b}`),
      fc.constantFrom('localhost.', 'xlocalhost', '::2', '[::1]:80', '::'),
    );
    await fc.assert(
      fc.asyncProperty(near, async (host) => {
        const problems = await authNoneProblems(host);
        assert.equal(problems.length, 1, `${host}: ${JSON.stringify(problems)}`);
        assert.match(problems[0]!, /^serve\.auth: none on .*, which is reachable from other machines/);
      }),
      { numRuns: 60 },
    );
  });
});

describe('serve.host in brackets', () => {
  it('an IPv6 address written in brackets is taken bare; any other host as written', async () => {
    const hex = fc.stringMatching(/^[0-9a-f]{1,4}$/);
    await fc.assert(
      fc.asyncProperty(fc.array(hex, { minLength: 2, maxLength: 8 }).map((parts) => parts.join(':')), async (address) => {
        const c = await parseConfig(`serve:\n  transport: http\n  host: "[${address}]"\nspecs: [specs/pets.yaml]\n`, pets.config());
        assert.equal(c.serve.host, address);
      }),
      { numRuns: 40 },
    );
    for (const host of ['[]', '[::1]:80', 'fe80::1]', '[fe80::1', 'example.com', '::1', '127.0.0.1']) {
      const c = await parseConfig(`serve:\n  transport: http\n  host: ${JSON.stringify(host)}\nspecs: [specs/pets.yaml]\n`, pets.config());
      assert.equal(c.serve.host, host, host);
    }
  });
});
