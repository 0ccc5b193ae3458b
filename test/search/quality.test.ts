// Regression guard for search quality: part of the query sets (four specs of different styles:
// REST with summaries, RPC-style methods, no summaries at all, many summary-less operations),
// imported from the real corpus. Thresholds sit just under the figures measured when the
// thresholds were last set (hit@1 0.824, hit@5 0.966 on these 119 queries; each spec has its own
// index, so these are the figures of each spec searched alone), so a ranking change
// that loses answers fails here; `npm run bench:search` reports the full sets.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Catalog } from '../../src/catalog/index.ts';
import { CORPUS, corpusAvailable, evaluate, importQuerySpecs, loadQueries, resolveIds } from './harness.ts';

const SPECS = ['spotify', 'slack', 'discord', 'twilio'];
const MIN_HIT1 = 0.81;
const MIN_HIT5 = 0.95;

describe('search quality on real API descriptions', { skip: corpusAvailable() ? false : `corpus not found at ${CORPUS}` }, () => {
  it(`finds the right endpoint first for at least ${MIN_HIT1} and in the top five for at least ${MIN_HIT5} of the queries`, async () => {
    const catalog = new Catalog(await importQuerySpecs(SPECS));
    const queries = resolveIds(
      loadQueries().filter((q) => SPECS.includes(q.spec)),
      catalog.list({}),
    );
    assert.ok(queries.length >= 100, `expected the query sets of ${SPECS.join(', ')}, found ${queries.length} queries`);
    const { scores, misses } = evaluate(queries, (q) => catalog.search(q.query, { spec: q.spec }, 10).map((h) => h.endpoint.id));
    const report = misses.map((m) => `  ${m.rank || '-'}  ${m.query.place}  "${m.query.query}"`).join('\n');
    assert.ok(scores.hit1 >= MIN_HIT1, `hit@1 ${scores.hit1.toFixed(3)} < ${MIN_HIT1}; misses:\n${report}`);
    assert.ok(scores.hit5 >= MIN_HIT5, `hit@5 ${scores.hit5.toFixed(3)} < ${MIN_HIT5}; misses:\n${report}`);
  });

  it('scores every query-set answer against an endpoint that exists', async () => {
    const catalog = new Catalog(await importQuerySpecs(SPECS));
    // resolveIds throws, naming the file and line, for an id the imported spec does not have.
    assert.doesNotThrow(() => resolveIds(loadQueries().filter((q) => SPECS.includes(q.spec)), catalog.list({})));
  });
});

describe('query set files', () => {
  it('hold at least 150 queries over at least five specs, each with an answer shaped like an id', () => {
    const queries = loadQueries();
    assert.ok(queries.length >= 150);
    assert.ok(new Set(queries.map((q) => q.spec)).size >= 5);
    for (const q of queries) {
      for (const id of q.accept) assert.match(id, new RegExp(`^${q.spec}:(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS):/`), q.place);
    }
  });
});
