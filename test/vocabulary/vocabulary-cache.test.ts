// The vocabulary's memory (src/vocabulary/index.ts): the English word lists are opened once per
// process; a WordNet vocabulary remembers each word's related words, the same answer object each
// time, and forgets them all once it holds 10,000 words, so a long-running daemon asked about ever
// new words keeps a bounded cache.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { englishWords, VOCABULARY_KINDS, WordNet, wordnetVocabulary } from '../../src/vocabulary/index.ts';

let wordnet: WordNet;
before(async () => {
  wordnet = await WordNet.load();
});

test('the English word lists open once, and know words', () => {
  const words = englishWords();
  assert.ok(words);
  assert.equal(englishWords(), words);
  assert.equal(words.has('photograph'), true);
  assert.equal(words.has('zzqxv'), false);
});

test('svc.yaml names the vocabularies none and wordnet', () => {
  assert.deepEqual(VOCABULARY_KINDS, ['none', 'wordnet']);
});

test('a word is looked up once until 10,000 words are held, then every word is looked up again', () => {
  const vocabulary = wordnetVocabulary(wordnet);
  const bill = vocabulary.related('bill');
  assert.ok(bill.includes('invoice'));
  assert.equal(vocabulary.related('bill'), bill);
  // 9,999 more words: 10,000 held, 'bill' among them.
  for (let i = 1; i < 10_000; i++) vocabulary.related(`zq${i}`);
  assert.equal(vocabulary.related('bill'), bill, 'forgotten before the cache was full');
  // One more: the cache starts again.
  vocabulary.related('zq-last');
  const again = vocabulary.related('bill');
  assert.notEqual(again, bill, 'remembered past 10,000 words');
  assert.deepEqual(again, bill);
  assert.equal(vocabulary.related('bill'), again);
});
