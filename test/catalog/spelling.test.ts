// Spelling: a word no endpoint says, no English word and no API's name, within a typo's reach of a
// term of the catalogue, is read as that term; the search says what it read. Generated typos of
// generated catalogues find what the word as written finds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import { editDistance } from '../../src/catalog/similar.ts';
import { SPELLINGS } from '../../src/catalog/spelling.ts';
import { fuzzyDistance } from '../../src/catalog/term-plan.ts';
import { termsOf } from '../../src/catalog/text.ts';
import { spec } from './fixtures.ts';

/** Nonsense words (no English, no two within a few edits of each other), long enough to be misspelt. */
const WORDS = ['quorbex', 'zandiflop', 'mirtovane', 'plukastor', 'vendrogil', 'stobrinax', 'yelmacore', 'frindolep'];
const NO_ENGLISH = { has: () => false };

type Edit = 'drop' | 'swap' | 'change' | 'double';
/** `word` with one typo past its first letter (a typo seldom touches the first). */
function typo(word: string, kind: Edit, at: number): string {
  const i = 1 + (at % (word.length - 2));
  if (kind === 'drop') return word.slice(0, i) + word.slice(i + 1);
  if (kind === 'swap') return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
  if (kind === 'double') return word.slice(0, i) + word[i] + word.slice(i);
  return word.slice(0, i) + (word[i] === 'q' ? 'j' : 'q') + word.slice(i + 1);
}
const typoArb = fc.record({
  word: fc.constantFrom(...WORDS),
  kind: fc.constantFrom<Edit>('drop', 'swap', 'change', 'double'),
  at: fc.nat(),
});
const catalogueArb = fc.uniqueArray(fc.constantFrom(...WORDS), { minLength: 2, maxLength: WORDS.length });

function catalogue(words: readonly string[], options: ConstructorParameters<typeof Catalog>[1] = { english: NO_ENGLISH }): Catalog {
  const endpoints = words.map((w) => ({ method: 'GET' as const, path: `/${w}s`, summary: `List ${w}s` }));
  return new Catalog([spec('api', endpoints), spec('other', [{ method: 'GET', path: '/things', summary: 'List things' }])], options);
}

describe('spelling', () => {
  it('reads a typo of a word the catalogue holds as that word, and finds what the word finds', () => {
    fc.assert(
      fc.property(catalogueArb, typoArb, (words, { word, kind, at }) => {
        fc.pre(words.includes(word));
        const misspelt = typo(word, kind, at);
        fc.pre(misspelt !== word);
        const catalog = catalogue(words);
        const page = catalog.searchPage(`${misspelt} list`, {}, 0, 5);
        assert.equal(termsOf(page.readAs!.split(' ')[0]!)[0], termsOf(word)[0], `${misspelt} -> ${page.readAs}`);
        assert.deepEqual(page.hits.map((h) => h.endpoint.id), catalog.search(`${word} list`, {}, 5).map((h) => h.endpoint.id));
      }),
      { numRuns: 200 },
    );
  });

  it('leaves a query alone when every word is known, English, too short, or out of a typo\'s reach', () => {
    fc.assert(
      fc.property(catalogueArb, fc.array(fc.constantFrom(...WORDS, 'list', 'things', 'xq', 'zzzzzzzzz'), { minLength: 1, maxLength: 4 }), (words, query) => {
        const catalog = catalogue(words);
        const q = query.join(' ');
        // A word of the catalogue is known; one not held is out of reach of every other (the words are
        // several edits apart); `xq` is too short to be a typo; `zzzzzzzzz` is near nothing.
        assert.equal(catalog.searchPage(q, {}, 0, 5).readAs, undefined, q);
      }),
      { numRuns: 200 },
    );
  });

  it('never reads a word as a term further than a typo\'s reach, nor one starting with another letter', () => {
    fc.assert(
      fc.property(catalogueArb, fc.string({ unit: fc.constantFrom('q', 'u', 'o', 'r', 'b', 'e', 'x', 'z', 'a'), minLength: 1, maxLength: 12 }), (words, word) => {
        const catalog = catalogue(words);
        const readAs = catalog.searchPage(word, {}, 0, 5).readAs;
        if (readAs === undefined) return;
        const from = termsOf(word)[0]!;
        // Four letters: only two of them swapped.
        const reach = from.length === 4 ? 1 : fuzzyDistance(from);
        assert.ok(reach > 0, `${word} is too short to be read as another word`);
        assert.equal(readAs[0], from[0], `${word} -> ${readAs}`);
        assert.ok(editDistance(from, readAs, Infinity, true) <= reach, `${word} -> ${readAs}`);
        assert.ok(catalog.search(readAs, {}, 1).length > 0, `${readAs} is a term of the catalogue`);
      }),
      { numRuns: 300 },
    );
  });

  it('takes the commonest of the closest terms', () => {
    const catalog = new Catalog(
      [
        spec('api', [
          { method: 'GET', path: '/vendrogal', summary: 'Vendrogal once' },
          { method: 'GET', path: '/vendrogil', summary: 'Vendrogil one' },
          { method: 'GET', path: '/vendrogil/{id}', summary: 'Vendrogil two' },
        ]),
      ],
      { english: NO_ENGLISH },
    );
    assert.equal(catalog.searchPage('vendrogul', {}, 0, 5).readAs, 'vendrogil');
    // One edit beats two however common.
    assert.equal(catalog.searchPage('vendrogalx', {}, 0, 5).readAs, 'vendrogal');
  });

  it('reads a typo of the first letter only as a word one API says with the query\'s other words', () => {
    const catalog = new Catalog(
      [
        spec('billing', [{ method: 'GET', path: '/quorbexs', summary: 'List quorbexs' }, { method: 'GET', path: '/zandiflops', summary: 'List zandiflops' }]),
        spec('shop', [{ method: 'GET', path: '/mirtovanes', summary: 'List mirtovanes' }]),
      ],
      { english: NO_ENGLISH },
    );
    assert.equal(catalog.searchPage('xuorbex of a zandiflop', {}, 0, 5).readAs, 'quorbex of a zandiflop');
    // Alone, or beside a word no API says with it: left as typed (the fuzzy fallback may still find it).
    assert.equal(catalog.searchPage('xuorbex', {}, 0, 5).readAs, undefined);
    assert.equal(catalog.searchPage('xuorbex mirtovanes', {}, 0, 5).readAs, undefined);
    // The same first letter needs no other word.
    assert.equal(catalog.searchPage('qourbex', {}, 0, 5).readAs, 'quorbex');
  });

  it('takes the closer of an API\'s name and the catalogue\'s terms, a swap one edit', () => {
    const catalog = new Catalog([spec('zandiflopa', [{ method: 'GET', path: '/things', summary: 'List zandifxxoa' }])], { english: NO_ENGLISH });
    // The name one edit away (a swap), a term of the endpoints two: the name.
    assert.equal(catalog.searchPage('zandiflpoa', {}, 0, 5).readAs, 'zandiflopa');
    // The term one edit away, the name two: the term.
    assert.equal(catalog.searchPage('zandifxxob', {}, 0, 5).readAs, 'zandifxxoa');
  });

  it('counts two letters swapped as one typo', () => {
    const catalog = catalogue(['quorbex', 'zandiflop']);
    // Two edits apart letter by letter, one as a swap: a word of seven letters allows one.
    assert.equal(catalog.searchPage('qourbex', {}, 0, 5).readAs, 'quorbex');
  });

  it('leaves an English word as it is, and reads a word naming an API as naming it', () => {
    const catalog = new Catalog([
      spec('discord', [{ method: 'POST', path: '/discard', summary: 'Discard a draft' }]),
      spec('forms', [{ method: 'GET', path: '/form', summary: 'Get a form' }]),
    ]);
    // "forum" is English (WordNet): not a typo of `form`.
    assert.equal(catalog.searchPage('latest forum posts', {}, 0, 5).readAs, undefined);
    // "discord" names an API no endpoint of which says it: not a typo of `discard`.
    assert.equal(catalog.searchPage('discord drafts', {}, 0, 5).readAs, undefined);
    // A typo is no English word: read as the catalogue's.
    assert.equal(catalog.searchPage('dsicard a draft', {}, 0, 5).readAs, 'discard a draft');
  });

  it('reads a misspelt API name as the name, and ranks that API first', () => {
    const specs = ['zandiflop', 'quorbex', 'mirtovane'].map((name) => spec(name, [{ method: 'GET', path: '/customers', summary: 'List customers' }]));
    const catalog = new Catalog(specs, { english: NO_ENGLISH });
    // No endpoint says `quorbex`: the name alone is within reach.
    const page = catalog.searchPage('qourbex customers', {}, 0, 3);
    assert.equal(page.readAs, 'quorbex customers');
    assert.equal(page.hits[0]?.endpoint.spec, 'quorbex');
    assert.equal(catalog.search('qourbex customers', {}, 1)[0]?.endpoint.spec, 'quorbex');
  });

  it('reads two letters swapped in a word of four letters, and no other typo there', () => {
    const catalog = new Catalog([spec('api', [{ method: 'GET', path: '/vuzr', summary: 'List vuzrs' }, { method: 'GET', path: '/kpod', summary: 'List kpods' }])], { english: NO_ENGLISH });
    assert.equal(catalog.searchPage('uvzr', {}, 0, 5).readAs, undefined, 'the first letter is kept');
    assert.equal(catalog.searchPage('vzur', {}, 0, 5).readAs, 'vuzr');
    assert.equal(catalog.searchPage('kopd list', {}, 0, 5).readAs, 'kpod list');
    // One letter changed in a word of four letters, or one dropped from it, is mostly another word: left as it is.
    for (const q of ['vuza', 'kpoo', 'kpd', 'vzr']) assert.equal(catalog.searchPage(q, {}, 0, 5).readAs, undefined, q);
  });

  it('reads a British spelling as the American one the catalogue says, and the other way', () => {
    const american = new Catalog([
      spec('us', [
        { method: 'POST', path: '/authorize', summary: 'Authorize an app' },
        { method: 'PUT', path: '/colors', summary: 'Set the color' },
        { method: 'GET', path: '/orders/canceled', summary: 'List canceled orders' },
        { method: 'GET', path: '/catalog', summary: 'Get the catalog' },
        { method: 'GET', path: '/hours', summary: 'Opening hours' },
      ]),
    ]);
    assert.equal(american.searchPage('authorise an app', {}, 0, 3).readAs, 'authorize an app');
    assert.equal(american.searchPage('change the colour', {}, 0, 3).readAs, 'change the color');
    assert.equal(american.searchPage('cancelled orders', {}, 0, 3).readAs, 'canceled orders');
    assert.equal(american.search('get the catalogue', {}, 1)[0]?.endpoint.path, '/catalog');
    // Only where the catalogue says the other spelling: `hour` is no `hor`, `tours` no `tors`.
    assert.equal(american.searchPage('opening hour tours', {}, 0, 3).readAs, undefined);
    const british = new Catalog([spec('uk', [{ method: 'GET', path: '/favourites', summary: 'List favourites' }, { method: 'GET', path: '/centres', summary: 'List centres' }])]);
    assert.equal(british.searchPage('list favorites', {}, 0, 3).readAs, 'list favourites');
    assert.equal(british.searchPage('list centers', {}, 0, 3).readAs, 'list centres');
  });

  it('reads every British ending as the American one and the other way, where the catalogue says it', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SPELLINGS), fc.boolean(), fc.string({ unit: fc.constantFrom('q', 'z', 'x', 'k', 'v'), minLength: 3, maxLength: 5 }), ([a, b], british, stem) => {
        const [said, held] = british ? [stem + a, stem + b] : [stem + b, stem + a];
        const catalog = new Catalog([spec('api', [{ method: 'GET', path: `/${held}`, summary: `Get ${held}` }])], { english: NO_ENGLISH });
        // (Where the stemmer makes the two spellings one term, the word is known as it is.)
        if (termsOf(said)[0] === termsOf(held)[0]) return;
        assert.equal(catalog.searchPage(`get ${said}`, {}, 0, 3).readAs, `get ${held}`, said);
      }),
      { numRuns: 400 },
    );
    // A word no longer than an ending and two letters is not read so (`size` is no `sise`).
    const short = new Catalog([spec('api', [{ method: 'GET', path: '/qzize', summary: 'Get qzize' }])], { english: NO_ENGLISH });
    assert.equal(short.searchPage('get qzise', {}, 0, 3).readAs, undefined);
  });

  it('writes the catalogue\'s word as near as it can to how it was typed (a plural stays a plural)', () => {
    const catalog = catalogue(['quorbex', 'zandiflop']);
    // `quorbexs` / `zandiflops` are the catalogue's words; `qourbexs` is a plural of a typo.
    assert.equal(catalog.searchPage('qourbexs', {}, 0, 5).readAs, 'quorbexs');
    assert.equal(catalog.searchPage('zandiflipes', {}, 0, 5).readAs, 'zandiflopes');
    assert.equal(catalog.searchPage('zandiflipx', {}, 0, 5).readAs, 'zandiflop');
    // Index terms are no words (`repositori`, `receiv`): the word written is one whose term it is.
    const words = new Catalog([spec('api', [{ method: 'GET', path: '/repositories', summary: 'List repositories' }, { method: 'POST', path: '/faxes', summary: 'Receive a fax' }])]);
    assert.equal(words.searchPage('delete a repositroy', {}, 0, 5).readAs, 'delete a repository');
    assert.equal(words.searchPage('recieve faxes', {}, 0, 5).readAs, 'receive faxes');
    // Two letters swapped are one edit in choosing the word too: `zzroies`, not `zzroyes` (both read as `zzroy`).
    const swapped = new Catalog([spec('api', [{ method: 'GET', path: '/things', summary: 'Get zzroies' }])], { english: NO_ENGLISH });
    assert.equal(swapped.searchPage('zrzoies', {}, 0, 5).readAs, 'zzroies');
    // Only a word that is read back as the term: `abcses` is indexed as `abcs`, but `abcs` itself reads as `abc`.
    const odd = new Catalog([spec('a', [{ method: 'GET', path: '/abcses', summary: 'List abcses' }])], { english: NO_ENGLISH });
    assert.equal(odd.searchPage('abcsz', {}, 0, 5).readAs, 'abcse');
  });

  it('writes back the very word a typo was made in, whatever its ending', () => {
    const stem = fc.string({ unit: fc.constantFrom('z', 'o', 'r', 'b', 'a', 'x', 'k', 'q'), minLength: 4, maxLength: 6 });
    const ending = fc.constantFrom('', 'e', 's', 'es', 'ed', 'ing', 'er', 'ers', 'r', 'rs', 'y', 'ies', 'ied');
    fc.assert(
      fc.property(stem, ending, (base, end) => {
        const word = base + end;
        const term = termsOf(word);
        fc.pre(term.length === 1);
        // Two letters swapped after the first (the first is kept).
        const typed = word[0]! + word[2]! + word[1]! + word.slice(3);
        const typedTerm = termsOf(typed)[0]!;
        // (The typed word's term within a typo's reach of the word's: stemming may part them further, `zzaas` / `zaza`.)
        fc.pre(typed !== word && typedTerm !== term[0] && typedTerm.length >= 5 && editDistance(typedTerm, term[0]!, Infinity, true) <= fuzzyDistance(typedTerm));
        const catalog = new Catalog([spec('api', [{ method: 'GET', path: '/things', summary: `Get ${word}` }])], { english: NO_ENGLISH });
        assert.equal(catalog.searchPage(typed, {}, 0, 5).readAs, word, `${typed} (${typedTerm}) for ${word} (${term[0]})`);
      }),
      { numRuns: 500 },
    );
  });

  it('reads at most eight unknown words of a query', () => {
    const catalog = catalogue(WORDS);
    const misspelt = WORDS.map((w) => typo(w, 'swap', 2));
    // Nine unknown words: a nonsense word first, then the eight typos; the last typo is past the bound.
    const readAs = catalog.searchPage(['xqxqxqxq', ...misspelt].join(' '), {}, 0, 5).readAs!;
    const words = readAs.split(' ');
    assert.equal(words[0], 'xqxqxqxq');
    assert.deepEqual(words.slice(1, 8), WORDS.slice(0, 7));
    assert.equal(words[8], misspelt[7]);
  });

  it('does nothing with the rule family off', async () => {
    const { RULES } = await import('../../src/catalog/rules.ts');
    const catalog = catalogue(['quorbex']);
    RULES.spelling = false;
    try {
      assert.equal(catalog.searchPage('qourbex', {}, 0, 5).readAs, undefined);
    } finally {
      RULES.spelling = true;
    }
    assert.equal(catalog.searchPage('qourbex', {}, 0, 5).readAs, 'quorbex');
  });
});
