// Server URL placeholders from their contract: `{name}` (OpenAPI) and `{{name}}` (Postman), spaces
// inside either allowed, take the value of the variable with exactly that name, whatever the name, in
// every position of the URL; svc.yaml's value wins over the spec's default.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { specDefaults } from '../../src/config/index.ts';
import { resolveBaseUrl } from '../../src/invoke/base-url.ts';
import type { SpecSettings } from '../../src/invoke/settings.ts';
import type { Endpoint, ImportedSpec } from '../../src/model/index.ts';

const endpoint = { servers: [] } as unknown as Endpoint;
const settings = (serverVariables: Record<string, string>): SpecSettings => ({
  spec: { ...specDefaults(''), name: 'p', collection: 'default', serverVariables },
  key: 'specs[0]',
  where: '',
  unlisted: false,
});

/** Variable names as specs write them: letters, digits, `_`, `-`, `.`; at least one character. */
const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_.-]{0,15}$/);
/** Host labels a variable may stand for. */
const label = fc.stringMatching(/^[a-z][a-z0-9]{0,10}$/);
const forms = fc.constantFrom((n: string) => `{${n}}`, (n: string) => `{ ${n} }`, (n: string) => `{{${n}}}`, (n: string) => `{{ ${n} }}`, (n: string) => `{{${n}  }}`, (n: string) => `{{\t${n}}}`);

test('each placeholder takes the value of the variable of exactly its name, from the spec or from svc.yaml', () => {
  fc.assert(
    fc.property(fc.uniqueArray(name, { minLength: 2, maxLength: 2 }), label, label, forms, forms, fc.boolean(), ([a, b], va, vb, fa, fb, fromConfig) => {
      const url = `https://${fa(a!)}.example/${fb(b!)}/v1`;
      const spec = { name: 'p', servers: [{ url, variables: { [a!]: { default: fromConfig ? 'unused' : va }, [b!]: { default: vb } } }] } as unknown as ImportedSpec;
      const base = resolveBaseUrl(endpoint, spec, settings(fromConfig ? { [a!]: va } : {}));
      assert.equal(base.href, `https://${va}.example/${vb}/v1`);
    }),
  );
});
