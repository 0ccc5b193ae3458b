// Index images (what a snapshot stores of a spec's search index) and specs prepared ahead of
// `replace`: a catalogue whose specs were restored from their images, stored as JSON, handed over
// lazily or in steps, answers every search exactly as one that built its indexes itself; an image
// restores to itself; a prepared spec is taken once, by the first catalogue that holds it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import { indexImage, leanPostings, prepareSpec, prepareSpecInSteps } from '../../src/catalog/catalog.ts';
import { type IndexImage, type MiniIndexData, type SearchIndex, parseQuery } from '../../src/catalog/search.ts';
import { SpecState, takePrepared } from '../../src/catalog/spec-state.ts';
import type { HttpMethod, ImportedSpec } from '../../src/model/index.ts';
import { type EndpointInput, spec } from './fixtures.ts';

const WORDS = ['list', 'get', 'create', 'delete', 'invoice', 'invoices', 'customer', 'card', 'refund', 'payout', 'webhook', 'report', 'all', 'the'];
const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

const endpointArb = fc.record({
  method: fc.constantFrom(...METHODS),
  segments: fc.array(fc.constantFrom('invoices', 'customers', 'cards', 'refunds', 'reports', '{id}'), { minLength: 1, maxLength: 3 }),
  summary: fc.option(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }), { nil: undefined }),
  description: fc.option(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }), { nil: undefined }),
  tags: fc.subarray(['billing', 'people', 'money']),
});

type RawEndpoint = { method: HttpMethod; segments: string[]; summary: string[] | undefined; description: string[] | undefined; tags: string[] };

function specOf(name: string, raw: readonly RawEndpoint[]): ImportedSpec {
  const seen = new Set<string>();
  const inputs: EndpointInput[] = [];
  for (const r of raw) {
    const path = `/${r.segments.join('/')}`;
    if (seen.has(`${r.method} ${path}`)) continue;
    seen.add(`${r.method} ${path}`);
    inputs.push({
      method: r.method,
      path,
      ...(r.summary ? { summary: r.summary.join(' ') } : {}),
      ...(r.description ? { description: `${r.description.join(' ')}. More words here.` } : {}),
      tags: r.tags,
    });
  }
  return spec(name, inputs);
}

/** The image's MiniSearch data (made when the image holds a function making it, as a built index's does). */
function dataOf(image: IndexImage): MiniIndexData {
  return typeof image.mini === 'function' ? image.mini() : image.mini;
}

/**
 * An image as a snapshot hands it back: through JSON, its MiniSearch data eager, lazy, or lazy with
 * lean postings (`steps`: what a snapshot file gives, loaded in steps by a preload).
 */
function stored(image: IndexImage, how: 'eager' | 'lazy' | 'steps', onSteps = () => {}): IndexImage {
  const copy = JSON.parse(JSON.stringify({ ...image, mini: dataOf(image) })) as IndexImage;
  const mini = copy.mini as MiniIndexData;
  if (how === 'eager') return copy;
  const make = () => JSON.parse(JSON.stringify(mini)) as MiniIndexData;
  if (how === 'lazy') return { ...copy, mini: make };
  const lean = () => {
    onSteps();
    const { index, ...head } = make();
    return { head, postings: leanPostings(index, Object.keys(head.fieldIds).length, head.documentCount) };
  };
  return { ...copy, mini: Object.assign(make, { lean }) };
}

/** Everything a search tells: ids and scores of the hits, the page's hits and total. */
function answers(catalog: Catalog, queries: readonly string[]): unknown[] {
  const out: unknown[] = [];
  for (const q of queries) {
    out.push(catalog.search(q, {}, 8).map((h) => `${h.endpoint.id} ${h.score}`));
    out.push(catalog.search(q, { method: 'GET' }, 3).map((h) => `${h.endpoint.id} ${h.score}`));
    const page = catalog.searchPage(q, {}, 2, 4);
    out.push([page.total, page.moreThanTotal, page.hits.map((h) => `${h.endpoint.id} ${h.score}`)]);
  }
  return out;
}

/**
 * An image as plain data, its MiniSearch terms in sorted order: MiniSearch writes them in the order
 * its tree holds them, which differs between the built form and one it loaded.
 */
function canonical(image: IndexImage): unknown {
  const plain = JSON.parse(JSON.stringify({ ...image, mini: dataOf(image) })) as { mini: { index: [string, unknown][] } };
  plain.mini.index.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return plain;
}

/** One index's own ranking of `query`: ids and scores. */
function ranked(index: SearchIndex, query: string): string[] {
  return index.rank(parseQuery(query), { limit: 10, accept: () => true, all: true }).map((r) => `${r.entry.endpoint.id} ${r.score}`);
}

const queryArb = fc.array(fc.array(fc.constantFrom(...WORDS, 'invoic', 'custom', 'refunds'), { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')), { minLength: 1, maxLength: 4 });

describe('index images', () => {
  it('restored, however a snapshot hands them back, answer every search as the indexes they were made of', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(endpointArb, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 3 }),
        queryArb,
        fc.constantFrom('eager', 'lazy', 'steps'),
        fc.boolean(),
        async (raws, queries, how, preload) => {
          const built = raws.map((r, i) => specOf(`s${i}`, r));
          const restored = raws.map((r, i) => specOf(`s${i}`, r));
          let stepped = 0;
          for (const s of restored) {
            const image = stored(indexImage(s), how as 'eager' | 'lazy' | 'steps', () => stepped++);
            if (how === 'eager') prepareSpec(s, image);
            else await prepareSpecInSteps(s, image, () => Promise.resolve(), preload);
          }
          // Preloading reads a snapshot's lean postings ahead of the first search.
          assert.equal(stepped, how === 'steps' && preload ? restored.length : 0);
          assert.deepEqual(answers(new Catalog(restored), queries), answers(new Catalog(built), queries));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('restore to themselves: a restored index gives back the image it came from, before and after its first search', () => {
    fc.assert(
      fc.property(fc.array(endpointArb, { minLength: 1, maxLength: 15 }), fc.constantFrom('eager', 'lazy'), queryArb, (raw, how, queries) => {
        const s = specOf('s', raw);
        const image = indexImage(s);
        const json = canonical(image);
        const state = new SpecState(s, stored(image, how as 'eager' | 'lazy'));
        assert.deepEqual(canonical(state.index.image()), json);
        // The first search loads MiniSearch; the image is then made from it, and is the same.
        const fresh = new SpecState(s);
        for (const q of queries) assert.deepEqual(ranked(state.index, q), ranked(fresh.index, q), q);
        assert.deepEqual(canonical(state.index.image()), json);
      }),
      { numRuns: 40 },
    );
  });

  it('hold each summary\'s distinct terms by document id, and null for endpoints without one', () => {
    const s = spec('s', [
      { method: 'GET', path: '/a', summary: 'List invoices invoices' },
      { method: 'GET', path: '/b' },
      { method: 'GET', path: '/c', summary: 'the' },
    ]);
    const { summaries, terms, df, best } = indexImage(s);
    assert.deepEqual(summaries.slice(1), [['list', 'invoic'], null, null]);
    assert.equal(terms.length, df.length);
    assert.equal(terms.length, best.length);
    assert.equal(df[terms.indexOf('invoic')], 1);
    assert.ok(best.every((b) => b > 0));
  });
});

describe('a spec prepared ahead of replace', () => {
  it('is taken once, by the first catalogue that holds it; a second preparation of it changes nothing', () => {
    const s = specOf('s', [{ method: 'GET', segments: ['invoices'], summary: ['list', 'invoices'], description: undefined, tags: [] }]);
    const other = specOf('o', [{ method: 'GET', segments: ['cards'], summary: ['list', 'cards'], description: undefined, tags: [] }]);
    prepareSpec(s);
    // Prepared already: this image (of another spec) is not taken in.
    prepareSpec(s, indexImage(other));
    const state = takePrepared(s);
    assert.ok(state);
    assert.equal(state.spec, s);
    assert.deepEqual(canonical(state.index.image()), canonical(indexImage(s)));
    assert.equal(takePrepared(s), undefined);
  });

  it('is what the catalogue searches: a catalogue takes the prepared state of a spec it did not hold', () => {
    const s = specOf('s', [{ method: 'GET', segments: ['invoices'], summary: ['list', 'invoices'], description: undefined, tags: [] }]);
    const other = specOf('s', [{ method: 'GET', segments: ['cards'], summary: ['list', 'cards'], description: undefined, tags: [] }]);
    // An image that does not fit the spec shows which index the catalogue searches.
    prepareSpec(s, indexImage(other));
    const catalog = new Catalog([s]);
    assert.equal(catalog.search('cards').length, 1);
    assert.equal(takePrepared(s), undefined, 'taken by the catalogue');
    // A catalogue made again from the same spec object builds its own.
    assert.equal(new Catalog([s]).search('cards').length, 0);
    assert.equal(new Catalog([s]).search('invoices').length, 1);
  });

  it('in steps, gives the thread back at least once per 250 endpoints, and not at all when it is prepared already', async () => {
    const inputs: EndpointInput[] = Array.from({ length: 620 }, (_, i) => ({ method: 'GET' as const, path: `/things${i}`, summary: `Get thing ${i}` }));
    const s = spec('big', inputs);
    let pauses = 0;
    const pause = () => {
      pauses++;
      return Promise.resolve();
    };
    await prepareSpecInSteps(s, indexImage(s), pause);
    assert.ok(pauses >= Math.floor(620 / 250), `${pauses} pauses`);
    const before = pauses;
    await prepareSpecInSteps(s, indexImage(s), pause);
    assert.equal(pauses, before, 'prepared already');
    const state = takePrepared(s);
    assert.ok(state);
    assert.equal(state.entries.length, 620);
    assert.equal(state.byId.get(s.endpoints[437]!.id)?.endpoint, s.endpoints[437]);
  });
});

describe('SearchIndex.preload', () => {
  it('may run before, after, or twice around searches, and leaves answers unchanged', async () => {
    const specs = [specOf('a', [{ method: 'GET', segments: ['invoices'], summary: ['list', 'invoices'], description: undefined, tags: [] }, { method: 'POST', segments: ['invoices'], summary: ['create', 'invoice'], description: undefined, tags: [] }])];
    const want = ranked(new SpecState(specs[0]!).index, 'create invoice');
    assert.ok(want.length > 0);
    for (const how of ['eager', 'lazy', 'steps'] as const) {
      const s = specOf('a', [{ method: 'GET', segments: ['invoices'], summary: ['list', 'invoices'], description: undefined, tags: [] }, { method: 'POST', segments: ['invoices'], summary: ['create', 'invoice'], description: undefined, tags: [] }]);
      const state = new SpecState(s, stored(indexImage(s), how));
      await state.index.preload();
      await state.index.preload();
      assert.deepEqual(ranked(state.index, 'create invoice'), want);
      // After the first search MiniSearch is loaded: preloading then changes nothing.
      const searched = new SpecState(s, stored(indexImage(s), how));
      assert.deepEqual(ranked(searched.index, 'create invoice'), want);
      await searched.index.preload();
      assert.deepEqual(ranked(searched.index, 'list invoices'), ranked(state.index, 'list invoices'));
      assert.deepEqual(canonical(searched.index.image()), canonical(indexImage(s)));
    }
  });
});
