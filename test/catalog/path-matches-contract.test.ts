// Endpoints a query names by path, against a model that looks at every endpoint of every spec:
// the same path first, then paths that end with it, each group in catalogue order after the paths
// written as the query writes them (placeholder names and case); with a method named, that
// method's endpoints before the others; only accepted endpoints; the first `limit` of them. A
// path of placeholders alone (`/{id}`) names only paths of placeholders alone.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { exactMatches, pathMatches } from '../../src/catalog/direct-matches.ts';
import { normalizePath } from '../../src/catalog/search.ts';
import { SpecState, pathKey } from '../../src/catalog/spec-state.ts';
import type { HttpMethod } from '../../src/model/index.ts';
import { spec } from './fixtures.ts';

const METHODS: HttpMethod[] = ['GET', 'POST', 'DELETE'];
const segment = fc.constantFrom('repos', 'pulls', '{id}', '{owner}', 'Pulls', 'issues');
const pathArb = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => `/${s.join('/')}`);
const specArb = fc.array(fc.record({ method: fc.constantFrom(...METHODS), path: pathArb }), { minLength: 1, maxLength: 10 });

describe('pathMatches', () => {
  it('finds the named paths\' endpoints as a look at every endpoint does, in the same order', () => {
    fc.assert(
      fc.property(fc.array(specArb, { minLength: 1, maxLength: 4 }), fc.array(pathArb, { minLength: 1, maxLength: 2 }), fc.option(fc.constantFrom(...METHODS), { nil: undefined }), fc.integer({ min: 1, max: 12 }), fc.boolean(), (raws, paths, method, limit, onlyGet) => {
        const states = raws.map((raw, i) => {
          const seen = new Set<string>();
          return new SpecState(spec(`s${i}`, raw.filter((e) => !seen.has(`${e.method} ${e.path}`) && seen.add(`${e.method} ${e.path}`))));
        });
        const accept = onlyGet ? (e: { endpoint: { method: string } }) => e.endpoint.method !== 'DELETE' : () => true;
        const groups: string[][] = method ? [[], [], [], []] : [[], []];
        const literalSegments = (p: string) => p.split('/').filter((seg) => seg !== '' && seg !== '{}').length;
        for (const raw of paths) {
          const want = normalizePath(raw);
          for (const state of states) {
            for (const entry of state.entries) {
              if (!accept(entry)) continue;
              const have = normalizePath(entry.endpoint.path);
              if (literalSegments(want) === 0 && literalSegments(have) > 0) continue;
              const kind = have === want ? 0 : have.endsWith(want) ? 1 : -1;
              if (kind < 0) continue;
              groups[method && entry.endpoint.method !== method ? kind + 2 : kind]!.push(entry.endpoint.id);
            }
          }
        }
        // Within each group, the paths written as the query writes them first (a stable sort).
        const typed = new Set(paths);
        const pathOf = (id: string) => id.slice(id.indexOf(':', id.indexOf(':') + 1) + 1);
        const want = groups.flatMap((g) => g.sort((a, b) => (typed.has(pathOf(a)) ? 0 : 1) - (typed.has(pathOf(b)) ? 0 : 1))).slice(0, limit);
        assert.deepEqual(pathMatches(states, paths, accept, limit, method).map((e) => e.endpoint.id), want);
      }),
      { numRuns: 400 },
    );
  });

  it('puts the path written as the query writes it first, in whichever spec holds it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 8 }), fc.nat(), fc.integer({ min: 1, max: 3 }), fc.boolean(), (count, pick, limit, withMethod) => {
        // Every spec has the same path but for its placeholder's name: all of them match once normalized.
        const states = Array.from({ length: count }, (_, i) => new SpecState(spec(`s${i}`, [{ method: 'GET', path: `/users/{p${i}}` }])));
        const k = pick % count;
        const hits = pathMatches(states, [`/users/{p${k}}`], () => true, limit, withMethod ? 'GET' : undefined);
        assert.equal(hits.length, Math.min(limit, count));
        assert.equal(hits[0]!.endpoint.id, `s${k}:GET:/users/{p${k}}`);
      }),
      { numRuns: 100 },
    );
  });

  it("puts the named method's endpoint first, though specs before it hold the path under other methods", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.constantFrom<HttpMethod>('POST', 'DELETE'), (before, other) => {
        // Specs whose literal path has another method come first; the named method's is last.
        const states = [
          ...Array.from({ length: before }, (_, i) => new SpecState(spec(`o${i}`, [{ method: other, path: '/users/{uid}' }]))),
          new SpecState(spec('wanted', [{ method: 'GET', path: '/users/{uid}' }])),
        ];
        const hits = pathMatches(states, ['/users/{uid}'], () => true, 1, 'GET');
        assert.deepEqual(hits.map((h) => h.endpoint.id), ['wanted:GET:/users/{uid}']);
      }),
      { numRuns: 20 },
    );
  });

  it('files a path under a key that every path it ends shares, when that path has a literal segment', () => {
    const seg = fc.constantFrom('a', 'b', '{}', 'a-{}', '');
    fc.assert(
      fc.property(fc.array(seg, { maxLength: 4 }), fc.array(seg, { maxLength: 4 }), (head, tail) => {
        const want = normalizePath(`/${tail.join('/')}`);
        const have = normalizePath(`/${[...head, ...tail].join('/')}`);
        assert.ok(have.endsWith(want) || want === '/');
        const key = pathKey(want);
        if (key) assert.equal(pathKey(have), key, `${have} and ${want}`);
        else assert.ok(!want.split('/').some((s) => s && s !== '{}'), `${want} has a literal segment but no key`);
      }),
      { numRuns: 500 },
    );
  });

  it('looks nothing up for an empty exact key', () => {
    const states = [new SpecState(spec('s', [{ method: 'GET', path: '/a', summary: '' }]))];
    assert.deepEqual(exactMatches(states, '', () => true), []);
  });
});
