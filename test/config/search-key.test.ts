// svc.yaml's `search` section: which English vocabulary search may load.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseConfig } from '../../src/config/index.ts';
import type { Config } from '../../src/config/types.ts';
import type { ConfigProblem } from '../../src/model/errors.ts';
import { petsProject, problemsOf } from './helpers.ts';

const pets = petsProject();

const config = (text: string): Promise<Config> => parseConfig(text, pets.config());
async function onlyProblem(text: string): Promise<ConfigProblem> {
  try {
    await config(text);
  } catch (error) {
    const problems = problemsOf(error);
    assert.equal(problems.length, 1, JSON.stringify(problems));
    return problems[0]!;
  }
  assert.fail(`expected a problem for:\n${text}`);
}

describe('search.vocabulary', () => {
  it('is absent unless svc.yaml has a search section, and none when the section is empty', async () => {
    assert.equal((await config('specs: [specs/pets.yaml]\n')).search, undefined);
    assert.deepEqual((await config('search:\n  vocabulary: none\nspecs: [specs/pets.yaml]\n')).search, { vocabulary: 'none' });
    assert.deepEqual((await config('search: {}\nspecs: [specs/pets.yaml]\n')).search, { vocabulary: 'none' });
    assert.equal((await config('search:\nspecs: [specs/pets.yaml]\n')).search, undefined);
  });

  it('takes wordnet', async () => {
    assert.deepEqual((await config('search:\n  vocabulary: wordnet\nspecs: [specs/pets.yaml]\n')).search, { vocabulary: 'wordnet' });
  });

  it('refuses another value, naming the key, the line and the choices', async () => {
    const p = await onlyProblem('search:\n  vocabulary: glove\nspecs: [specs/pets.yaml]\n');
    assert.equal(p.key, 'search.vocabulary');
    assert.equal(p.line, 2);
    assert.equal(p.message, 'must be one of none, wordnet, not `glove`');
  });

  it('refuses a search section that is not a mapping, and unknown keys in it', async () => {
    assert.equal((await onlyProblem('search: wordnet\nspecs: [specs/pets.yaml]\n')).key, 'search');
    const p = await onlyProblem('search:\n  vocabulary: wordnet\n  synonyms: true\nspecs: [specs/pets.yaml]\n');
    assert.equal(p.key, 'search.synonyms');
    assert.match(p.message, /unknown key/);
  });
});
