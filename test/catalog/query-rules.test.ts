// How a query is read: intent, method, one thing or many, the caller, named paths, bounds. One row
// per rule; each family can be switched off (RULES), and a row that depends on one says so.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_QUERY_CHARS, MAX_QUERY_WORDS, MAX_SEARCHED_TERMS, type ParsedQuery, type RuleFamily, parseQuery, withRules } from '../../src/catalog/search.ts';

interface Row {
  readonly query: string;
  readonly expect: Partial<{
    intent: ParsedQuery['intent'] | null;
    hinted: boolean;
    method: string | null;
    plural: boolean;
    imperative: boolean;
    terms: readonly string[];
    paths: readonly string[];
  }>;
  /** The rule family this row is about: with it off, the row must not hold. */
  readonly family?: RuleFamily;
}

const ROWS: readonly Row[] = [
  // CRUD verbs and their synonyms -> intent; the verbs are not searched.
  { query: 'create a pet', expect: { intent: 'create', hinted: false, terms: ['pet'] } },
  { query: 'add a new pet', expect: { intent: 'create' }, family: 'crudSynonyms' },
  { query: 'remove the pet', expect: { intent: 'delete' }, family: 'crudSynonyms' },
  { query: 'fetch a pet', expect: { intent: 'get' }, family: 'crudSynonyms' },
  { query: 'edit a pet', expect: { intent: 'update' }, family: 'crudSynonyms' },
  { query: 'show my orders', expect: { intent: 'get' }, family: 'crudSynonyms' },
  { query: 'list pets', expect: { intent: 'list', terms: ['pet'] } },
  // Verbs that imply an intent, weaker: they stay search terms.
  { query: 'send a message', expect: { intent: 'create', hinted: true, terms: ['send', 'messag'] }, family: 'verbHints' },
  { query: 'rename a channel', expect: { intent: 'update', hinted: true }, family: 'verbHints' },
  { query: 'revoke a token', expect: { intent: 'delete', hinted: true }, family: 'verbHints' },
  { query: 'kick a member', expect: { intent: 'delete', hinted: true }, family: 'missVerbHints' },
  { query: 'archive a project', expect: { intent: 'update', hinted: true }, family: 'verbHints' },
  { query: 'mark an invoice as paid', expect: { intent: 'update', hinted: true }, family: 'verbHints' },
  { query: 'subscribe to a topic', expect: { intent: 'create', hinted: true }, family: 'verbHints' },
  // "un" undoes a verb: a relation made is removed, a change stays a change.
  { query: 'unfollow a playlist', expect: { intent: 'delete', hinted: true }, family: 'verbHints' },
  { query: 'unsubscribe from a topic', expect: { intent: 'delete', hinted: true }, family: 'verbHints' },
  { query: 'unarchive a project', expect: { intent: 'update', hinted: true }, family: 'verbHints' },
  { query: 'undo a run', expect: { intent: null } },
  // A verb and its particle read as one verb.
  { query: 'set up a webhook', expect: { intent: 'create', hinted: true }, family: 'verbHints' },
  { query: 'set a status', expect: { intent: 'update', hinted: true }, family: 'verbHints' },
  { query: 'turn off notifications', expect: { intent: 'update', hinted: true }, family: 'verbHints' },
  { query: 'look up a customer', expect: { intent: 'get', hinted: true }, family: 'verbHints' },
  { query: 'clean up old builds', expect: { intent: 'delete', hinted: true }, family: 'verbHints' },
  { query: 'delete and set up', expect: { intent: 'delete', hinted: false } },
  { query: 'delete and send', expect: { intent: 'delete', hinted: false } },
  // A method and a path named outright.
  { query: 'DELETE /pets/{id}', expect: { method: 'DELETE', paths: ['/pets/{id}'], terms: ['pet'] } },
  { query: 'delete /pets', expect: { method: 'DELETE', paths: ['/pets'] } },
  { query: 'get pets', expect: { method: null, intent: 'get' } },
  // One thing or many.
  { query: 'all invoices', expect: { plural: true } },
  { query: 'recent messages', expect: { plural: true } },
  { query: 'get this invoice', expect: { plural: false } },
  { query: 'invoice', expect: { plural: false } },
  // A command with a verb we do not know.
  { query: 'rent a number', expect: { imperative: true, intent: null }, family: 'imperative' },
  { query: 'set up an alert', expect: { imperative: true }, family: 'imperative' },
  { query: 'channels in a guild', expect: { imperative: false } },
  // The caller.
  { query: 'get the current user', expect: { terms: ['me', 'current', 'user'] }, family: 'selfWords' },
  { query: 'playlists I follow', expect: { terms: ['me', 'playlist', 'follow'] }, family: 'selfWords' },
  // Abbreviations and synonyms meet the API's words.
  { query: 'list repos', expect: { terms: ['repositori'] }, family: 'abbreviations' },
  { query: 'upload a photo', expect: { terms: ['upload', 'imag'] }, family: 'synonyms' },
  // A query of verbs alone still searches them.
  { query: 'list', expect: { terms: ['list'], intent: 'list' } },
];

function check(row: Row): string | undefined {
  const q = parseQuery(row.query);
  const e = row.expect;
  const problems: string[] = [];
  const eq = (name: string, got: unknown, want: unknown) => {
    if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${name}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  };
  if (e.intent !== undefined) eq('intent', q.intent ?? null, e.intent);
  if (e.hinted !== undefined) eq('hinted', q.hinted, e.hinted);
  if (e.method !== undefined) eq('method', q.method ?? null, e.method);
  if (e.plural !== undefined) eq('plural', q.plural, e.plural);
  if (e.imperative !== undefined) eq('imperative', q.imperative, e.imperative);
  if (e.terms !== undefined) eq('terms', q.terms, e.terms);
  if (e.paths !== undefined) eq('paths', q.paths, e.paths);
  return problems.length > 0 ? problems.join('; ') : undefined;
}

describe('parseQuery', () => {
  for (const row of ROWS) {
    it(`reads "${row.query}"${row.family ? ` (${row.family})` : ''}`, () => {
      assert.equal(check(row), undefined);
      if (row.family) {
        const without = withRules({ [row.family]: false }, () => check(row));
        assert.notEqual(without, undefined, `the row holds with ${row.family} off: it does not test that family`);
      }
    });
  }

  it(`refuses queries over ${MAX_QUERY_CHARS} characters or ${MAX_QUERY_WORDS} words, and searches at most ${MAX_SEARCHED_TERMS} terms`, () => {
    assert.throws(() => parseQuery('x'.repeat(MAX_QUERY_CHARS + 1)), /search query is too large: 2001 characters/);
    assert.throws(() => parseQuery('a '.repeat(MAX_QUERY_WORDS + 1)), /search query is too large: 301 words/);
    const many = Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ');
    assert.equal(parseQuery(many).terms.length, MAX_SEARCHED_TERMS);
  });
});
