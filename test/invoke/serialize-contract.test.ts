// Parameter serialization from its contract: every style round-trips any value (reserved
// characters included), a path value is always exactly one segment, an empty path value is
// refused, headers cannot be split. And base-URL resolution: only absolute http(s) URLs.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { specDefaults } from '../../src/config/index.ts';
import { credentialBase, InvalidArgumentsError, InvokeError } from '../../src/invoke/index.ts';
import { resolveBaseUrl, withinBase } from '../../src/invoke/base-url.ts';
import { encodeStrict, serializeParams } from '../../src/invoke/serialize.ts';
import type { SpecSettings } from '../../src/invoke/settings.ts';
import type { Endpoint, ImportedSpec, Parameter } from '../../src/model/index.ts';
import { harness } from './helpers.ts';

const value = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 });
const reserved = fc.constantFrom('/', '?', '#', '%', '&', '=', '+', ',', ';', '|', ' ', '[', ']', '%2F', '\u00e9', '\u{1F600}', "'", '(');
const anyValue = fc.oneof(value, fc.array(reserved, { minLength: 1, maxLength: 4 }).map((a) => a.join('')));

function param(p: Partial<Parameter> & Pick<Parameter, 'name' | 'in'>): Parameter {
  return { required: false, type: 'any', ...p };
}

function rawQuery(query: string): Array<[string, string]> {
  return query === '' ? [] : query.split('&').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]);
}

describe('query styles round-trip', () => {
  test('form, exploded: one key per item, any characters', () => {
    fc.assert(
      fc.property(fc.array(anyValue, { minLength: 1, maxLength: 5 }), (items) => {
        const q = serializeParams('', [{ param: param({ name: 'tag s', in: 'query' }), value: items }]).query;
        assert.deepEqual(new URLSearchParams(q).getAll('tag s'), items);
      }),
    );
  });

  test('form, spaceDelimited and pipeDelimited, not exploded: one key, items split back', () => {
    fc.assert(
      fc.property(fc.array(anyValue.filter((v) => !v.includes(' ')), { minLength: 1, maxLength: 5 }), fc.constantFrom(['form', ','], ['spaceDelimited', '%20'], ['pipeDelimited', '|']), (items, [style, sep]) => {
        const q = serializeParams('', [{ param: param({ name: 'ids', in: 'query', style, explode: false }), value: items }]).query;
        const pairs = rawQuery(q);
        assert.equal(pairs.length, 1);
        assert.equal(pairs[0]![0], 'ids');
        assert.deepEqual(pairs[0]![1].split(sep).map(decodeURIComponent), items);
      }),
    );
  });

  test('objects: form exploded as their own keys, deepObject as name[key]', () => {
    fc.assert(
      fc.property(fc.dictionary(value, anyValue, { minKeys: 1, maxKeys: 4 }), (obj) => {
        const form = serializeParams('', [{ param: param({ name: 'o', in: 'query' }), value: obj }]).query;
        assert.deepEqual(Object.fromEntries(new URLSearchParams(form)), { ...obj });
        const deep = serializeParams('', [{ param: param({ name: 'o', in: 'query', style: 'deepObject', explode: true }), value: obj }]).query;
        const back = Object.fromEntries([...new URLSearchParams(deep)].map(([k, v]) => [k.slice(2, -1), v]));
        assert.deepEqual(back, { ...obj });
        for (const [k] of new URLSearchParams(deep)) assert.ok(k.startsWith('o[') && k.endsWith(']'));
      }),
    );
  });

  test('a scalar of any characters comes back whole, and an empty array sends nothing', () => {
    fc.assert(
      fc.property(fc.oneof(anyValue, fc.constant('')), (v) => {
        const q = serializeParams('', [{ param: param({ name: 'q', in: 'query' }), value: v }]).query;
        assert.equal(new URLSearchParams(q).get('q'), v);
      }),
    );
    assert.equal(serializeParams('', [{ param: param({ name: 'q', in: 'query' }), value: [] }]).query, '');
  });
});

describe('path styles', () => {
  const styles = fc.constantFrom(['simple', false], ['simple', true], ['label', false], ['label', true], ['matrix', false], ['matrix', true]) as fc.Arbitrary<[string, boolean]>;

  test('a path value of any characters is exactly one segment and decodes back', () => {
    fc.assert(
      fc.property(anyValue.filter((v) => v !== '.' && v !== '..'), styles, (v, [style, explode]) => {
        const { path } = serializeParams('/items/{id}/x', [{ param: param({ name: 'id', in: 'path', required: true, style, explode }), value: v }]);
        const segments = path.split('/');
        assert.equal(segments.length, 4, path);
        const seg = segments[2]!;
        const prefix = style === 'label' ? '.' : style === 'matrix' ? ';id=' : '';
        assert.ok(seg.startsWith(prefix));
        assert.equal(decodeURIComponent(seg.slice(prefix.length)), v);
        assert.ok(!/[/?#]/.test(seg));
      }),
    );
  });

  test('arrays in a path split back into their items', () => {
    fc.assert(
      // A segment that is '', '.' or '..' is refused (the tests below), so it is not generated here.
      fc.property(fc.array(anyValue, { minLength: 1, maxLength: 4 }).filter((items) => !['', '.', '..'].includes(items.join(','))), (items) => {
        const { path } = serializeParams('/a/{ids}', [{ param: param({ name: 'ids', in: 'path', required: true }), value: items }]);
        assert.deepEqual(path.slice(3).split(',').map(decodeURIComponent), items);
      }),
    );
  });

  test('an empty path value is refused in every style (DELETE /pets/ must not reach the collection)', () => {
    fc.assert(
      fc.property(fc.constantFrom<unknown>('', [], {}), styles, (v, [style, explode]) => {
        assert.throws(
          () => serializeParams('/pets/{id}', [{ param: param({ name: 'id', in: 'path', required: true, style, explode }), value: v }]),
          (err: unknown) => err instanceof InvalidArgumentsError && /Path parameter 'id' of \/pets\/\{id\} is empty/.test(err.message),
        );
      }),
    );
  });

  test('. and .. are refused: they would move the path', () => {
    for (const v of ['.', '..', ['.'], ['..']]) assert.throws(() => serializeParams('/a/{id}', [{ param: param({ name: 'id', in: 'path', required: true }), value: v }]), InvokeError);
  });

  test('a missing path value is named', () => {
    assert.throws(() => serializeParams('/a/{id}/{other}', []), /Path \/a\/\{id\}\/\{other\} needs 'id', 'other' in params/);
  });
});

describe('headers and cookies', () => {
  test('a line break anywhere in a header or cookie value is refused', () => {
    fc.assert(
      fc.property(value, value, fc.constantFrom('\r', '\n', '\0'), fc.constantFrom('header', 'cookie') as fc.Arbitrary<'header' | 'cookie'>, (a, b, br, where) => {
        assert.throws(() => serializeParams('', [{ param: param({ name: 'X', in: where }), value: `${a}${br}${b}` }]), /line break/);
        assert.throws(() => serializeParams('', [{ param: param({ name: 'X', in: where }), value: { k: `${a}${br}` } }]), /line break/);
      }),
      { numRuns: 40 },
    );
  });

  test('a cookie value of any characters decodes back and cannot start another cookie', () => {
    fc.assert(
      fc.property(anyValue, (v) => {
        const { cookies } = serializeParams('', [{ param: param({ name: 'sid', in: 'cookie' }), value: v }]);
        const raw = cookies[0]!.slice('sid='.length);
        assert.ok(!/[;,\s"\\]/.test(raw), raw);
        assert.equal(decodeURIComponent(raw), v);
      }),
    );
  });

  test('encodeStrict leaves only unreserved characters', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (s) => assert.match(encodeStrict(s), /^(?:[A-Za-z0-9\-._~]|%[0-9A-F]{2})*$/)));
  });
});

describe('base URL', () => {
  const settings = (baseUrl?: string, serverVariables: Record<string, string> = {}): SpecSettings => ({
    spec: { ...specDefaults(''), name: 'p', collection: 'default', serverVariables, ...(baseUrl !== undefined ? { baseUrl } : {}) },
    key: 'specs[0]',
    where: '',
    unlisted: false,
  });
  const specWith = (url: string, variables?: Record<string, { default: string; enum?: string[] }>): ImportedSpec =>
    ({ name: 'p', servers: [{ url, ...(variables ? { variables } : {}) }] }) as unknown as ImportedSpec;
  const endpoint = { servers: [] } as unknown as Endpoint;

  test('a server URL that is not http or https is refused', () => {
    fc.assert(
      fc.property(fc.constantFrom('ftp', 'file', 'ws', 'wss', 'javascript', 'data', 'gopher', 'mailto'), fc.webSegment(), (scheme, seg) => {
        assert.throws(() => resolveBaseUrl(endpoint, specWith(`${scheme}://host/${seg}`), settings()), (err: unknown) => err instanceof InvokeError && err.code === 'invoke-base-url');
      }),
    );
  });

  test('a relative server URL, none at all, or a variable with no value is refused with what to set', () => {
    assert.throws(() => resolveBaseUrl(endpoint, specWith('/v1'), settings()), /is relative.*\n?/);
    assert.throws(() => resolveBaseUrl(endpoint, { name: 'p', servers: [] } as unknown as ImportedSpec, settings()), /names no server URL/);
    assert.throws(() => resolveBaseUrl(endpoint, specWith('https://{region}.x.example'), settings()), /uses variable 'region' without a default/);
  });

  test('an absolute http(s) URL resolves to its href without trailing slash, query or fragment', () => {
    fc.assert(
      fc.property(fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true }), (url) => {
        const base = resolveBaseUrl(endpoint, specWith(url), settings());
        const u = new URL(url);
        assert.equal(base.origin, u.origin);
        assert.ok(!base.href.endsWith('/'));
        assert.ok(!base.href.includes('?') && !base.href.includes('#'));
        assert.ok(withinBase(new URL(`${base.href}/child`), base));
      }),
    );
  });

  test("a spec default outside the variable's enum is refused; svc.yaml's value wins", () => {
    const spec = specWith('https://{region}.x.example', { region: { default: 'evil', enum: ['eu', 'us'] } });
    assert.throws(() => resolveBaseUrl(endpoint, spec, settings()), /the default of 'region' is not one of its enum values/);
    assert.equal(resolveBaseUrl(endpoint, spec, settings(undefined, { region: 'eu' })).href, 'https://eu.x.example');
  });

  test("svc.yaml's templated baseUrl takes no value from the spec, and encodes its own", () => {
    const spec = specWith('https://{t}.x.example', { t: { default: 'a.b' } });
    assert.throws(
      () => resolveBaseUrl(endpoint, spec, settings('https://{t}.y.example')),
      (err: unknown) => err instanceof InvokeError && /svc\.yaml's baseUrl takes its variables from svc\.yaml only/.test(err.hint ?? ''),
    );
    assert.equal(resolveBaseUrl(endpoint, spec, settings('https://y.example/{t}', { t: 'a/b?c' })).href, 'https://y.example/a%2Fb%3Fc');
  });

  test('withinBase matches by path segment and origin', () => {
    const base = { href: 'https://a.example/api', origin: 'https://a.example' };
    assert.ok(withinBase(new URL('https://a.example/api'), base));
    assert.ok(withinBase(new URL('https://a.example/api/x'), base));
    assert.ok(!withinBase(new URL('https://a.example/apiary'), base));
    assert.ok(!withinBase(new URL('https://a.example/'), base));
    assert.ok(!withinBase(new URL('http://a.example/api/x'), base));
    assert.ok(withinBase(new URL('https://a.example/anything'), { href: 'https://a.example', origin: 'https://a.example' }));
    assert.ok(withinBase(new URL('https://a.example/'), { href: 'https://a.example', origin: 'https://a.example' }));
  });

  test('credentialBase says whether svc.yaml or the spec chose where credentials go', async () => {
    const h = await harness('petstore.yaml', 'pets', `serverVariables:\n  port: "4321"`);
    const fromSpec = credentialBase(h.spec, h.config.specs[0]!);
    assert.deepEqual(fromSpec, { href: `http://127.0.0.1:4321/api`, origin: `http://127.0.0.1:4321`, source: 'spec' });
    const set = await harness('petstore.yaml', 'pets', `baseUrl: https://api.example.com/v2/`);
    assert.deepEqual(credentialBase(set.spec, set.config.specs[0]!), { href: 'https://api.example.com/v2', origin: 'https://api.example.com', source: 'svc.yaml' });
  });

  test('each refusal says what is wrong and which key to set', () => {
    const refusal = (fn: () => unknown): { message: string; hint: string | undefined; code: string } => {
      try {
        fn();
      } catch (err) {
        assert.ok(err instanceof InvokeError);
        return { message: err.message, hint: err.hint, code: err.code };
      }
      assert.fail('no refusal');
    };
    assert.deepEqual(refusal(() => resolveBaseUrl(endpoint, specWith('  '), settings())), {
      message: "Spec 'p' names no server URL, so svc does not know where to send requests.",
      hint: 'set specs[0].baseUrl in svc.yaml to the API\'s absolute URL, e.g. https://api.example.com/v1',
      code: 'invoke-base-url',
    });
    assert.deepEqual(refusal(() => resolveBaseUrl(endpoint, specWith('https://{a}.{b}.example'), settings())), {
      message: "Server URL 'https://{a}.{b}.example' of spec 'p' uses variables 'a', 'b' without a default.",
      hint: 'set specs[0].serverVariables.a, specs[0].serverVariables.b (or specs[0].baseUrl) in svc.yaml',
      code: 'invoke-base-url',
    });
    assert.deepEqual(refusal(() => resolveBaseUrl(endpoint, specWith('https://x.example', {}), settings('https://{a}.{b}.example'))), {
      message: "Server URL 'https://{a}.{b}.example' of spec 'p' uses variables 'a', 'b' without a default.",
      hint: "set specs[0].serverVariables.a, specs[0].serverVariables.b in svc.yaml (svc.yaml's baseUrl takes its variables from svc.yaml only)",
      code: 'invoke-base-url',
    });
    assert.deepEqual(refusal(() => resolveBaseUrl(endpoint, specWith('https://{r}.{s}.example', { r: { default: 'x', enum: ['y'] }, s: { default: 'z', enum: ['w'] } }), settings())), {
      message: "Server URL 'https://{r}.{s}.example' of spec 'p': the default of 'r', 's' is not one of its enum values.",
      hint: 'set specs[0].serverVariables.r, specs[0].serverVariables.s in svc.yaml',
      code: 'invoke-base-url',
    });
    assert.deepEqual(refusal(() => resolveBaseUrl(endpoint, specWith('/v1'), settings())).message, "Server URL '/v1' of spec 'p' is relative (the spec does not say which host serves it).");
    assert.deepEqual(refusal(() => resolveBaseUrl(endpoint, specWith('x'), settings('/v2'))).message, "Server URL '/v2' of spec 'p' is relative.");
    assert.deepEqual(refusal(() => resolveBaseUrl(endpoint, specWith('ftp://h/x'), settings())), {
      message: "Server URL 'ftp://h/x' of spec 'p' is not http or https.",
      hint: 'set specs[0].baseUrl in svc.yaml to the API\'s absolute URL, e.g. https://api.example.com/v1',
      code: 'invoke-base-url',
    });
    assert.match(refusal(() => resolveBaseUrl(endpoint, specWith('http://[bad/x'), settings())).message, /^Server URL 'http:\/\/\[bad\/x' of spec 'p' is not a valid URL\.$/);
  });

  test('Postman {{ var }} placeholders, spaces inside included; svc.yaml values skip the enum check; an empty enum allows anything', () => {
    assert.equal(resolveBaseUrl(endpoint, specWith('https://{{ host }}/{{v}}', { host: { default: 'h.example' }, v: { default: 'v1' } }), settings()).href, 'https://h.example/v1');
    assert.equal(resolveBaseUrl(endpoint, specWith('https://{r}.x.example', { r: { default: 'a', enum: ['b'] } }), settings(undefined, { r: 'c' })).href, 'https://c.x.example');
    assert.equal(resolveBaseUrl(endpoint, specWith('https://{r}.x.example', { r: { default: 'a', enum: [] } }), settings()).href, 'https://a.x.example');
    assert.equal(resolveBaseUrl(endpoint, specWith('https://{r}.x.example', { r: { default: 'a', enum: ['a'] } }), settings()).href, 'https://a.x.example');
    assert.throws(() => resolveBaseUrl(endpoint, specWith('https://{r}.x.example', { r: { default: '' } }), settings()), /uses variable 'r' without a default/);
    assert.equal(resolveBaseUrl({ servers: [{ url: 'https://op.example/o' }] } as unknown as Endpoint, specWith('https://doc.example'), settings()).href, 'https://op.example/o');
  });

  test('credentialBase refuses a spec with no usable server', () => {
    assert.throws(() => credentialBase(specWith('ftp://x'), { ...specDefaults(''), name: 'p', collection: 'default' }), /is not http or https/);
  });
});
