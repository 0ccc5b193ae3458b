// Postman raw URLs and variables from their contract, over generated URLs: whatever the scheme,
// credentials, host (a name, an IPv6 literal or a variable), port, path and query, and wherever
// `{{variables}}` holding `/ ? # : @ & =` sit, the parts come back as written, credentials and the
// fragment dropped; `{{name}}` becomes `{name}` and every other brace is percent-encoded.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseRawUrl } from '../../src/import/postman/raw-url.ts';
import { convertVariables, escapeBraces, readCollectionVariables } from '../../src/import/postman/variables.ts';

/** A variable whose name holds delimiters, as Postman allows. */
const variable = fc.stringMatching(/^[a-z][a-z/?#:@&=.]{0,5}$/).map((n) => `{{${n}}}`);
const word = fc.stringMatching(/^[a-z0-9_-]{1,6}$/);
const piece = fc.oneof(word, variable, fc.tuple(word, variable).map(([a, b]) => a + b));

const url = fc.record({
  protocol: fc.option(fc.constantFrom('http', 'https', '{{scheme}}'), { nil: undefined }),
  credentials: fc.option(fc.constantFrom('user:pw', '{{u}}:{{p}}', 'me'), { nil: undefined }),
  host: fc.option(fc.oneof(word.map((w) => `${w}.example`), variable, fc.constant('[::1]')), { nil: undefined }),
  port: fc.option(fc.oneof(fc.integer({ min: 1, max: 65535 }).map(String), fc.constant('{{port}}')), { nil: undefined }),
  segments: fc.array(piece, { maxLength: 4 }),
  query: fc.option(fc.array(fc.tuple(piece, fc.option(piece, { nil: undefined })), { minLength: 1, maxLength: 3 }), { nil: undefined }),
  fragment: fc.option(word, { nil: undefined }),
});

describe('Postman raw URLs', () => {
  it('parse back into the parts they were written from, without credentials or fragment', () => {
    fc.assert(
      fc.property(url, (u) => {
        fc.pre(u.host !== undefined || (u.port === undefined && u.credentials === undefined));
        let raw = '';
        if (u.protocol !== undefined) raw += `${u.protocol}://`;
        if (u.credentials !== undefined) raw += `${u.credentials}@`;
        raw += u.host ?? '';
        if (u.port !== undefined) raw += `:${u.port}`;
        if (u.segments.length > 0) raw += `/${u.segments.join('/')}`;
        if (u.query !== undefined) raw += `?${u.query.map(([k, v]) => (v === undefined ? k : `${k}=${v}`)).join('&')}`;
        if (u.fragment !== undefined) raw += `#${u.fragment}`;
        const parsed = parseRawUrl(`  ${raw} `);
        assert.deepEqual(parsed, {
          ...(u.protocol !== undefined ? { protocol: u.protocol } : {}),
          ...(u.host !== undefined ? { host: u.host } : {}),
          ...(u.port !== undefined ? { port: u.port } : {}),
          segments: u.segments,
          query: (u.query ?? []).map(([key, value]) => ({ key, value })),
        }, raw);
      }),
      { numRuns: 300 },
    );
  });

  it('reads a host:port without a scheme, a Windows-style scheme, and leaves a colon that is not a port in the host', () => {
    assert.deepEqual(parseRawUrl('localhost:4041'), { host: 'localhost', port: '4041', segments: [], query: [] });
    assert.deepEqual(parseRawUrl('file:\\\\share/x'), { protocol: 'file', host: 'share', segments: ['x'], query: [] });
    assert.deepEqual(parseRawUrl('host:abc/p'), { host: 'host:abc', segments: ['p'], query: [] });
    assert.deepEqual(parseRawUrl('[::1]/p'), { host: '[::1]', segments: ['p'], query: [] });
    assert.deepEqual(parseRawUrl('/only/path'), { segments: ['only', 'path'], query: [] });
    assert.deepEqual(parseRawUrl('h/a//b/'), { host: 'h', segments: ['a', '', 'b', ''], query: [] });
    assert.deepEqual(parseRawUrl('h?'), { host: 'h', segments: [], query: [{ key: '', value: undefined }] });
    assert.deepEqual(parseRawUrl('h?a=1=2'), { host: 'h', segments: [], query: [{ key: 'a', value: '1=2' }] });
    assert.deepEqual(parseRawUrl('{{a'), { host: '{{a', segments: [], query: [] }, 'an unclosed variable is text');
    assert.deepEqual(parseRawUrl('h/{{x/y}}/z'), { host: 'h', segments: ['{{x/y}}', 'z'], query: [] });
  });
});

describe('Postman variables', () => {
  it('turn {{name}} into {name}, list the names in order, and percent-encode every other brace', () => {
    const text = fc.array(fc.oneof(word, fc.constantFrom('{', '}', '/', 'é', '😀'), variable.map((v) => v.replace(/[/?#:@&=]/g, ''))), { maxLength: 8 }).map((p) => p.join(''));
    fc.assert(
      fc.property(text, (source) => {
        const out = convertVariables(source);
        const names = [...source.matchAll(/\{\{([^{}]+)\}\}/g)].map((m) => m[1]!);
        assert.deepEqual(out.variables, names);
        // Put the variables back as they were, decode the escaped braces: the source again.
        const back = out.text.replace(/\{([^{}]+)\}/g, '{{$1}}').replaceAll('%7B', '{').replaceAll('%7D', '}');
        assert.equal(back, source);
        const outside = out.text.replace(/\{[^{}]+\}/g, '');
        assert.ok(!outside.includes('{') && !outside.includes('}'), out.text);
      }),
    );
  });

  it('say when braces were left over from nested variables, and nothing else', () => {
    assert.deepEqual(convertVariables('/a/{{b}}/c'), { text: '/a/{b}/c', variables: ['b'], strayBraces: false });
    assert.deepEqual(convertVariables('{{a.{{b}}}}'), { text: '%7B%7Ba.{b}%7D%7D', variables: ['b'], strayBraces: true });
    assert.deepEqual(convertVariables('x {{y'), { text: 'x %7B%7By', variables: [], strayBraces: true });
    assert.deepEqual(convertVariables('x }} y'), { text: 'x %7D%7D y', variables: [], strayBraces: true });
    assert.deepEqual(convertVariables('{x}'), { text: '%7Bx%7D', variables: [], strayBraces: false });
    assert.deepEqual(convertVariables('plain/path'), { text: 'plain/path', variables: [], strayBraces: false });
    assert.equal(escapeBraces('{a}{'), '%7Ba%7D%7B');
  });

  it('collection variables: key or id, first one wins, values as text, other shapes skipped', () => {
    const vars = readCollectionVariables({ variable: [{ key: 'a', value: 1 }, { id: 'b', value: 'x' }, { key: 'a', value: 'second' }, { key: 'c' }, { key: 'd', value: null }, { value: 'nameless' }, 'junk', null, { key: 'e', value: true }] });
    assert.deepEqual([...vars], [['a', '1'], ['b', 'x'], ['c', ''], ['d', ''], ['e', 'true']]);
    assert.deepEqual([...readCollectionVariables({ variables: [{ key: 'old', value: 'v' }] })], [['old', 'v']]);
    assert.deepEqual([...readCollectionVariables({ variable: [{ key: 'new', value: 'n' }], variables: [{ key: 'old', value: 'v' }] })], [['new', 'n']]);
    assert.deepEqual([...readCollectionVariables({ variable: 'not a list' })], []);
  });
});
