// Entry facts (src/catalog/spec-state.ts `specImage`): what preparing a spec works out for its
// entries, kept in the snapshot so a start skips the text work. A spec prepared from its facts (as
// the snapshot holds them: JSON) must be the spec prepared from its endpoints: the same entries,
// id, exact-match and path look-ups, tags and search answers, for generated specs (repeated ids, shared
// paths, deprecated endpoints, operationIds); facts that do not fit the spec are refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import { type EntryFacts, prepareSpecInSteps, specImage } from '../../src/catalog/catalog.ts';
import { normalizePath } from '../../src/catalog/search.ts';
import { type SpecState, pathKey, takePrepared } from '../../src/catalog/spec-state.ts';
import type { HttpMethod, ImportedSpec } from '../../src/model/index.ts';
import { type EndpointInput, spec } from '../catalog/fixtures.ts';

const WORDS = ['list', 'get', 'create', 'delete', 'invoice', 'customer', 'card', 'refund', 'search', 'the'];
const METHODS: HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const QUERIES = ['list invoices', 'create customer', 'delete card', 'refund', 'get the customer card', 'searchInvoices'];

const endpointArb = fc.record({
  method: fc.constantFrom(...METHODS),
  segments: fc.array(fc.constantFrom('invoices', 'customers', 'cards', 'refunds', 'search', '{id}', 'v1'), { minLength: 1, maxLength: 3 }),
  summary: fc.option(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }), { nil: undefined }),
  operationId: fc.option(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }), { nil: undefined }),
  tags: fc.subarray(['billing', 'people', 'money']),
  deprecated: fc.boolean(),
});

/** A spec as generated: a repeated method and path is a repeated id, which preparing keeps once. */
type Raw = typeof endpointArb extends fc.Arbitrary<infer T> ? T : never;

function specOf(raw: readonly Raw[]): ImportedSpec {
  const inputs: EndpointInput[] = raw.map((r) => ({
    method: r.method,
    path: `/${r.segments.join('/')}`,
    ...(r.summary ? { summary: r.summary.join(' ') } : {}),
    ...(r.operationId ? { operationId: r.operationId.map((w: string, i: number) => (i ? w[0]!.toUpperCase() + w.slice(1) : w)).join('') } : {}),
    tags: r.tags,
    deprecated: r.deprecated,
  }));
  return spec('gen', inputs);
}

const pause = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** The spec's state as prepared from its endpoints, and as prepared from `facts`. */
async function bothWays(s: ImportedSpec, facts: EntryFacts): Promise<[SpecState, SpecState]> {
  const { index } = specImage(s);
  await prepareSpecInSteps(s, index, pause, false);
  const fromEndpoints = takePrepared(s)!;
  await prepareSpecInSteps(s, index, pause, false, facts);
  return [fromEndpoints, takePrepared(s)!];
}

describe('entry facts', () => {
  it('a spec prepared from its facts is the spec prepared from its endpoints', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(endpointArb, { minLength: 1, maxLength: 40 }), async (raw) => {
        const s = specOf(raw);
        const facts = JSON.parse(JSON.stringify(specImage(s).facts)) as EntryFacts;
        const [a, b] = await bothWays(s, facts);
        assert.deepEqual(b.entries, a.entries);
        b.entries.forEach((e, i) => assert.equal(e.endpoint, a.entries[i]!.endpoint, 'the spec\'s own endpoint objects'));
        assert.deepEqual(b.byTag, a.byTag);
        assert.equal(b.deprecated, a.deprecated);
        for (const e of s.endpoints) assert.deepEqual(b.byId.get(e.id), a.byId.get(e.id), e.id);
        assert.equal(b.byId.get('gen:GET:/nowhere'), undefined);
        for (const e of s.endpoints) for (const text of [e.summary, e.operationId]) if (text) assert.deepEqual(b.exact(text.toLowerCase()), a.exact(text.toLowerCase()));
        assert.deepEqual(b.byPath, a.byPath);
        for (const e of s.endpoints) {
          const key = pathKey(normalizePath(e.path));
          assert.deepEqual(b.underPathKey(key), a.underPathKey(key), key);
          assert.ok(a.underPathKey(key).some((entry) => entry.endpoint.path === e.path), `${e.path} filed under ${key}`);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('a catalogue of specs prepared from their facts answers every search as one prepared from the endpoints', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(endpointArb, { minLength: 1, maxLength: 40 }), fc.constantFrom(...QUERIES), async (raw, query) => {
        const s = specOf(raw);
        const { index, facts } = specImage(s);
        await prepareSpecInSteps(s, index, pause, true);
        const plain = new Catalog([s]).search(query).map((h) => [h.endpoint.id, h.score]);
        await prepareSpecInSteps(s, index, pause, true, JSON.parse(JSON.stringify(facts)) as EntryFacts);
        const fromFacts = new Catalog([s]).search(query).map((h) => [h.endpoint.id, h.score]);
        assert.deepEqual(fromFacts, plain);
      }),
      { numRuns: 30 },
    );
  });

  it('facts that do not fit the spec are refused, never served', async () => {
    const s = specOf([
      { method: 'GET', segments: ['invoices'], summary: ['list'], operationId: undefined, tags: [], deprecated: false },
      { method: 'POST', segments: ['invoices'], summary: ['create'], operationId: undefined, tags: [], deprecated: false },
    ]);
    const { index, facts } = specImage(s);
    const bad: unknown[] = [
      { ...facts, rows: facts.rows.slice(0, -1) },
      { ...facts, ids: facts.ids.slice(1) },
      { ...facts, rows: [99, ...facts.rows.slice(1)] },
      { ...facts, rows: [...facts.rows.slice(0, 2), 99, ...facts.rows.slice(3)] },
      { ...facts, lists: null },
      { ...facts, exact: 'x' },
      { ...facts, pathKeys: facts.pathKeys.slice(1) },
      { ...facts, pathKeys: undefined },
    ];
    for (const f of bad) {
      await assert.rejects(prepareSpecInSteps(s, index, pause, false, f as EntryFacts), /entry facts/, JSON.stringify(f));
      assert.equal(takePrepared(s), undefined, 'nothing prepared');
    }
  });
});
