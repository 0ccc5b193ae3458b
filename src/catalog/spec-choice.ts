// Which APIs a query names: in full (every word of a spec's name or its collection among the
// query's words as typed: the name a user gave an API is the strongest sign of which API is meant,
// however common its words are elsewhere, "box", "azure blob"), else by a rare name word. Such a
// spec's matches come first.
import { type ParsedQuery, withoutTerms } from './search.ts';
import type { SpecState } from './spec-state.ts';
import { fullNames } from './spec-names.ts';
import type { TermHolders } from './term-holders.ts';
import { textTerms } from './text.ts';
import { SPEC_NAMING } from './weights.ts';

/** The specs a query names in full, and the index terms of the query words that named them. */
export interface FullNaming {
  readonly named: SpecState[];
  readonly terms: ReadonlySet<string>;
}

/** Query words looked at for names: a query longer than this names its API in the first words or not at all. */
const MAX_NAME_TOKENS = 64;

export class FullNameIndex {
  /** First word of a full name -> the specs and their full names starting with it. */
  readonly #byFirst = new Map<string, { state: SpecState; words: readonly string[] }[]>();
  /** Every word of every full name. */
  readonly #words = new Set<string>();

  constructor(states: readonly SpecState[]) {
    for (const state of states) {
      for (const words of fullNames(state.spec)) {
        for (const w of words) this.#words.add(w);
        const list = this.#byFirst.get(words[0]!);
        if (list) list.push({ state, words });
        else this.#byFirst.set(words[0]!, [{ state, words }]);
      }
    }
  }

  /** Whether `word` (lower case) is a word of some spec's full name. */
  hasWord(word: string): boolean {
    return this.#words.has(word);
  }

  /**
   * The specs of `states` (`member` when a subset) whose full name the query holds, keeping those of
   * the longest such name (a query holding "azure blob" names `azure-blob` before `azure`). Two
   * adjacent query words also count as one ("pet store" names `petstore`).
   */
  named(query: string, member?: ReadonlySet<SpecState>): FullNaming | undefined {
    // As typed (for the terms the words became: `OpenAI` -> open, ai) and lower case (to match names).
    const typed = query.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0).slice(0, MAX_NAME_TOKENS);
    const words = typed.map((w) => w.toLowerCase());
    // Token -> the query words (as typed) it is made of.
    const tokens = new Map<string, readonly string[]>();
    for (let i = 0; i < words.length; i++) {
      if (!tokens.has(words[i]!)) tokens.set(words[i]!, [typed[i]!]);
      if (i + 1 < words.length && !tokens.has(words[i]! + words[i + 1]!)) tokens.set(words[i]! + words[i + 1]!, [typed[i]!, typed[i + 1]!]);
    }
    let best = 0;
    let named: SpecState[] = [];
    let used: string[] = [];
    for (const token of tokens.keys()) {
      for (const { state, words: name } of this.#byFirst.get(token) ?? []) {
        if (name.length < best || (member && !member.has(state)) || !name.every((w) => tokens.has(w))) continue;
        if (name.length > best) {
          best = name.length;
          named = [];
          used = [];
        }
        if (!named.includes(state)) named.push(state);
        for (const w of name) used.push(...tokens.get(w)!);
      }
    }
    if (named.length === 0) return undefined;
    const terms = new Set<string>();
    for (const w of used) for (const t of textTerms(w)) terms.add(t);
    return { named, terms };
  }
}

/** What choosing the named specs reads of the catalogue (`Loaded`). */
export interface NamingScope {
  /** Every spec, in catalogue order. */
  readonly states: readonly SpecState[];
  readonly nameHolders: ReadonlyMap<string, readonly SpecState[]>;
  readonly terms: Pick<TermHolders, 'holders'>;
  readonly fullNames: FullNameIndex;
}

/** The specs a query names among those searched, and the query without the naming words. */
export interface SpecNaming {
  readonly named: SpecState[];
  readonly query: ParsedQuery;
}

/** The specs among `states` the query names in full (see `FullNameIndex`), and the query without the naming words. */
export function fullyNamed(loaded: NamingScope, query: string, parsed: ParsedQuery, states: readonly SpecState[]): SpecNaming | undefined {
  const naming = loaded.fullNames.named(query, states === loaded.states ? undefined : new Set(states));
  if (!naming || naming.named.length === states.length) return undefined;
  return { named: naming.named, query: withoutTerms(parsed, naming.terms) };
}

/**
 * The specs among `states` the query names, and the query without the naming words (unless they
 * are all it says). A word names a spec when it is one of the spec's name words (`specNameTerms`),
 * few specs are named by it (or a vendor's group of them, see `SPEC_NAMING`), and few other specs
 * use it in their endpoints: "zoom" in a catalogue of unrelated APIs, not "user" because one API
 * is called "User Service".
 */
export function namedSpecs(loaded: NamingScope, parsed: ParsedQuery, states: readonly SpecState[]): SpecNaming | undefined {
  const member = states === loaded.states ? undefined : new Set(states);
  const total = loaded.states.length;
  const few = Math.max(SPEC_NAMING.fewSpecs, Math.ceil(SPEC_NAMING.fewShare * total));
  const group = Math.max(few, Math.ceil(SPEC_NAMING.groupShare * total));
  const named = new Set<SpecState>();
  const naming = new Set<string>();
  for (const t of parsed.terms) {
    if (parsed.alternatives?.has(t)) continue;
    const namers = loaded.nameHolders.get(t);
    if (!namers || namers.length > group) continue;
    const namerSet = new Set(namers);
    let others = 0;
    for (const h of loaded.terms.holders(t)?.states ?? []) if (!namerSet.has(h) && (!member || member.has(h))) others++;
    // A word naming a vendor's many APIs ("every API of one company") still names them while
    // few other specs use it; a word naming a handful must be that rare outside them too. Few
    // others is a count, not a share: a word 20 other APIs use is a thing, not a name, however
    // many APIs are loaded.
    if (others > SPEC_NAMING.fewSpecs) continue;
    let any = false;
    for (const s of namers) {
      if (member && !member.has(s)) continue;
      named.add(s);
      any = true;
    }
    if (any) naming.add(t);
  }
  if (named.size === 0 || named.size === states.length) return undefined;
  return { named: states.filter((s) => named.has(s)), query: withoutTerms(parsed, naming) };
}
