// The search evaluation itself is right: scores from known ranks, whole-catalogue scoring that
// counts only the right spec's ids, known-item queries, query files and id checks, on a tiny
// fixture catalogue of two specs whose figures are known.
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { isReserved } from './apis.ts';
import { type Query, firstRank, importFixtureSpecs, loadQueries, parseQueryFile, resolveIds } from './harness.ts';
import { type QueryResult, type Searcher, baselineSearcher, figures, knownItemQueries, ourSearcher, percentile, runQueries } from './measure.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

const query = (text: string, accept: string[], spec = 'alpha'): Query => ({ spec, query: text, accept, set: 'dev', heldOut: false, place: `fixture:${text}` });
const result = (rank: number, ms = 1): QueryResult => ({ query: query('q', ['x']), rank, top: rank === 0 ? [] : ['a'], ms });

describe('search evaluation scoring', () => {
  it('computes hit@1, hit@5 and MRR from the rank of the first accepted answer', () => {
    // ranks 1, 2, 6, not found: hit@1 1/4, hit@5 2/4, MRR (1 + 1/2 + 1/6) / 4
    const f = figures([result(1), result(2), result(6), result(0)]);
    assert.equal(f.queries, 4);
    assert.equal(f.hit1, 0.25);
    assert.equal(f.hit5, 0.5);
    assert.ok(Math.abs(f.mrr - (1 + 1 / 2 + 1 / 6) / 4) < 1e-12);
    assert.equal(f.empty, 1);
  });

  it('agrees with a direct count for any ranks, and keeps hit@1 <= MRR <= hit@5 + (1 - hit@5) / 6', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 10 }), { minLength: 1, maxLength: 60 }), (ranks) => {
        const f = figures(ranks.map((r) => result(r)));
        const n = ranks.length;
        assert.equal(f.hit1, ranks.filter((r) => r === 1).length / n);
        assert.equal(f.hit5, ranks.filter((r) => r >= 1 && r <= 5).length / n);
        assert.ok(f.hit1 <= f.mrr + 1e-12);
        assert.ok(f.mrr <= f.hit5 + (1 - f.hit5) / 6 + 1e-12);
      }),
    );
  });

  it('finds the first accepted id, 0 when absent', () => {
    assert.equal(firstRank(['a', 'b', 'c'], ['c', 'b']), 2);
    assert.equal(firstRank(['a'], ['z']), 0);
    assert.equal(firstRank([], ['z']), 0);
  });

  it('takes percentiles by nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    assert.equal(percentile(values, 50), 50);
    assert.equal(percentile(values, 99), 99);
    assert.equal(percentile([], 50), 0);
  });
});

describe('search evaluation on a fixture catalogue', () => {
  let specs: ImportedSpec[];
  let catalog: Catalog;
  before(async () => {
    specs = await importFixtureSpecs(['alpha', 'beta']);
    catalog = new Catalog(specs);
  });

  it('counts an answer over the whole catalogue only when it comes from the right spec', () => {
    // Both specs have GET /notes; a searcher that puts beta's copy first misses hit@1 for alpha.
    const betaFirst: Searcher = () => ['beta:GET:/notes', 'alpha:GET:/notes'];
    const [r] = runQueries([query('list notes', ['alpha:GET:/notes'])], betaFirst, 'whole');
    assert.equal(r!.rank, 2);
    // Within the spec the searcher is asked with the spec: the same rule, so the filter is passed on.
    const seen: (string | undefined)[] = [];
    runQueries([query('list notes', ['alpha:GET:/notes'])], (_q, spec) => (seen.push(spec), []), 'within');
    assert.ok(seen.every((s) => s === 'alpha'));
    const whole: (string | undefined)[] = [];
    runQueries([query('list notes', ['alpha:GET:/notes'])], (_q, spec) => (whole.push(spec), []), 'whole');
    assert.ok(whole.every((s) => s === undefined));
  });

  it('makes one known-item query per distinct text, answered by any endpoint that has it', () => {
    const summaries = knownItemQueries(catalog.list({}), 'summary', () => 'dev');
    const shared = summaries.find((q) => q.query === 'Shared summary');
    assert.deepEqual([...shared!.accept].sort(), ['alpha:POST:/archive', 'beta:GET:/reports']);
    assert.equal(summaries.length, 5); // List notes (twice), Create a note, Get a note, Delete a note, Shared summary (twice)
    const ids = knownItemQueries(catalog.list({}), 'operationId', () => 'dev');
    assert.deepEqual(ids.map((q) => q.query).sort(), ['createNote', 'getNote', 'listNotes', 'listReports']);
    const paths = knownItemQueries(catalog.list({}), 'method+path', () => 'dev');
    assert.equal(paths.length, 6);
    assert.deepEqual([...paths.find((q) => q.query === 'GET /notes')!.accept].sort(), ['alpha:GET:/notes', 'beta:GET:/notes']);
  });

  it('scores the real catalogue: every `METHOD /path` of the fixture is found first', () => {
    const qs = knownItemQueries(catalog.list({}), 'method+path', () => 'dev');
    const f = figures(runQueries(qs, ourSearcher(catalog), 'whole'));
    assert.equal(f.hit1, 1);
    assert.equal(f.empty, 0);
  });

  it('gives the baseline the spec name and title, so a query naming the product finds it', () => {
    const base = baselineSearcher(specs);
    assert.equal(base('beta', undefined)[0]?.startsWith('beta:'), true);
    assert.deepEqual(
      base('notes', 'beta').every((id) => id.startsWith('beta:')),
      true,
    );
  });

  it('resolves written ids against the catalogue and rejects one that does not exist, naming its place', () => {
    const ok = resolveIds([query('x', ['alpha:GET:/notes'])], catalog.list({}));
    assert.deepEqual(ok[0]!.accept, ['alpha:GET:/notes']);
    assert.throws(() => resolveIds([query('x', ['alpha:GET:/nowhere'])], catalog.list({})), /fixture:x: no endpoint alpha:GET:\/nowhere/);
  });

  it('reads development queries from the folder and test queries from its test/ folder', () => {
    const all = loadQueries(path.join(FIXTURES, 'queries'));
    assert.deepEqual(
      all.map((q) => [q.spec, q.set, q.query]),
      [
        ['alpha', 'dev', 'list notes'],
        ['alpha', 'dev', 'create a note'],
        ['beta', 'test', 'reports'],
      ],
    );
    assert.deepEqual(
      loadQueries(path.join(FIXTURES, 'queries'), ['dev']).map((q) => q.set),
      ['dev', 'dev'],
    );
    assert.throws(() => parseQueryFile(path.join(FIXTURES, 'bad.tsv'), 'bad', 'dev', false), /bad\.tsv:1: expected "query<TAB>endpoint ids/);
  });

  it('knows the reserved APIs, with their services and versions', () => {
    for (const id of ['github.com', 'github.com/api.github.com', 'microsoft.com/graph', 'microsoft.com/graph-beta', 'trello.com', 'telegram.org']) {
      assert.equal(isReserved(id), true, id);
    }
    for (const id of ['box.com', 'microsoft.com/cognitiveservices-WebSearch', 'xero.com/xero_accounting']) assert.equal(isReserved(id), false, id);
  });
});
