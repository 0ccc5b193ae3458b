// A `${VAR}` whose value is set but shorter than MIN_SECRET_LENGTH is refused when svc.yaml is
// read (svc could not redact it from its output); unset, empty and long-enough values pass.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { parseConfig } from '../../src/config/index.ts';
import { MIN_SECRET_LENGTH } from '../../src/config/types.ts';
import { petsProject, problemsOf } from './helpers.ts';

const pets = petsProject();
const VAR = 'SVC_TEST_SHORT_SECRET_VALUE';
after(() => {
  delete process.env[VAR];
});

async function problemsWith(value: string | undefined): Promise<{ key: string; line?: number; message: string }[]> {
  if (value === undefined) delete process.env[VAR];
  else process.env[VAR] = value;
  try {
    const c = await parseConfig(`specs:\n  - path: specs/pets.yaml\n    auth: { type: bearer, token: "\${${VAR}}" }\n`, pets.config());
    assert.deepEqual(c.specs[0]!.auth, [{ type: 'bearer', token: { env: VAR } }]);
    return [];
  } catch (error) {
    return problemsOf(error).map((p) => ({ ...p }));
  }
}

describe('secret values too short to redact', () => {
  it('a value of 1 to MIN_SECRET_LENGTH - 1 characters is refused, naming the variable and never the value', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: MIN_SECRET_LENGTH - 1, unit: 'grapheme-ascii' }), async (value) => {
        const problems = await problemsWith(value);
        assert.equal(problems.length, 1);
        assert.equal(problems[0]!.key, 'specs[0].auth.token');
        assert.equal(problems[0]!.line, 3);
        assert.equal(
          problems[0]!.message,
          `the value of \${${VAR}} is shorter than ${MIN_SECRET_LENGTH} characters; svc refuses secrets that short because it cannot keep them out of its output (use the real credential, or unset the variable)`,
        );
      }),
      { numRuns: 20 },
    );
  });

  it('unset, empty, and values of MIN_SECRET_LENGTH characters or more pass (an unset one is reported when needed)', async () => {
    assert.deepEqual(await problemsWith(undefined), []);
    assert.deepEqual(await problemsWith(''), []);
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: MIN_SECRET_LENGTH, maxLength: 40, unit: 'grapheme-ascii' }), async (value) => {
        assert.deepEqual(await problemsWith(value), []);
      }),
      { numRuns: 20 },
    );
  });
});
