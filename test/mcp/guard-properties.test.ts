// The HTTP transport's guards from their contract, over generated host names, origins and tokens:
// - on a loopback bind only local names pass as Host (a page whose DNS name was rebound to
//   127.0.0.1 still sends its own name, so a name that merely contains `localhost` must fail);
// - loopback means `localhost`, `*.localhost`, `::1` or a dotted 127/8 address, nothing that only
//   starts with `127.`;
// - an allowed origin matches exactly (scheme, host, port), never as a prefix;
// - a token is accepted only whole;
// - a confirmation prompt that fails or is declined never counts as approval.
// These functions are the guard's public surface; where it lives may change, its contract may not.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { checkHostAndOrigin, hostnameOf, isLoopbackHost, tokenChecker } from '../../src/mcp/guard.ts';
import { askToConfirmWrite } from '../../src/invoke/policy.ts';
import { specSettings } from '../../src/invoke/settings.ts';
import { configFromFiles } from '../../src/config/index.ts';
import type { Endpoint } from '../../src/model/index.ts';

const req = (headers: Record<string, string>): IncomingMessage => ({ headers }) as unknown as IncomingMessage;
const LOOPBACK_BIND = { bindHost: '127.0.0.1', allowedOrigins: [] as string[] };
const RUNS = { numRuns: 300 };

const octet = fc.integer({ min: 0, max: 255 });
const port = fc.integer({ min: 1, max: 65_535 });
/** A DNS label: a letter, then letters, digits and inner hyphens (all-digit names would read as IPv4). */
const label = fc.stringMatching(/^[a-z]([a-z0-9-]{0,10}[a-z0-9])?$/);
const domain = fc.array(label, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('.'));
/** Names that are loopback by the contract. */
const loopbackName = fc.oneof(
  fc.constantFrom('localhost', '127.0.0.1', '::1', '[::1]'),
  fc.tuple(octet, octet, octet).map(([a, b, c]) => `127.${a}.${b}.${c}`),
  domain.map((d) => `${d}.localhost`),
);
/** Random upper/lower case of a name. */
const anyCase = (name: string) => fc.array(fc.boolean(), { minLength: name.length, maxLength: name.length }).map((up) => [...name].map((ch, i) => (up[i] ? ch.toUpperCase() : ch)).join(''));
/** A Host header for a name, with an optional port (IPv6 literals bracketed). */
const hostHeader = (name: string, p: number | null): string => {
  const bracketed = name.includes(':') && !name.startsWith('[') ? `[${name}]` : name;
  return p === null ? bracketed : `${bracketed}:${p}`;
};

/** A name that contains `localhost` but is not `localhost` nor a sub-domain of it: what rebinding looks like. */
const containsLocalhost = fc
  .tuple(fc.constantFrom('', 'x', 'evil', 'a-'), fc.constantFrom('', '.evil.example', '-x', 'x', '.localhost.evil', '.com'), fc.constantFrom('localhost', 'LocalHost'))
  .filter(([pre, post]) => pre !== '' || post !== '')
  .map(([pre, post, word]) => `${pre}${word}${post}`)
  .filter((h) => !h.toLowerCase().endsWith('.localhost'));

/** Starts with `127.` but is no IPv4 address: `127.0.0.1.evil.example`, `127.attacker`, `127.0.0.1x`. */
const starts127 = fc.oneof(
  fc.tuple(octet, octet, octet, domain).map(([a, b, c, d]) => `127.${a}.${b}.${c}.${d}`),
  domain.filter((d) => !/^[\d.]+$/.test(d)).map((d) => `127.${d}`),
  fc.tuple(octet, octet, octet, fc.stringMatching(/^[a-z]{1,5}$/)).map(([a, b, c, s]) => `127.${a}.${b}.${c}${s}`),
  fc.tuple(octet, octet).map(([a, b]) => `127.${a}.${b}`),
  fc.tuple(octet, octet, octet).map(([a, b, c]) => `127.${a}.${b}.${c}.`),
);

describe('loopback names', () => {
  it('every loopback name is loopback, in any letter case', () => {
    fc.assert(
      fc.property(loopbackName.chain(anyCase), (name) => {
        assert.equal(isLoopbackHost(name), true, name);
      }),
      RUNS,
    );
  });

  it('a name that merely contains localhost is not loopback', () => {
    fc.assert(
      fc.property(containsLocalhost, (name) => {
        assert.equal(isLoopbackHost(name), false, name);
      }),
      RUNS,
    );
  });

  it('a name that starts with 127. but is no IPv4 address is not loopback', () => {
    fc.assert(
      fc.property(starts127, (name) => {
        assert.equal(isLoopbackHost(name), false, name);
      }),
      RUNS,
    );
  });

  it('a loopback name inside a longer name, or with one bracket, is not loopback', () => {
    fc.assert(
      fc.property(fc.constantFrom('localhost', '127.0.0.1', '::1', '127.1.2.3'), label, (name, other) => {
        for (const host of [`${other}.${name}`.replace(/\.localhost$/, '.localhostx'), `${other}${name}`, `[${name}x`, `x${name}]`, `[${name}`, `${name}]`]) {
          if (host.endsWith('.localhost')) continue;
          assert.equal(isLoopbackHost(host), false, host);
        }
      }),
      RUNS,
    );
  });

  it('other addresses and wildcards are not loopback', () => {
    const other = fc.tuple(octet.filter((a) => a !== 127), octet, octet, octet).map((o) => o.join('.'));
    fc.assert(
      fc.property(fc.oneof(other, domain.filter((d) => d !== 'localhost' && !d.endsWith('.localhost')), fc.constantFrom('0.0.0.0', '::', '[::]', '')), (name) => {
        assert.equal(isLoopbackHost(name), false, name);
      }),
      RUNS,
    );
  });

  it('hostnameOf takes the name out of any Host header, lower-cased, without port or brackets', () => {
    fc.assert(
      fc.property(fc.oneof(domain, loopbackName), fc.option(port), (name, p) => {
        const bare = name.startsWith('[') ? name.slice(1, -1) : name;
        assert.equal(hostnameOf(hostHeader(name.toUpperCase(), p)), bare.toLowerCase());
        assert.equal(hostnameOf(` ${hostHeader(name, p)} `), bare.toLowerCase());
      }),
      RUNS,
    );
    assert.equal(hostnameOf('[::1'), '[::1', 'an unclosed bracket is kept as written');
    assert.equal(hostnameOf(':80'), '');
    assert.equal(hostnameOf('[]:80'), '');
  });
});

describe('Host check on a loopback bind (DNS rebinding)', () => {
  it('accepts every loopback name with any port', () => {
    fc.assert(
      fc.property(loopbackName, fc.option(port), (name, p) => {
        assert.equal(checkHostAndOrigin(req({ host: hostHeader(name, p) }), LOOPBACK_BIND), undefined);
      }),
      RUNS,
    );
  });

  it('refuses a Host that contains localhost or starts with 127. without being loopback, whatever the bind', () => {
    fc.assert(
      fc.property(fc.oneof(containsLocalhost, starts127), fc.option(port), fc.constantFrom('127.0.0.1', 'localhost', '::1', '[::1]'), (name, p, bindHost) => {
        const host = hostHeader(name, p);
        const why = checkHostAndOrigin(req({ host }), { bindHost, allowedOrigins: [] });
        assert.equal(why, `Host "${host}" is not allowed`);
      }),
      RUNS,
    );
  });

  it('refuses any other name unless its origin is allowed, and then only that host', () => {
    fc.assert(
      fc.property(domain, domain, port, (name, allowed, p) => {
        fc.pre(!isLoopbackHost(name) && name !== allowed);
        const policy = { bindHost: '127.0.0.1', allowedOrigins: [`https://${allowed}`] };
        assert.match(checkHostAndOrigin(req({ host: `${name}:${p}` }), policy) ?? '', /is not allowed/);
        assert.equal(checkHostAndOrigin(req({ host: `${allowed}:${p}` }), policy), undefined);
      }),
      RUNS,
    );
  });

  it('an allowed origin that does not parse allows no host, not even an empty name', () => {
    const policy = { bindHost: '127.0.0.1', allowedOrigins: ['not an origin', 'https://ok.example'] };
    assert.equal(checkHostAndOrigin(req({ host: ':7331' }), policy), 'Host ":7331" is not allowed');
    assert.equal(checkHostAndOrigin(req({ host: 'ok.example' }), policy), undefined);
  });

  it('refuses a request without Host', () => {
    assert.equal(checkHostAndOrigin(req({}), LOOPBACK_BIND), 'missing Host header');
    assert.equal(checkHostAndOrigin(req({ host: '' }), { bindHost: '0.0.0.0', allowedOrigins: [] }), 'missing Host header');
  });
});

describe('Host check on other binds', () => {
  it('a specific address accepts itself and loopback names, nothing else', () => {
    const bindIp = fc.tuple(octet.filter((a) => a !== 127 && a !== 0), octet, octet, octet).map((o) => o.join('.'));
    fc.assert(
      fc.property(bindIp, domain, fc.option(port), (bind, other, p) => {
        fc.pre(!isLoopbackHost(other) && other !== bind);
        const policy = { bindHost: bind, allowedOrigins: [] };
        assert.equal(checkHostAndOrigin(req({ host: hostHeader(bind, p) }), policy), undefined);
        assert.equal(checkHostAndOrigin(req({ host: hostHeader('localhost', p) }), policy), undefined);
        assert.match(checkHostAndOrigin(req({ host: hostHeader(other, p) }), policy) ?? '', /is not allowed/);
      }),
      RUNS,
    );
  });

  it('a named bind accepts its own name in any case', () => {
    assert.equal(checkHostAndOrigin(req({ host: 'svc.example:1' }), { bindHost: 'SVC.Example', allowedOrigins: [] }), undefined);
    assert.equal(checkHostAndOrigin(req({ host: 'SVC.EXAMPLE' }), { bindHost: 'svc.example', allowedOrigins: [] }), undefined);
  });

  it('a wildcard bind accepts any Host (a token guards it instead)', () => {
    fc.assert(
      fc.property(fc.constantFrom('0.0.0.0', '::', '[::]', ''), domain, fc.option(port), (bindHost, name, p) => {
        assert.equal(checkHostAndOrigin(req({ host: hostHeader(name, p) }), { bindHost, allowedOrigins: [] }), undefined);
      }),
      RUNS,
    );
  });
});

describe('Origin check', () => {
  const scheme = fc.constantFrom('http', 'https');
  const origin = fc.tuple(scheme, domain, fc.option(port)).map(([s, d, p]) => `${s}://${d}${p === null ? '' : `:${p}`}`);
  const host = '127.0.0.1:7331';

  it('accepts an allowed origin exactly, in any case and with a trailing slash in svc.yaml', () => {
    fc.assert(
      fc.property(origin, fc.boolean(), (o, slash) => {
        fc.pre(!isLoopbackHost(new URL(o).hostname));
        const policy = { bindHost: '127.0.0.1', allowedOrigins: [slash ? `${o}/` : o.toUpperCase()] };
        assert.equal(checkHostAndOrigin(req({ host, origin: new URL(o).origin }), policy), undefined, o);
      }),
      RUNS,
    );
  });

  it('refuses an origin that only starts with, or extends, an allowed one', () => {
    const extension = fc.constantFrom('.evil.example', '-evil', 'x', '.co', '0');
    fc.assert(
      fc.property(origin, extension, (o, ext) => {
        const url = new URL(o);
        fc.pre(!isLoopbackHost(url.hostname));
        const policy = { bindHost: '127.0.0.1', allowedOrigins: [o] };
        // The host name extended (`https://app.example.evil`), and the allowed name as a sub-domain.
        const longer = `${url.protocol}//${url.hostname}${ext}${url.port ? `:${url.port}` : ''}`;
        const sub = `${url.protocol}//evil.${url.hostname}${url.port ? `:${url.port}` : ''}`;
        for (const sent of [longer, sub]) {
          assert.equal(checkHostAndOrigin(req({ host, origin: sent }), policy), `Origin "${sent}" is not allowed`);
        }
        // And the allowed origin itself as the *prefix* of the configured one is no match either.
        const policyLonger = { bindHost: '127.0.0.1', allowedOrigins: [longer] };
        assert.equal(checkHostAndOrigin(req({ host, origin: url.origin }), policyLonger), `Origin "${url.origin}" is not allowed`);
      }),
      RUNS,
    );
  });

  it('refuses the same host on another scheme or port', () => {
    fc.assert(
      fc.property(domain, port, port, (d, p1, p2) => {
        fc.pre(p1 !== p2 && p1 !== 443 && p2 !== 443 && p1 !== 80 && p2 !== 80 && !isLoopbackHost(d));
        const policy = { bindHost: '127.0.0.1', allowedOrigins: [`https://${d}:${p1}`] };
        assert.match(checkHostAndOrigin(req({ host, origin: `https://${d}:${p2}` }), policy) ?? '', /^Origin/);
        assert.match(checkHostAndOrigin(req({ host, origin: `http://${d}:${p1}` }), policy) ?? '', /^Origin/);
      }),
      RUNS,
    );
  });

  it('accepts loopback origins and no Origin at all; refuses foreign, opaque and unparseable ones', () => {
    fc.assert(
      fc.property(loopbackName, fc.option(port), domain, (name, p, foreign) => {
        fc.pre(!isLoopbackHost(foreign));
        assert.equal(checkHostAndOrigin(req({ host, origin: `http://${hostHeader(name, p)}` }), LOOPBACK_BIND), undefined);
        assert.equal(checkHostAndOrigin(req({ host }), LOOPBACK_BIND), undefined);
        assert.equal(checkHostAndOrigin(req({ host, origin: `https://${foreign}` }), LOOPBACK_BIND), `Origin "https://${foreign}" is not allowed`);
        for (const bad of ['null', 'not a url', `//${foreign}`]) {
          assert.equal(checkHostAndOrigin(req({ host, origin: bad }), LOOPBACK_BIND), `Origin "${bad}" is not allowed`);
        }
      }),
      RUNS,
    );
  });

  it('on a named bind its own name is an allowed origin and other names are not', () => {
    fc.assert(
      fc.property(domain, domain, fc.option(port), (bind, other, p) => {
        fc.pre(bind !== other && !isLoopbackHost(bind) && !isLoopbackHost(other));
        const policy = { bindHost: bind, allowedOrigins: [] };
        const host = hostHeader(bind, p);
        assert.equal(checkHostAndOrigin(req({ host, origin: `https://${host}` }), policy), undefined);
        assert.equal(checkHostAndOrigin(req({ host, origin: `https://${hostHeader(other, p)}` }), policy), `Origin "https://${hostHeader(other, p)}" is not allowed`);
      }),
      RUNS,
    );
  });

  it('a configured origin with trailing slashes still matches exactly', () => {
    const policy = { bindHost: '127.0.0.1', allowedOrigins: ['https://app.example//'] };
    assert.equal(checkHostAndOrigin(req({ host: '127.0.0.1', origin: 'https://app.example' }), policy), undefined);
  });

  it('on a non-loopback bind its own address is an allowed origin; on loopback a foreign origin is not', () => {
    const bindIp = fc.tuple(octet.filter((a) => a !== 127 && a !== 0), octet, octet, octet).map((o) => o.join('.'));
    fc.assert(
      fc.property(bindIp, fc.option(port), (bind, p) => {
        const hostH = hostHeader(bind, p);
        assert.equal(checkHostAndOrigin(req({ host: hostH, origin: `http://${hostH}` }), { bindHost: bind, allowedOrigins: [] }), undefined);
        assert.match(checkHostAndOrigin(req({ host: hostH, origin: `http://${hostH}` }), { bindHost: '127.0.0.1', allowedOrigins: [] }) ?? '', /not allowed/);
      }),
      RUNS,
    );
  });
});

describe('bearer token', () => {
  const token = fc.stringMatching(/^[A-Za-z0-9._~+/=-]{1,40}$/);

  it('accepts the whole token after Bearer in any case and spacing', () => {
    fc.assert(
      fc.property(token, fc.constantFrom('Bearer', 'bearer', 'BEARER'), fc.constantFrom(' ', '  ', '\t'), fc.constantFrom('', ' ', '\t '), (t, word, gap, pad) => {
        assert.equal(tokenChecker(t)(req({ authorization: `${pad}${word}${gap}${t}${pad}` })), true);
      }),
      RUNS,
    );
  });

  it('refuses any other token, a prefix or extension of it, another scheme, or none', () => {
    fc.assert(
      fc.property(token, token, (t, other) => {
        const ok = tokenChecker(t);
        if (other !== t) assert.equal(ok(req({ authorization: `Bearer ${other}` })), false);
        assert.equal(ok(req({ authorization: `Bearer ${t}${other}` })), false);
        if (t.length > 1) assert.equal(ok(req({ authorization: `Bearer ${t.slice(0, -1)}` })), false);
        assert.equal(ok(req({ authorization: `Basic ${t}` })), false);
        assert.equal(ok(req({ authorization: `NotBearer ${t}` })), false);
        assert.equal(ok(req({ authorization: `Token Bearer ${t}` })), false);
        assert.equal(ok(req({ authorization: t })), false);
        assert.equal(ok(req({})), false);
      }),
      RUNS,
    );
  });

  it('an empty Bearer value never matches, not even an empty-looking token', () => {
    assert.equal(tokenChecker('')(req({ authorization: 'Bearer ' })), false);
    assert.equal(tokenChecker('')(req({})), false);
  });
});

describe('write confirmation', () => {
  const endpoint = { method: 'DELETE', path: '/pets/{id}' } as unknown as Endpoint;

  async function settings() {
    const config = await configFromFiles([]);
    return specSettings(config, 'pets');
  }

  // The question (what will be sent) is built by invoke; the policy asks it as given.
  const QUESTION = 'Allow DELETE http://127.0.0.1:9/pets/1?';

  it('a prompt that fails, in any way, is a refusal and never approval', async () => {
    const failure = fc.oneof(fc.string().map((m) => new Error(m)), fc.string(), fc.constant(undefined), fc.integer());
    await fc.assert(
      fc.asyncProperty(failure, async (thrown) => {
        let asked = 0;
        const confirm = async (): Promise<boolean> => {
          asked++;
          throw thrown;
        };
        await assert.rejects(askToConfirmWrite(endpoint, confirm, QUESTION), (error: Error) => {
          assert.equal(error.name, 'WriteRefusedError');
          assert.match(error.message, /^Refused: asking the person to confirm DELETE \/pets\/\{id\} failed/);
          return true;
        });
        assert.equal(asked, 1);
      }),
      { numRuns: 50 },
    );
  });

  it('a declined prompt is a refusal; only a yes lets the write through', async () => {
    const messages: string[] = [];
    await assert.rejects(
      askToConfirmWrite(endpoint, async (m: string) => (messages.push(m), false), QUESTION),
      (error: Error) => error.name === 'WriteRefusedError' && /declined DELETE \/pets\/\{id\}/.test(error.message),
    );
    await askToConfirmWrite(endpoint, async (m: string) => (messages.push(m), true), QUESTION);
    assert.equal(messages.length, 2);
    assert.deepEqual(messages, [QUESTION, QUESTION]);
  });
});
