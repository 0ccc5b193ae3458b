// svc.yaml's `parameters:` of a spec: values for credentials a spec declares as ordinary parameters
// (`token`, `query.token`, `header.X-Key`, `cookie.sid`), always `${ENV}` references. From its
// contract: every well-formed key is kept as written, a path parameter or a key that names no
// parameter is refused with its exact words, a literal is refused without being shown.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseConfig } from '../../src/config/index.ts';
import type { SpecConfig } from '../../src/config/types.ts';
import type { ConfigProblem } from '../../src/model/errors.ts';
import { petsProject, problemsOf } from './helpers.ts';

const pets = petsProject();

const specWith = (extra: string): string => `specs:\n  - path: specs/pets.yaml\n${extra}`;

async function spec(extra: string): Promise<SpecConfig> {
  return (await parseConfig(specWith(extra), pets.config())).specs[0]!;
}

async function problems(extra: string): Promise<readonly ConfigProblem[]> {
  try {
    await parseConfig(specWith(extra), pets.config());
  } catch (error) {
    return problemsOf(error);
  }
  assert.fail(`expected problems for:\n${extra}`);
}

/** One `parameters:` entry as a YAML flow mapping, the key quoted so any text stays one key. */
const entry = (key: string, value: string): string => `    parameters: { ${JSON.stringify(key)}: ${JSON.stringify(value)} }\n`;

const LOCATIONS = ['header', 'query', 'cookie'] as const;
/** Parameter names: printable, no whitespace (the loader refuses those), not empty. */
const NAME = fc.stringMatching(/^[A-Za-z0-9_.\-~!$&'()*+,;=:@[\]{}|^`%?/#]{1,20}$/);
const ENV = fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,15}$/);

describe('spec parameters in svc.yaml', () => {
  it('keeps each parameter, bare or with its location, as a reference under the key as written', async () => {
    const s = await spec('    parameters:\n      token: "${SLACK_TOKEN}"\n      query.key: "${KEY}"\n      header.X-Key: "${HKEY}"\n      cookie.sid: "${SID}"\n');
    assert.deepEqual(s.parameters, {
      token: { env: 'SLACK_TOKEN' },
      'query.key': { env: 'KEY' },
      'header.X-Key': { env: 'HKEY' },
      'cookie.sid': { env: 'SID' },
    });
  });

  it('no parameters, or an empty `parameters:`, gives an empty map', async () => {
    assert.deepEqual((await spec('')).parameters, {});
    assert.deepEqual((await spec('    parameters:\n')).parameters, {});
    assert.deepEqual((await spec('    parameters: {}\n')).parameters, {});
  });

  it('any well-formed name, with or without a location, is taken as written', async () => {
    await fc.assert(
      fc.asyncProperty(fc.option(fc.constantFrom(...LOCATIONS), { nil: undefined }), NAME, ENV, async (where, name, env) => {
        const key = where === undefined ? name : `${where}.${name}`;
        const s = await spec(entry(key, `\${${env}}`));
        assert.deepEqual(s.parameters, { [key]: { env } });
      }),
      { numRuns: 60 },
    );
  });

  it('a path parameter is refused: svc.yaml gives values only for header, query and cookie', async () => {
    await fc.assert(
      fc.asyncProperty(NAME, async (name) => {
        const list = await problems(entry(`path.${name}`, '${X}'));
        assert.deepEqual(
          list.map((p) => p.message),
          [`\`path.${name}\` is a path parameter; svc.yaml gives values only for header, query and cookie parameters`],
        );
      }),
      { numRuns: 30 },
    );
  });

  it('a key with an empty name or whitespace in its name is refused, with the forms it may take', async () => {
    const bad = fc.oneof(
      fc.constantFrom(...LOCATIONS).map((w) => `${w}.`),
      fc.tuple(fc.option(fc.constantFrom(...LOCATIONS), { nil: undefined }), NAME, fc.constantFrom(' ', '\t', '\0', '\u00a0'), NAME).map(
        ([w, a, space, b]) => `${w === undefined ? '' : `${w}.`}${a}${space}${b}`,
      ),
    );
    await fc.assert(
      fc.asyncProperty(bad, async (key) => {
        const list = await problems(entry(key, '${X}'));
        assert.deepEqual(
          list.map((p) => p.message),
          [`\`${key}\` is not a parameter name; write \`name\` or \`query.name\`, \`header.name\`, \`cookie.name\``],
        );
      }),
      { numRuns: 40 },
    );
  });

  it('a dot that starts no known location is part of the name', async () => {
    const s = await spec(entry('.token', '${A}').replace('}\n', '') + `, "api.key": "\${B}", "body.x": "\${C}" }\n`);
    assert.deepEqual(s.parameters, { '.token': { env: 'A' }, 'api.key': { env: 'B' }, 'body.x': { env: 'C' } });
  });

  it('every problem is reported, not only the first, and the good entries are not enough to pass', async () => {
    const list = await problems('    parameters:\n      path.id: "${A}"\n      "query.": "${B}"\n      ok: "${C}"\n');
    assert.deepEqual(list.map((p) => [p.line, p.message.slice(0, 20)]), [
      [4, '`path.id` is a path '],
      [5, '`query.` is not a pa'],
    ]);
  });

  it('a value written in the file is refused and not shown', async () => {
    const list = await problems(entry('token', 'xoxb-literal-secret'));
    assert.equal(list.length, 1);
    assert.match(list[0]!.message, /^secrets are never written in svc\.yaml/);
    assert.equal(list[0]!.message.includes('xoxb-literal-secret'), false);
  });
});
