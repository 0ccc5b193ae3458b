// Does a baseUrl in svc.yaml match one of the spec's servers (src/cli/check-config.ts)? Checked
// against a reference regular expression on generated server templates of every kind: absolute,
// relative with or without a leading slash, empty, a Postman `{{base}}` origin; `{var}` as its
// enum values (the variable's name in any case, spaces inside the braces) or else any one segment,
// `{{var}}` as anything; case and trailing slashes not counting. Then the bounds: a template past
// 2,048 characters or 200 pieces is not judged, and only the first 64 servers are compared.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { configFindings } from '../../src/cli/check-config.ts';
import type { SpecConfig } from '../../src/config/index.ts';
import type { ImportedSpec, Server } from '../../src/model/index.ts';

const spec = (servers: readonly Server[], endpointServers: readonly Server[] = []): ImportedSpec =>
  ({ name: 'h', servers, endpoints: endpointServers.length ? [{ servers: endpointServers, security: undefined }] : [], securitySchemes: {} }) as unknown as ImportedSpec;
const entry = (baseUrl: string): SpecConfig =>
  ({ name: 'h', path: '/h.yaml', collection: 'default', baseUrl, auth: [], headers: {}, serverVariables: {}, allowedOrigins: [], allowRefsFrom: [], allowRemoteRefs: false, writes: 'deny', timeoutMs: 1000, retries: 0 }) as SpecConfig;
const unmatched = (baseUrl: string, servers: readonly Server[], endpointServers: readonly Server[] = []) =>
  configFindings(entry(baseUrl), 0, spec(servers, endpointServers), '/svc.yaml').warnings.find((w) => w.code === 'base-url-unmatched');

const escape = (s: string) => s.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');

/** What a server template should match, as a regular expression over the compared text. */
function reference(server: Server): RegExp {
  let t = server.url.trim().replace(/\/+$/, '').toLowerCase();
  const absolute = /^[a-z][a-z0-9+.-]*:\/\//.test(t) || t.startsWith('{{');
  if (!absolute && t !== '' && !t.startsWith('/')) t = `/${t}`;
  let out = '';
  let last = 0;
  for (const m of t.matchAll(/\{\{\s*[^{}]+?\s*\}\}|\{([^{}]+)\}/g)) {
    out += escape(t.slice(last, m.index));
    if (m[1] === undefined) out += '.+';
    else {
      const name = m[1].trim();
      const values = Object.entries(server.variables ?? {}).find(([k]) => k.toLowerCase() === name)?.[1].enum;
      out += values && values.length > 0 ? `(?:${values.map((v) => escape(v.toLowerCase())).join('|')})` : '[^/]+';
    }
    last = m.index + m[0].length;
  }
  out += escape(t.slice(last));
  return new RegExp(`^${out}$`);
}
const compared = (server: Server, baseUrl: string): string => {
  const t = server.url.trim().toLowerCase();
  const absolute = /^[a-z][a-z0-9+.-]*:\/\//.test(t) || t.startsWith('{{');
  const base = new URL(baseUrl);
  return (absolute ? `${base.origin}${base.pathname}` : base.pathname).replace(/\/+$/, '').toLowerCase();
};

describe('baseUrl against server templates', () => {
  it('matches what the reference matches, for every kind of template', () => {
    const start = fc.constantFrom('https://h.example', 'HTTPS://H.example', 'http://h.example:8080', '', '/', '{{base}}', '{{ base }}');
    const piece = fc.constantFrom('a', 'B', '/', '-', '.', '{v}', '{V}', '{ v }', '{w}', '{{p}}', '{{ pq }}');
    const variables = fc.option(
      fc.record({ name: fc.constantFrom('v', 'V', 'w'), values: fc.array(fc.constantFrom('a', 'ab', 'B', 'a/b'), { maxLength: 3 }) }),
      { nil: undefined },
    );
    fc.assert(
      fc.property(start, fc.array(piece, { maxLength: 7 }), variables, fc.constantFrom('https://h.example', 'http://h.example:8080', 'https://other.example'), fc.stringMatching(/^[aAbB/.-]{0,8}$/), fc.boolean(), (head, pieces, variable, origin, path, slash) => {
        const url = `${head}${pieces.join('')}${slash ? '/' : ''}`;
        const server: Server = { url, ...(variable ? { variables: { [variable.name]: { default: 'a', enum: variable.values } } } : {}) };
        const baseUrl = `${origin}/${path}`;
        const expected = reference(server).test(compared(server, baseUrl));
        assert.equal(unmatched(baseUrl, [server]) === undefined, expected, `${url} ${JSON.stringify(server.variables)} vs ${baseUrl}`);
      }),
      { numRuns: 1500 },
    );
  });

  it('does not judge a template past 2,048 characters or 200 pieces, and compares the first 64 servers only', () => {
    assert.equal(unmatched('https://x.example/v1', [{ url: `https://y.example/${'a'.repeat(2040)}` }]), undefined);
    assert.ok(unmatched('https://x.example/v1', [{ url: `https://y.example/${'a'.repeat(2020)}` }]));
    assert.equal(unmatched('https://x.example/v1', [{ url: `https://y.example/${'{a}-'.repeat(100)}` }]), undefined);
    assert.ok(unmatched('https://x.example/v1', [{ url: `https://y.example/${'{a}-'.repeat(99)}` }]));
    const many = Array.from({ length: 70 }, (_, i) => ({ url: `https://s${i}.example/v1` }));
    assert.ok(unmatched('https://s65.example/v1', many.slice(0, 10), many.slice(10)), 'the 66th server is not compared');
    assert.equal(unmatched('https://s63.example/v1', many.slice(0, 10), many.slice(10)), undefined, 'the 64th server is');
    assert.equal(unmatched('https://s5.example/v1', many.slice(0, 10), many.slice(10)), undefined);
  });

  it("gives each server's base path in the hint, and says when only the host differs", () => {
    const hint = (baseUrl: string, servers: readonly Server[]) => unmatched(baseUrl, servers)?.hint;
    assert.equal(
      hint('https://x.example/v3', [{ url: '{{base}}/v1/' }, { url: 'api/v2' }, { url: 'https://y.example' }]),
      "invoke appends each endpoint's path to the baseUrl; its path is /v3, the servers' /v1, /api/v2, /: use the servers' base path if the API serves it there",
    );
    assert.equal(hint('https://x.example/eu/v1', [{ url: 'https://{region}.y.example/{region}/v1', variables: { region: { default: 'us', enum: ['us'] } } }]), "invoke appends each endpoint's path to the baseUrl; its path is /eu/v1, the servers' /{region}/v1: use the servers' base path if the API serves it there");
    assert.equal(hint('https://x.example/us/v1', [{ url: 'https://{region}.y.example/{region}/v1', variables: { region: { default: 'us', enum: ['us'] } } }]), "fine for a proxy or a local copy of the API; otherwise use one of the servers' URLs");
    assert.equal(unmatched('https://x.example/v1', []), undefined);
  });
});
