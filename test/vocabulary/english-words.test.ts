// English words, from WordNet's sorted lemma lists read on disk: generated lists answer as a Set of
// their lemmas would, lines long or short; the installed lists know words and their inflections.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { EnglishWords } from '../../src/vocabulary/index.ts';

const FILES = ['index.noun', 'index.verb', 'index.adj', 'index.adv'];
const LICENSE = ['  1 This software and database is being provided to you, the LICENSEE, by', '  2 Princeton University under the following license.'];
const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Four index files of these lemmas (sorted, after license lines), each line padded to some length as WordNet's are. */
function lists(lemmas: readonly string[], pad: (lemma: string) => number): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-english-'));
  dirs.push(dir);
  const sorted = [...new Set(lemmas)].sort();
  FILES.forEach((file, k) => {
    const mine = sorted.filter((_, i) => i % FILES.length === k);
    const lines = mine.map((l) => `${l} n 1 1 @ 1 0 ${'0'.repeat(pad(l))}  `);
    writeFileSync(path.join(dir, file), [...LICENSE, ...lines].join('\n') + '\n');
  });
  return dir;
}

describe('English words', () => {
  it('answers as a set of the lists\' lemmas would, for lemmas, their neighbours and strangers', () => {
    const lemma = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'x', '_', '-'), minLength: 1, maxLength: 7 });
    fc.assert(
      fc.property(fc.uniqueArray(lemma, { minLength: 1, maxLength: 60 }), fc.array(lemma, { maxLength: 20 }), fc.integer({ min: 0, max: 700 }), (lemmas, others, long) => {
        // Some lines far longer than a read (WordNet's longest index lines run to a few hundred bytes).
        const words = EnglishWords.open(lists(lemmas, (l) => (l.length % 3 === 0 ? long : 8)))!;
        try {
          // (No inflection rule turns a word of these letters into another: only `s`, `es`, `ed`, `ing`, `er`, `est` endings do.)
          const set = new Set(lemmas);
          for (const w of [...lemmas, ...others]) if (!/(s|ed|ing|er|est)$/.test(w)) assert.equal(words.has(w), set.has(w), w);
        } finally {
          words.close();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('knows a word by its base form (plural, past, -ing, comparative)', () => {
    const words = EnglishWords.open(lists(['box', 'create', 'send', 'policy', 'large', 'tall', 'woman', 'b'], () => 4))!;
    try {
      for (const w of ['boxes', 'created', 'sending', 'policies', 'larger', 'largest', 'taller', 'tallest', 'sends', 'women']) assert.ok(words.has(w), w);
      // (`ber` is no comparative of `b`: a base form keeps two letters at least.)
      for (const w of ['boxen', 'creatd', 'sendin', 'polic', 'ber', 'er', 'est', '']) assert.ok(!words.has(w), w);
    } finally {
      words.close();
    }
  });

  it('reads nothing once closed', () => {
    const words = EnglishWords.open(lists(['box'], () => 4))!;
    assert.ok(words.has('box'));
    words.close();
    // A word remembered is still answered; one to look up finds its files closed.
    assert.ok(words.has('box'));
    assert.throws(() => words.has('boxes'), /EBADF|bad file descriptor/i);
  });

  it('is none where the lists cannot be read, and leaves no file open', () => {
    assert.equal(EnglishWords.open(path.join(tmpdir(), 'svc-no-such-wordnet')), undefined);
    // Two of the four lists there: the two opened are closed again.
    const dir = lists(['box'], () => 4);
    rmSync(path.join(dir, 'index.adj'));
    // (Open files counted where the system lists them; elsewhere only the answer is checked.)
    const open = () => (existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd').length : 0);
    const before = open();
    assert.equal(EnglishWords.open(dir), undefined);
    assert.equal(open(), before);
  });

  it('tells words from typos with the installed lists', () => {
    const words = EnglishWords.open()!;
    try {
      for (const w of ['forum', 'sanctions', 'fiction', 'hearted', 'dangling', 'payment', 'customers']) assert.ok(words.has(w), w);
      for (const w of ['subscriptoin', 'paymnet', 'custommer', 'invoise', 'webhok', '', 'a b']) assert.ok(!words.has(w), w);
    } finally {
      words.close();
    }
  });
});
