// Narrowing (which documents a query of common words scores) is a shortcut for speed, never a
// reason for no answer: a query whose words an index holds gets matches even when no narrowed
// candidate holds them; the candidate gate lets through exactly the candidates a filter accepts,
// and of too many candidates keeps only accepted ones.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import { type IndexView, candidateGate, namedDocuments } from '../../src/catalog/narrowing.ts';
import { buildIndex, documentOf, makeEntry, parseQuery } from '../../src/catalog/search.ts';
import { EMPTY_FIELD } from '../../src/catalog/document.ts';
import { loadSource } from '../../src/catalog/lean-mini.ts';
import { documentsHolding } from '../../src/catalog/text-scores.ts';
import { type EndpointInput, endpoint, spec, summaryScan } from './fixtures.ts';

describe('a query of common words', () => {
  it('gets matches when its words are held, though no candidate named by one word holds the other', () => {
    fc.assert(
      fc.property(fc.integer({ min: 130, max: 180 }), fc.integer({ min: 300, max: 380 }), fc.integer({ min: 1, max: 8 }), (inDescriptions, inSummaries, limit) => {
        // "alpha" only in descriptions, "beta" only in summaries: narrowing scores the documents that
        // name a word in their summary or resource (beta's), and beta only where alpha is too (none).
        const inputs: EndpointInput[] = [];
        for (let i = 0; i < inDescriptions; i++) inputs.push({ method: 'GET', path: `/things${i}`, summary: `Thing number ${i}`, description: 'Alpha words here.' });
        for (let i = 0; i < inSummaries; i++) inputs.push({ method: 'GET', path: `/items${i}`, summary: `Beta item ${i}` });
        const catalog = new Catalog([spec('s', inputs)]);
        const hits = catalog.search('alpha beta', {}, limit);
        assert.equal(hits.length, limit);
        for (const h of hits) assert.ok(/Alpha|Beta/.test(`${h.endpoint.summary} ${h.endpoint.description}`), h.endpoint.id);
        assert.deepEqual(catalog.searchPage('alpha beta', {}, 0, limit).hits.map((h) => h.endpoint.id), hits.map((h) => h.endpoint.id));
      }),
      { numRuns: 10 },
    );
  });
});

describe('candidateGate', () => {
  // Documents 1..n: every third names "pods" as its resource, every fifth says "pods" in its summary.
  function view(n: number) {
    const entries = Array.from({ length: n }, (_, i) => {
      const input: EndpointInput = {
        method: i % 2 === 0 ? 'GET' : 'POST',
        path: i % 3 === 0 ? `/v${i}/pods` : `/v${i}/things`,
        summary: i % 5 === 0 ? 'List pods here' : 'Something else',
      };
      return makeEntry(endpoint('s', 'c', input), i + 1, i);
    });
    const byDoc: (typeof entries)[number][] = [];
    for (const e of entries) byDoc[e.doc] = e;
    const summaries = new Map(entries.map((e) => [e.doc, [...new Set(documentOf(e).s)]]));
    const v: IndexView = { size: n, df: () => n, entryOf: (doc) => byDoc[doc], summaryOf: (doc) => summaries.get(doc) };
    const named = () => namedDocuments(byDoc, summaryScan(byDoc, (doc) => summaries.get(doc)));
    const candidate = (doc: number) => (doc - 1) % 3 === 0 || (doc - 1) % 5 === 0;
    return { v, named, byDoc, candidate };
  }

  it('lets through exactly the candidates the filter accepts, and all of them without one', () => {
    fc.assert(
      fc.property(fc.integer({ min: 20, max: 400 }), fc.boolean(), (n, filtered) => {
        const { v, named, byDoc, candidate } = view(n);
        const parsed = parseQuery('pods');
        const accept = (e: { endpoint: { method: string } }) => e.endpoint.method === 'GET';
        const gate = candidateGate(v, named, parsed.terms, parsed, { limit: 10, accept, all: !filtered });
        assert.ok(gate);
        for (let doc = 0; doc <= n + 1; doc++) {
          const entry = byDoc[doc];
          const want = entry !== undefined && candidate(doc) && (!filtered || accept(entry)) ? 1 : 0;
          assert.equal(gate(doc, 'pod'), want, `doc ${doc}`);
        }
      }),
      { numRuns: 30 },
    );
  });

  it('of more than 600 candidates keeps 600 at most, every one accepted by the filter', () => {
    const { v, named, byDoc, candidate } = view(2400);
    const parsed = parseQuery('pods');
    for (const filtered of [false, true]) {
      const accept = (e: { endpoint: { method: string } }) => e.endpoint.method === 'GET';
      const gate = candidateGate(v, named, parsed.terms, parsed, { limit: 10, accept, all: !filtered })!;
      let through = 0;
      for (let doc = 1; doc <= 2400; doc++) {
        if (!gate(doc, 'pod')) continue;
        through++;
        if (filtered) assert.equal(byDoc[doc]!.endpoint.method, 'GET');
      }
      let eligible = 0;
      for (let doc = 1; doc <= 2400; doc++) if (candidate(doc) && (!filtered || accept(byDoc[doc]!))) eligible++;
      assert.ok(eligible > 500);
      assert.equal(through, Math.min(600, eligible), `filtered: ${filtered}`);
    }
  });

  it('is undefined when no document names a query word', () => {
    const { v, named } = view(50);
    const parsed = parseQuery('zebra');
    assert.equal(candidateGate(v, named, parsed.terms, parsed, { limit: 10, accept: () => true, all: true }), undefined);
  });
});

describe('namedDocuments', () => {
  // Resources and summaries drawn from a few words, so that terms repeat across documents and
  // within one; some documents have no summary, some resources an empty word.
  const words = ['pods', 'nodes', 'list', 'create', ''];
  const doc = fc.record({ resource: fc.array(fc.constantFrom(...words), { maxLength: 3 }), summary: fc.option(fc.array(fc.constantFrom(...words), { maxLength: 4 }), { nil: undefined }) });

  it('names, for any term asked in any order, the documents saying it in their resource or summary, ascending and once each', () => {
    fc.assert(
      fc.property(fc.array(doc, { maxLength: 30 }), fc.array(fc.constantFrom(...words, 'absent'), { maxLength: 12 }), (docs, asked) => {
        const entries = docs.map((d, i) => ({ ...makeEntry(endpoint('s', 'c', { method: 'GET', path: `/p${i}` }), i + 1, i), resource: d.resource }));
        const byDoc: ((typeof entries)[number] | undefined)[] = [];
        for (const e of entries) byDoc[e.doc] = e;
        const summaryOf = (n: number) => docs[n - 1]?.summary;
        const named = namedDocuments(byDoc, summaryScan(byDoc, summaryOf));
        for (const term of asked) {
          const expect = (has: (d: (typeof docs)[number]) => boolean) => {
            const out = docs.flatMap((d, i) => (has(d) ? [i + 1] : []));
            return out.length > 0 ? out : undefined;
          };
          assert.deepEqual(named.byResource(term), expect((d) => term !== '' && d.resource.includes(term)), `resource ${term}`);
          assert.deepEqual(named.bySummary(term), expect((d) => d.summary?.includes(term) === true), `summary ${term}`);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('the documents naming a term in their summary', () => {
  it('are the index\'s postings of the summary field, as a pass over every summary finds them', () => {
    const word = fc.constantFrom('list', 'pods', 'nodes', 'create', 'a', 'the', 'pod', 'namespaces', 'get');
    const input = fc.record({ method: fc.constantFrom('GET', 'POST'), summary: fc.option(fc.array(word, { minLength: 1, maxLength: 5 }).map((w) => w.join(' ')), { nil: undefined }), description: fc.option(fc.constantFrom('Lists pods.', 'Creates a node.'), { nil: undefined }) });
    fc.assert(
      fc.property(fc.array(input, { minLength: 1, maxLength: 25 }), (inputs) => {
        const entries = inputs.map((i, n) => makeEntry(endpoint('s', 'c', { method: i.method as 'GET', path: `/p${n}`, ...(i.summary ? { summary: i.summary } : {}), ...(i.description ? { description: i.description } : {}) }), n + 1, n));
        const built = buildIndex(entries);
        // As the index keeps them: a document's distinct summary terms, none for an empty field.
        const summaries = new Map(entries.flatMap((e, n) => (built.docs[n]!.s === EMPTY_FIELD ? [] : [[e.doc, [...new Set(built.docs[n]!.s)]] as const])));
        const byDoc: (typeof entries)[number][] = [];
        for (const e of entries) byDoc[e.doc] = e;
        const scanned = namedDocuments(byDoc, summaryScan(byDoc, (doc) => summaries.get(doc)));
        const mini = loadSource(built.data);
        const fromPostings = namedDocuments(byDoc, (term) => documentsHolding(mini, 's', term));
        const terms = new Set([...summaries.values()].flat());
        for (const term of [...terms, 'absent', '']) assert.deepEqual(fromPostings.bySummary(term), scanned.bySummary(term), term);
      }),
      { numRuns: 150 },
    );
  });
});
