// WordNet's rules of detachment ("morphy", as src/vocabulary/wordnet.ts baseForms applies them):
// every rule of each part of speech, in WordNet's order, on a word it fits and on one just too short
// for it (a rule needs at least two letters left before the suffix it takes off).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { baseForms } from '../../src/vocabulary/index.ts';

test('a noun loses -s, -ses, -xes, -zes, -ches, -shes, -ies for -y, and -men becomes -man', () => {
  const expected: Record<string, string[]> = {
    cats: ['cats', 'cat'],
    buses: ['buses', 'buse', 'bus'],
    boxes: ['boxes', 'boxe', 'box'],
    quizzes: ['quizzes', 'quizze', 'quizz'],
    churches: ['churches', 'churche', 'church'],
    dishes: ['dishes', 'dishe', 'dish'],
    women: ['women', 'woman'],
    policies: ['policies', 'policie', 'policy'],
    // Too short for the rule that fits their ending.
    as: ['as'],
    bas: ['bas', 'ba'],
    ses: ['ses', 'se'],
    amen: ['amen'],
    xies: ['xies', 'xie'],
    abies: ['abies', 'abie', 'aby'],
    photo: ['photo'],
  };
  for (const [word, forms] of Object.entries(expected)) assert.deepEqual(baseForms(word, 'noun'), forms, word);
});

test('a verb loses -s, -ies for -y, -es for -e or nothing, -ed for -e or nothing, -ing for -e or nothing', () => {
  const expected: Record<string, string[]> = {
    runs: ['runs', 'run'],
    tries: ['tries', 'trie', 'try', 'tri'],
    goes: ['goes', 'goe', 'go'],
    hopes: ['hopes', 'hope', 'hop'],
    created: ['created', 'create', 'creat'],
    jumped: ['jumped', 'jumpe', 'jump'],
    making: ['making', 'make', 'mak'],
    sending: ['sending', 'sende', 'send'],
    bring: ['bring', 'bre', 'br'],
    // Too short for the rule that fits their ending.
    es: ['es'],
    res: ['res', 're'],
    red: ['red'],
    ring: ['ring'],
    send: ['send'],
  };
  for (const [word, forms] of Object.entries(expected)) assert.deepEqual(baseForms(word, 'verb'), forms, word);
});

test('the word itself comes first, and no form is given twice', () => {
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom('a', 'e', 'i', 's', 'x', 'z', 'c', 'h', 'm', 'n', 'd', 'g', 'y'), maxLength: 9 }), fc.constantFrom('noun' as const, 'verb' as const), (word, pos) => {
      const forms = baseForms(word, pos);
      assert.equal(forms[0], word);
      assert.equal(new Set(forms).size, forms.length);
      for (const form of forms.slice(1)) assert.ok(form.length >= 2 && form.length < word.length + 1, `${word} -> ${form}`);
    }),
  );
});
