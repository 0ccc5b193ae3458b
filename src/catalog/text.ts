// Words of API vocabulary: how paths, operationIds and prose become index terms, and how a query does.
// One pipeline for both sides, so `listPullRequests`, `/repos/{owner}/pulls` and "list my PRs"
// meet on the same terms. Every rule here is about API language in general, never about one API.

import { RULES, onRulesChange } from './rules.ts';

const NON_ASCII = /[^\x00-\x7f]/;

/** Split identifiers and prose into lower-case words: camelCase, snake_case, kebab-case, dots, slashes. */
export function splitWords(text: string): string[] {
  // Unicode-aware patterns are several times slower in V8: most API text is ASCII, so it gets its own.
  return NON_ASCII.test(text) ? splitUnicode(text) : splitAscii(text);
}

// Character classes for the ASCII scanner: 0 other, 1 lower, 2 upper, 3 digit.
const CLASS = new Uint8Array(128);
for (let c = 97; c <= 122; c++) CLASS[c] = 1;
for (let c = 65; c <= 90; c++) CLASS[c] = 2;
for (let c = 48; c <= 57; c++) CLASS[c] = 3;

/**
 * One pass over the characters, no regular expressions (this runs for every word of every indexed
 * description). A word breaks at any non-alphanumeric character, before an upper-case letter that
 * follows a lower-case letter or digit (`listPull`), and before the last capital of a run that a
 * lower-case letter follows (`HTTPServer`), except an acronym's plural (`PRs`, `URLs` stay one word).
 */
function splitAscii(text: string): string[] {
  const out: string[] = [];
  const lower = text.toLowerCase();
  const n = text.length;
  let start = -1;
  let prev = 0;
  for (let i = 0; i < n; i++) {
    const cls = CLASS[text.charCodeAt(i)]!;
    if (cls === 0) {
      if (start >= 0) out.push(lower.slice(start, i));
      start = -1;
      prev = 0;
      continue;
    }
    if (start < 0) start = i;
    else if (cls === 2) {
      if (prev === 1 || prev === 3) {
        out.push(lower.slice(start, i));
        start = i;
      } else if (prev === 2 && i + 1 < n && CLASS[text.charCodeAt(i + 1)] === 1 && !acronymPlural(text, i)) {
        out.push(lower.slice(start, i));
        start = i;
      }
    }
    prev = cls;
  }
  if (start >= 0) out.push(lower.slice(start));
  return out;
}

/** `URLs` at the `L`: capitals, then an `s` that ends the word. */
function acronymPlural(text: string, i: number): boolean {
  if (text.charCodeAt(i + 1) !== 115) return false;
  return i + 2 >= text.length || CLASS[text.charCodeAt(i + 2)] !== 1;
}

function splitUnicode(text: string): string[] {
  const spaced = text
    .replace(/(\p{Lu}{2,})s(?!\p{Ll})/gu, '$1S')
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2');
  const out: string[] = [];
  for (const w of spaced.toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (w) out.push(w);
  return out;
}

/** Words that carry no meaning for finding an endpoint. */
const STOP = new Set(
  (
    'a an the of for to in on at by with from into onto via and or but not no nor is are was were be been being ' +
    'this that these those it its i we you your our their they them he she his her us do does did done can could ' +
    'should would will shall may might must please want need like how what which who whom whose where when why ' +
    'there here some any each every so just also than then too very as if about using use used given specific ' +
    'specified existing currently one ones thing things way able such other another own same per up out across within inside among throughout'
  ).split(' '),
);

/** Common abbreviations and spelling variants -> one canonical form (several words allowed). */
const CANONICAL_WORDS: Record<string, string> = {
  repo: 'repository', repos: 'repository', repositories: 'repository',
  org: 'organization', orgs: 'organization', organisation: 'organization', organisations: 'organization',
  authn: 'auth', authz: 'auth',
  config: 'config', configs: 'config', cfg: 'config', conf: 'config', configuration: 'config', configurations: 'config',
  configure: 'config', settings: 'setting',
  env: 'environment', envs: 'environment', environments: 'environment',
  ids: 'id',
  pr: 'pull request', prs: 'pull request', pulls: 'pull',
  msg: 'message', msgs: 'message', dm: 'direct message', dms: 'direct message',
  info: 'info',
  db: 'database', dbs: 'database',
  pwd: 'password', passwd: 'password',
  addr: 'address',
  app: 'app', apps: 'app', application: 'app', applications: 'app',
  admin: 'admin', admins: 'admin', administrator: 'admin', administrators: 'admin',
  dir: 'directory', dirs: 'directory',
  doc: 'document', docs: 'document',
  img: 'image', imgs: 'image',
  cert: 'certificate', certs: 'certificate',
  var: 'variable', vars: 'variable',
  stat: 'statistic', stats: 'statistic', statistics: 'statistic',
  perm: 'permission', perms: 'permission',
  acct: 'account', accts: 'account',
  txn: 'transaction', txns: 'transaction', tx: 'transaction',
  desc: 'description',
  attr: 'attribute', attrs: 'attribute',
  param: 'parameter', params: 'parameter',
  ts: 'timestamp',
  email: 'email', emails: 'email', 'e-mail': 'email',
};

/** Words of one meaning -> one of them. */
const SYNONYM_WORDS: Record<string, string> = {
  picture: 'image', pictures: 'image', pic: 'image', pics: 'image', photo: 'image', photos: 'image', avatar: 'image', avatars: 'image',
  mail: 'email', sms: 'message', mms: 'message',
};

/** Verbs: one canonical verb per meaning, so "remove" finds `delete...` and "fetch" finds `get...`. */
const CRUD_VERB_WORDS: Record<string, string> = {
  list: 'list', lists: 'list', listing: 'list', enumerate: 'list', browse: 'list',
  get: 'get', gets: 'get', fetch: 'get', fetches: 'get', retrieve: 'get', retrieves: 'get', read: 'get', reads: 'get',
  show: 'get', shows: 'get', view: 'get', views: 'get', describe: 'get', obtain: 'get',
  create: 'create', creates: 'create', add: 'create', adds: 'create', new: 'create', make: 'create', insert: 'create',
  inserts: 'create', initiate: 'create', initiates: 'create',
  update: 'update', updates: 'update', edit: 'update', edits: 'update', change: 'update', changes: 'update',
  modify: 'update', modifies: 'update', alter: 'update', patch: 'update',
  delete: 'delete', deletes: 'delete', remove: 'delete', removes: 'delete', destroy: 'delete', destroys: 'delete',
  erase: 'delete', drop: 'delete',
  search: 'search', searches: 'search', find: 'search', finds: 'search', lookup: 'search', query: 'search',
};

const CRUD_VERBS: ReadonlySet<string> = new Set(Object.keys(CRUD_VERB_WORDS));

/** Maps, not the objects: a word such as `constructor` or `toString` must not find Object's prototype. */
const VOCABULARY: readonly { readonly family: 'abbreviations' | 'synonyms' | 'crudSynonyms'; readonly map: ReadonlyMap<string, string> }[] = [
  { family: 'abbreviations', map: new Map(Object.entries(CANONICAL_WORDS)) },
  { family: 'synonyms', map: new Map(Object.entries(SYNONYM_WORDS)) },
  { family: 'crudSynonyms', map: new Map(Object.entries(CRUD_VERB_WORDS)) },
];

/** The canonical form of a word under the vocabulary families switched on, if it has one. */
function canonicalOf(word: string): string | undefined {
  for (const { family, map } of VOCABULARY) {
    if (!RULES[family]) continue;
    const c = map.get(word);
    if (c !== undefined) return c;
  }
  return undefined;
}

/**
 * Light stemming: plurals and common inflections to a shared stem (`policies` -> `policy`,
 * `databases` -> `databas`, `recording` -> `record`). Stems are index-internal; they only have to agree.
 */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3 || /\d/.test(w)) return w;
  // (-ies to -y first: `tries` meets `try`, which is too short to lose its y below. A plural in -sses
  // loses its s here and its e below: `addresses` -> address.)
  if (w.endsWith('ies') && w.length > 4) w = w.slice(0, -3) + 'y';
  // Not a plural: -ss (`class`), -us (`status`, `previous`), -sis and -xis (`analysis`, `axis`),
  // -ias and -aas (`alias`, `saas`). Other words in -is and -as are (`apis`, `emojis`, `schemas`, `quotas`).
  else if (w.endsWith('s') && !/(ss|us|[sx]is|[ia]as)$/.test(w)) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed') && !w.endsWith('eed')) w = w.slice(0, -2);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  // A final y after a consonant is written i, so that every form meets: `movies` (-> movy) and
  // `movie` (-> movi), `copy` and `copied` (-> copi), `policy` and `policies`. Before, "movie" found
  // no endpoint that says `movies`. (After a vowel the y stays: `key`, `keys`, `gateway`.)
  if (w.length > 3 && w.endsWith('y') && !VOWEL_OR_Y.has(w.charCodeAt(w.length - 2))) w = `${w.slice(0, -1)}i`;
  return w;
}

const VOWEL_OR_Y = new Set([...'aeiouy'].map((c) => c.charCodeAt(0)));

const NO_TERMS: readonly string[] = Object.freeze([]);
/** Word -> terms, remembered: API text repeats a small vocabulary, and stemming every occurrence dominated indexing. */
const termCache = new Map<string, readonly string[]>();
onRulesChange(() => termCache.clear());
const TERM_CACHE_LIMIT = 100_000;

/** One word -> its index terms (none for stop words). Used at index and query time alike. Do not mutate the result. */
export function termsOf(word: string): readonly string[] {
  const cached = termCache.get(word);
  if (cached !== undefined) return cached;
  let terms: readonly string[];
  if (STOP.has(word)) terms = NO_TERMS;
  else {
    const canonical = canonicalOf(word);
    if (canonical !== undefined) terms = canonical.includes(' ') ? canonical.split(' ').map(stem) : [stem(canonical)];
    else terms = [stem(word)];
  }
  // Bounded: free text can carry an endless supply of one-off words (ids, hashes).
  // Stryker disable next-line CallExpression: a memory bound only (a cached word gives the same terms as one worked out again)
  if (termCache.size >= TERM_CACHE_LIMIT) termCache.clear();
  termCache.set(word, terms);
  return terms;
}

/** Free text -> index terms, in order. */
export function textTerms(text: string | undefined): string[] {
  if (!text) return [];
  const out: string[] = [];
  for (const w of splitWords(text)) for (const t of termsOf(w)) out.push(t);
  return out;
}

/** The canonical verbs: what they ask of an endpoint. */
export type Intent = 'list' | 'get' | 'create' | 'update' | 'delete';
export const INTENT_TERMS: ReadonlySet<string> = new Set(['list', 'get', 'creat', 'updat', 'delet']);

/** Stemmed canonical verb -> intent. */
export function intentOfTerm(term: string): Intent | undefined {
  switch (term) {
    case 'list': return 'list';
    case 'get': return 'get';
    case 'creat': return 'create';
    case 'updat': return 'update';
    case 'delet': return 'delete';
    default: return undefined;
  }
}

/**
 * Words that imply an intent but also name something an endpoint may be called by
 * (`/chat.postMessage`, `/files.upload`, `conversations.kick`): they stay search terms too.
 */
const VERB_HINTS: ReadonlyMap<string, Intent> = new Map(
  (
    [
      ['send', 'create'], ['post', 'create'], ['upload', 'create'], ['open', 'create'], ['submit', 'create'],
      ['start', 'create'], ['register', 'create'], ['invite', 'create'], ['generate', 'create'],
      ['rename', 'update'], ['replace', 'update'], ['move', 'update'], ['toggle', 'update'],
      ['enable', 'update'], ['disable', 'update'], ['schedule', 'create'],
      ['search', 'list'],
      ['unset', 'delete'], ['revoke', 'delete'],
      // Verbs that change the state of a thing that exists, and verbs that make a relation to one.
      ['set', 'update'], ['assign', 'update'], ['mark', 'update'], ['archive', 'update'], ['close', 'update'],
      ['follow', 'create'], ['subscribe', 'create'],
      // Verbs that make a new thing from or beside another, or bring one in.
      ['copy', 'create'], ['clone', 'create'], ['duplicate', 'create'], ['import', 'create'], ['attach', 'create'],
      ['connect', 'create'], ['join', 'create'], ['install', 'create'], ['deploy', 'create'],
      ['launch', 'create'], ['trigger', 'create'], ['book', 'create'], ['reserve', 'create'], ['buy', 'create'],
      ['purchase', 'create'], ['refund', 'create'],
      // Verbs that read.
      ['download', 'get'], ['export', 'get'], ['count', 'get'], ['check', 'get'], ['inspect', 'get'], ['preview', 'get'],
    ] as const
  ).map(([word, intent]) => [stem(word), intent]),
);

/** Verb hints written from misses of the tuned query sets: a family of their own, measured apart. */
const MISS_VERB_HINTS: ReadonlyMap<string, Intent> = new Map(
  (
    [['open', 'create'], ['take', 'create'], ['mute', 'update'], ['kick', 'delete'], ['purge', 'delete'], ['release', 'delete']] as const
  ).map(([word, intent]) => [stem(word), intent]),
);

/** The intent a (stemmed) verb implies, under the rule families switched on. */
export function verbHint(term: string): Intent | undefined {
  if (!RULES.verbHints) return undefined;
  const own = VERB_HINTS.get(term) ?? (RULES.missVerbHints ? MISS_VERB_HINTS.get(term) : undefined);
  if (own !== undefined || !term.startsWith('un')) return own;
  // "un" undoes a verb: what made a relation (follow, subscribe) removes it; a change stays a change.
  const undone = VERB_HINTS.get(term.slice(2));
  return undone === 'create' ? 'delete' : undone === 'update' ? 'update' : undefined;
}

/** Words that say "more than one", so a `get` means a collection: "get all pods", "get recent messages". */
export const PLURAL_HINTS: ReadonlySet<string> = new Set(['all', 'every', 'recent', 'many', 'multiple', 'several', 'history']);

/**
 * Of those, the words that only count ("all", "every"): they say how many, not which. An endpoint
 * whose text happens to say "all" is not thereby more what the query asks (coverage leaves them out).
 */
export const QUANTIFIER_TERMS: ReadonlySet<string> = new Set(['all', 'every', 'many', 'multiple', 'several'].flatMap((w) => termsOf(w)));

/** A plural noun as typed ("pods", "policies"), which asks for a collection. */
export function isPluralWord(word: string): boolean {
  if (word.length <= 3 || STOP.has(word) || !word.endsWith('s') || /(ss|us|is)$/.test(word)) return false;
  const canonical = canonicalOf(word);
  if (canonical === undefined) return true;
  // A word with a canonical form is plural when it is its singular's plural (`emails`, `repos`), not a
  // verb's form (`lists`, `changes`: the verb tables map them, never their singular to the same).
  if (CRUD_VERBS.has(word)) return false;
  const singular = word.slice(0, -1);
  return (canonicalOf(singular) ?? singular) === canonical;
}

/** Strips HTML tags and Markdown link targets so descriptions index as prose. */
export function plainText(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/https?:\/\/\S+/g, ' ');
}

/** The first sentence (or first `max` characters) of a description: where its meaning usually is. */
export function firstSentence(text: string, max = 200): string {
  return firstSentenceOfPlain(plainText(text).trim(), max);
}

/** `firstSentence` of text already made plain and trimmed. */
export function firstSentenceOfPlain(plain: string, max = 200): string {
  const end = plain.search(/[.!?](\s|$)|\n\s*\n/);
  const cut = end >= 0 ? plain.slice(0, end + 1) : plain;
  return cut.length > max ? cut.slice(0, max) : cut;
}
