// Reading a query, from its contract, over generated queries: the terms are the distinct index terms
// of its prose and paths (the caller's `me` aside), at most 32, each with a weight in (0, 1]; CRUD
// verbs are intent, not terms, unless nothing else is said; the first CRUD verb is the intent, else
// the first verb that implies one; a method is an upper-case method word (or any, beside a path);
// what was said, the exact key and the plural reading follow from the words. Dropping terms and
// searching the verbs keep the rest of the reading as it was.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { MAX_QUERY_CHARS, MAX_QUERY_WORDS, MAX_SEARCHED_TERMS, QueryTooLargeError, exactKey, parseQuery, withTermsLowered, withVerbsSearched, withoutTerms } from '../../src/catalog/query.ts';
import { withForms } from '../../src/catalog/expand.ts';
import { pathTerms } from '../../src/catalog/document.ts';
import { PLURAL_HINTS, intentOfTerm, isPluralWord, splitWords, termsOf, verbHint } from '../../src/catalog/text.ts';

const WORDS = ['list', 'get', 'fetch', 'create', 'delete', 'remove', 'update', 'send', 'set', 'up', 'a', 'the', 'my', 'all', 'users', 'user', 'message', 'messages', 'current', 'authenticated', 'i', 'me', 'repo', 'pods', 'status', 'channel', 'post', 'get', 'GET', 'POST', 'delete', 'DELETE', 'pullRequest', 'x1'];
const PATHS = ['/users', '/users/{id}', '/repos/{owner}/pulls', '/v1/messages'];
const queryArb = fc.array(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...WORDS) }, { weight: 1, arbitrary: fc.constantFrom(...PATHS) }), { maxLength: 8 }).map((t) => t.join(' '));

describe('parseQuery', () => {
  it('reads terms, weights, intent, method, paths, plurals and the exact key as its words say', () => {
    fc.assert(
      fc.property(queryArb, (query) => {
        const q = parseQuery(query);
        const tokens = query.split(' ').filter(Boolean);
        const hasPath = tokens.some((t) => t.includes('/'));
        const pathTokens = tokens.filter((t) => t.includes('/'));
        const methodAt = tokens.findIndex((t) => ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE'].includes(t.toUpperCase()) && (t === t.toUpperCase() || hasPath));
        const prose = tokens.filter((t, i) => i !== methodAt && !t.includes('/'));
        const words = splitWords(prose.join(' '));
        const crud = words.flatMap((w) => termsOf(w)).filter((t) => intentOfTerm(t) !== undefined);
        const nonVerb = [...words.flatMap((w) => termsOf(w)).filter((t) => intentOfTerm(t) === undefined), ...pathTokens.flatMap((p) => pathTerms(p))];

        assert.deepEqual(q.paths, pathTokens);
        assert.equal(q.method, methodAt >= 0 ? tokens[methodAt]!.toUpperCase() : undefined);
        assert.deepEqual(q.words, words);
        assert.equal(q.exact, exactKey(query));
        assert.ok(q.terms.length <= MAX_SEARCHED_TERMS);
        assert.equal(new Set(q.terms).size, q.terms.length, 'distinct terms');
        const allowed = new Set([...nonVerb, 'me', ...(nonVerb.length === 0 ? crud : [])]);
        for (const t of q.terms) {
          assert.ok(allowed.has(t), `${t} in ${query}`);
          const w = q.weights.get(t);
          assert.ok(w !== undefined && w > 0 && w <= 1, `${t}: ${w}`);
          assert.ok(q.said.has(t));
        }
        // CRUD verbs are intent, searched only when nothing else is said.
        if (nonVerb.length > 0 && !q.terms.includes('me')) for (const v of crud) assert.ok(!q.terms.includes(v) || nonVerb.includes(v), v);
        for (const v of q.verbTerms) {
          assert.ok(!q.terms.includes(v));
          assert.ok(q.said.has(v));
        }
        assert.deepEqual(new Set(q.said), new Set([...q.terms, ...crud]));
        // The first CRUD verb is the intent; without one, the first implying verb (hinted).
        const first = crud[0];
        if (first !== undefined) {
          assert.equal(q.intent, intentOfTerm(first));
          assert.equal(q.hinted, false);
        } else {
          assert.equal(q.hinted, q.intent !== undefined);
          if (q.intent === undefined) for (const w of words) for (const t of termsOf(w)) assert.equal(verbHint(t), undefined, `${w} implies something`);
        }
        assert.equal(q.plural, words.some((w) => PLURAL_HINTS.has(w) || isPluralWord(w)));
      }),
      { numRuns: 1500 },
    );
  });

  it('reads the caller from self words, unless the query says me or my, and weighs what they say', () => {
    const q = parseQuery('get the current user');
    assert.equal(q.terms[0], 'me');
    assert.equal(q.weights.get('me'), 0.6);
    assert.equal(q.weights.get(termsOf('current')[0]!), 0.3);
    assert.equal(q.weights.get('user'), 1);
    for (const query of ['get my current user', 'current me', 'list users']) assert.ok(!parseQuery(query).terms.includes('me') || query.includes(' me'), query);
    assert.equal(parseQuery('current me').weights.get('me'), 1);
    // A term said twice keeps its larger weight, in either order.
    const t = termsOf('authenticate')[0]!;
    assert.equal(t, termsOf('authenticated')[0]);
    assert.equal(parseQuery('authenticated user authenticate').weights.get(t), 1);
    assert.equal(parseQuery('authenticate authenticated user').weights.get(t), 1);
  });

  it('reads verbs with a particle as one verb, and weighs implying verbs less', () => {
    const setUp = parseQuery('set up an alert');
    assert.equal(setUp.intent, 'create');
    assert.equal(setUp.hinted, true);
    assert.equal(parseQuery('set an alert').intent, 'update');
    assert.equal(parseQuery('clean up old builds').intent, 'delete');
    assert.equal(parseQuery('send a message').weights.get('send'), 0.6);
    assert.equal(parseQuery('send a message').weights.get('messag'), 1);
    assert.equal(parseQuery('send a message').intent, 'create');
    assert.equal(parseQuery('delete and send a message').intent, 'delete');
    // The first implying verb gives the intent; a path word keeps the weight the prose gave it.
    assert.equal(parseQuery('send or revoke a token').intent, 'create');
    assert.equal(parseQuery('revoke or send a token').intent, 'delete');
    assert.equal(parseQuery('send /messages/send').weights.get('send'), 0.6);
    assert.equal(parseQuery('/messages/send').weights.get('send'), 1);
  });

  it('reads a command, and not a plural noun first, as imperative', () => {
    for (const query of ['rent a number', 'set up an alert', 'buy the book', 'clean up the']) assert.equal(parseQuery(query).imperative, true, query);
    for (const query of ['channels in a guild', 'rent', 'rent number', 'set up alert', 'turn up', 'pods the list']) assert.equal(parseQuery(query).imperative, false, query);
  });

  it('refuses a query one character or one word over its bounds, with what to do, and reads one at them', () => {
    assert.equal(parseQuery('x'.repeat(MAX_QUERY_CHARS)).terms.length, 1);
    assert.equal(parseQuery('ab '.repeat(MAX_QUERY_WORDS)).terms.length, 1);
    for (const [query, what] of [['x'.repeat(MAX_QUERY_CHARS + 1), '2001 characters'], ['a '.repeat(MAX_QUERY_WORDS + 1), '301 words']] as const) {
      let thrown: unknown;
      try {
        parseQuery(query);
      } catch (error) {
        thrown = error;
      }
      assert.ok(thrown instanceof QueryTooLargeError);
      assert.equal(thrown.code, 'search-query-too-large');
      assert.equal(thrown.message, `search query is too large: ${what}`);
      assert.equal(thrown.hint, 'use at most 300 words and 2000 characters: a few keywords say what the endpoint does');
    }
    const many = Array.from({ length: 40 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`).join(' ');
    assert.equal(parseQuery(many).terms.length, MAX_SEARCHED_TERMS);
    assert.equal(parseQuery('list').terms.join(), 'list');
    assert.deepEqual(parseQuery('list').verbTerms, []);
    assert.deepEqual(parseQuery('').terms, []);
  });
});

describe('withoutTerms and withVerbsSearched', () => {
  it('drop only the terms named, keep the query when they are all it says, and search the verbs at full weight', () => {
    fc.assert(
      fc.property(queryArb, fc.subarray(['user', 'messag', 'me', 'pod', 'repository', 'send']), (query, dropped) => {
        const q = parseQuery(query);
        const drop = new Set(dropped);
        const out = withoutTerms(q, drop);
        const kept = q.terms.filter((t) => !drop.has(t));
        if (kept.length === q.terms.length || kept.length === 0) assert.equal(out, q);
        else {
          assert.deepEqual(out.terms, kept);
          for (const t of q.terms) {
            assert.equal(out.weights.has(t), !drop.has(t), t);
            assert.equal(out.said.has(t), !drop.has(t), t);
          }
          assert.deepEqual(out.verbTerms, q.verbTerms);
          assert.equal(out.intent, q.intent);
        }
        const verbs = withVerbsSearched(q);
        if (q.verbTerms.length === 0) assert.equal(verbs, undefined);
        else {
          assert.ok(verbs);
          assert.deepEqual(verbs.terms, [...q.terms, ...q.verbTerms]);
          for (const v of q.verbTerms) assert.equal(verbs.weights.get(v), 1);
          for (const t of q.terms) assert.equal(verbs.weights.get(t), q.weights.get(t));
          assert.deepEqual(verbs.verbTerms, []);
        }
      }),
      { numRuns: 800 },
    );
  });

  it('take an alternative away with the term it stands for', () => {
    const q = { ...parseQuery('list pods'), terms: ['pod', 'container'], weights: new Map([['pod', 1], ['container', 0.3]]), alternatives: new Map([['container', 'pod']]) };
    const other = { ...q, terms: ['pod', 'container', 'node'], weights: new Map([['pod', 1], ['container', 0.3], ['node', 1]]) };
    assert.equal(withoutTerms(q, new Set(['pod'])), q, 'only an alternative would be left');
    assert.deepEqual(withoutTerms(other, new Set(['pod'])).terms, ['node']);
    assert.deepEqual(withoutTerms(other, new Set(['node'])).terms, ['pod', 'container']);
  });
});

describe('a query read', () => {
  it('has the same properties in the same order whatever it says, through every rewriting of it', () => {
    // One object shape for every query: the ranking code, optimized on the first queries it saw,
    // is not sent back to the interpreter by a query that says no verb, names a method or gains forms.
    const keys = Object.keys(parseQuery('list users'));
    fc.assert(
      fc.property(queryArb, (query) => {
        const q = parseQuery(query);
        const rewritten = [
          q,
          withoutTerms(q, new Set(q.terms.slice(0, 1))),
          withTermsLowered(q, new Set(q.terms.slice(0, 1)), 0.5),
          withVerbsSearched(q) ?? q,
          withForms(q, () => 1),
        ];
        for (const r of rewritten) assert.deepEqual(Object.keys(r), keys, query);
      }),
      { numRuns: 300 },
    );
  });
});
