// A server URL svc cannot send to is refused whole: the code, the message naming the URL and the
// spec, and the key to set. Relative URLs are told apart from invalid ones whatever they hold
// (a relative URL may carry `://` in its path or query).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { specDefaults } from '../../src/config/index.ts';
import { credentialBase, resolveBaseUrl } from '../../src/invoke/base-url.ts';
import { InvokeError } from '../../src/invoke/errors.ts';
import type { SpecSettings } from '../../src/invoke/settings.ts';
import type { Endpoint, ImportedSpec } from '../../src/model/index.ts';

const endpoint = { servers: [] } as unknown as Endpoint;
const settings = (baseUrl?: string): SpecSettings => ({
  spec: { ...specDefaults(''), name: 'p', collection: 'default', ...(baseUrl !== undefined ? { baseUrl } : {}) },
  key: 'specs[0]',
  where: ' (svc.yaml line 3)',
  unlisted: false,
});
const specWith = (url: string): ImportedSpec => ({ name: 'p', servers: [{ url }] }) as unknown as ImportedSpec;
const HINT = "set specs[0].baseUrl in svc.yaml (svc.yaml line 3) to the API's absolute URL, e.g. https://api.example.com/v1";

function refusal(fn: () => unknown): { code: string; message: string; hint: string | undefined } {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof InvokeError, String(err));
    return { code: err.code, message: err.message, hint: err.hint };
  }
  assert.fail('no refusal');
}

test('a relative server URL is refused as relative, even with `://` later in it', () => {
  const rest = fc.stringMatching(/^[a-z0-9/?=&._-]{0,20}$/);
  fc.assert(
    fc.property(fc.constantFrom('/', '', './', 'v1/', '/proxy?to='), rest, fc.constantFrom('http', 'https', 'x'), rest, (start, middle, scheme, end) => {
      const url = `${start}${middle}${scheme}://${end}`;
      fc.pre(!/^[a-z][a-z0-9+.-]*:\/\//i.test(url));
      assert.deepEqual(refusal(() => resolveBaseUrl(endpoint, specWith(url), settings())), {
        code: 'invoke-base-url',
        message: `Server URL '${url}' of spec 'p' is relative (the spec does not say which host serves it).`,
        hint: HINT,
      });
      assert.deepEqual(refusal(() => resolveBaseUrl(endpoint, specWith('https://x.example'), settings(url))), {
        code: 'invoke-base-url',
        message: `Server URL '${url}' of spec 'p' is relative.`,
        hint: HINT,
      });
    }),
  );
});

test('an absolute URL that does not parse is refused as invalid, with its cause', () => {
  for (const url of ['http://[bad/x', 'https://exa mple.com', 'http://a:99999/']) {
    let caught: unknown;
    try {
      resolveBaseUrl(endpoint, specWith(url), settings());
    } catch (err) {
      caught = err;
    }
    assert.ok(caught instanceof InvokeError);
    assert.deepEqual({ code: caught.code, message: caught.message, hint: caught.hint }, { code: 'invoke-base-url', message: `Server URL '${url}' of spec 'p' is not a valid URL.`, hint: HINT });
    assert.ok(caught.cause instanceof TypeError, url);
  }
});

test("credentialBase's refusal names the spec's entry by name when no key is given", () => {
  const config = { ...specDefaults(''), name: 'pets', collection: 'default' };
  assert.deepEqual(refusal(() => credentialBase(specWith('/v1'), config)), {
    code: 'invoke-base-url',
    message: "Server URL '/v1' of spec 'p' is relative (the spec does not say which host serves it).",
    hint: "set specs[] (pets).baseUrl in svc.yaml to the API's absolute URL, e.g. https://api.example.com/v1",
  });
  assert.equal(refusal(() => credentialBase(specWith('/v1'), config, 'specs[4]')).hint, "set specs[4].baseUrl in svc.yaml to the API's absolute URL, e.g. https://api.example.com/v1");
});
