// The catalogue's listings, look-ups and swaps, against a plain model of the same specs: every
// endpoint by spec, collection and tag in source order, counts per collection and tag, look-ups by
// id, search filters that name a spec of another collection, a swap that refuses duplicate names
// and changes nothing then, and specs passed again as the same object keeping their index.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Catalog } from '../../src/catalog/index.ts';
import { indexImage, prepareSpec } from '../../src/catalog/catalog.ts';
import { takePrepared } from '../../src/catalog/spec-state.ts';
import { type Endpoint, type HttpMethod, type ImportedSpec, SvcError } from '../../src/model/index.ts';
import { type EndpointInput, spec } from './fixtures.ts';

const METHODS: HttpMethod[] = ['GET', 'POST', 'DELETE'];
const TAGS = ['a', 'b', 'c', 'd'];
const COLLECTIONS = ['x', 'y', 'z'];

const endpointArb = fc.record({
  method: fc.constantFrom(...METHODS),
  path: fc.array(fc.constantFrom('pets', 'owners', '{id}', 'toys'), { minLength: 1, maxLength: 3 }).map((s) => `/${s.join('/')}`),
  tags: fc.array(fc.constantFrom(...TAGS), { maxLength: 3 }),
  deprecated: fc.boolean(),
});
const specArb = fc.record({ collection: fc.constantFrom(...COLLECTIONS), endpoints: fc.array(endpointArb, { maxLength: 8 }), title: fc.option(fc.constantFrom('Pets', 'Toys'), { nil: undefined }) });

function catalogueOf(raw: { collection: string; endpoints: EndpointInput[]; title: string | undefined }[]): ImportedSpec[] {
  return raw.map((r, i) => {
    const seen = new Set<string>();
    const unique = r.endpoints.filter((e) => !seen.has(`${e.method} ${e.path}`) && seen.add(`${e.method} ${e.path}`));
    return spec(`s${i}`, unique, { collection: r.collection, ...(r.title !== undefined ? { title: r.title } : {}) });
  });
}

const ids = (list: readonly Endpoint[]) => list.map((e) => e.id);

/** Tag -> count over `endpoints`, in first-seen order (an endpoint naming a tag twice counts once). */
function tagCounts(endpoints: readonly Endpoint[]): { tag: string; endpoints: number }[] {
  const counts = new Map<string, number>();
  for (const e of endpoints) for (const t of new Set(e.tags)) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts].map(([tag, n]) => ({ tag, endpoints: n }));
}

describe('catalogue listings', () => {
  it('list, count and look up exactly what the specs hold, in spec order then document order', () => {
    fc.assert(
      fc.property(fc.array(specArb, { maxLength: 5 }), fc.array(fc.record({ spec: fc.option(fc.constantFrom('s0', 's1', 's4', 'nope'), { nil: undefined }), collection: fc.option(fc.constantFrom(...COLLECTIONS), { nil: undefined }), tag: fc.option(fc.constantFrom(...TAGS, 'none'), { nil: undefined }) }), { maxLength: 6 }), (raw, filters) => {
        const specs = catalogueOf(raw);
        const catalog = new Catalog(specs);
        const all = specs.flatMap((s) => s.endpoints);
        assert.equal(catalog.size, all.length);
        assert.deepEqual(ids(catalog.list({})), ids(all));
        for (const f of filters) {
          const want = all.filter((e) => (f.spec === undefined || e.spec === f.spec) && (f.collection === undefined || e.collection === f.collection) && (f.tag === undefined || e.tags.includes(f.tag)));
          const filter = { ...(f.spec !== undefined ? { spec: f.spec } : {}), ...(f.collection !== undefined ? { collection: f.collection } : {}), ...(f.tag !== undefined ? { tag: f.tag } : {}) };
          assert.deepEqual(ids(catalog.list(filter)), ids(want), JSON.stringify(filter));
          // Asked twice (listings are kept once computed), the same.
          assert.deepEqual(ids(catalog.list(filter)), ids(want), JSON.stringify(filter));
        }
        assert.deepEqual(catalog.tags(), tagCounts(all));
        for (const s of specs) assert.deepEqual(catalog.tags(s.name), tagCounts(s.endpoints), s.name);
        assert.deepEqual(catalog.tags('nope'), []);
        const collections = [...new Set(specs.map((s) => s.collection))].map((name) => {
          const members = specs.filter((s) => s.collection === name);
          return { name, specs: members.map((s) => ({ name: s.name, endpoints: s.endpoints.length })), endpoints: members.reduce((n, s) => n + s.endpoints.length, 0) };
        });
        assert.deepEqual(catalog.collections(), collections);
        assert.deepEqual(catalog.collections(), collections);
        const summaries = specs.map((s) => ({ name: s.name, collection: s.collection, ...(s.title !== undefined ? { title: s.title } : {}), endpoints: s.endpoints.length, deprecated: s.endpoints.filter((e) => e.deprecated).length }));
        assert.deepEqual(catalog.summaries(), summaries);
        for (const e of all) assert.equal(catalog.get(e.id), e);
        for (const s of specs) assert.equal(catalog.spec(s.name), s);
        assert.equal(catalog.spec('nope'), undefined);
      }),
      { numRuns: 150 },
    );
  });

  it('find no endpoint for ids that are not endpoint ids, or that name no spec held', () => {
    const catalog = new Catalog([spec('pets', [{ method: 'GET', path: '/pets' }])]);
    assert.ok(catalog.get('pets:GET:/pets'));
    for (const id of ['', ':', 'pets', ':GET /pets', 'pets:', 'pets:GET:/pets/', 'pet:GET:/pets', 'petsGET:/pets', 'other:GET:/pets', 'pets:GET /pets']) assert.equal(catalog.get(id), undefined, id);
  });
});

describe('an empty catalogue', () => {
  it('holds nothing, lists nothing, finds nothing, and counts no swap yet', () => {
    for (const catalog of [new Catalog(), new Catalog([])]) {
      assert.equal(catalog.size, 0);
      assert.equal(catalog.generation, 0);
      assert.deepEqual(catalog.specs(), []);
      assert.deepEqual(catalog.list({}), []);
      assert.deepEqual(catalog.collections(), []);
      assert.deepEqual(catalog.tags(), []);
      assert.deepEqual(catalog.summaries(), []);
      assert.deepEqual(catalog.search('pets'), []);
      assert.deepEqual(catalog.searchPage('pets', {}, 0, 5), { hits: [], total: 0 });
      assert.deepEqual(catalog.suggest('pets:GET:/pets'), []);
    }
  });
});

describe('Catalog.replace', () => {
  const pets = () => spec('pets', [{ method: 'GET', path: '/pets', summary: 'List pets' }, { method: 'POST', path: '/pets', summary: 'Create a pet' }], { collection: 'animals' });
  const toys = () => spec('toys', [{ method: 'GET', path: '/toys', summary: 'List toys' }], { collection: 'things' });

  it('counts every swap, and refuses two specs of one name with the name and what to do, changing nothing', () => {
    const a = pets();
    const catalog = new Catalog([a]);
    assert.equal(catalog.generation, 1);
    catalog.replace([a, toys()]);
    assert.equal(catalog.generation, 2);
    let thrown: unknown;
    try {
      catalog.replace([toys(), pets(), toys()]);
    } catch (error) {
      thrown = error;
    }
    assert.ok(thrown instanceof SvcError);
    assert.equal(thrown.code, 'catalog-duplicate-spec');
    assert.equal(thrown.message, 'Two specs are named "toys": spec names must be unique.');
    assert.equal(thrown.hint, 'Give each spec its own name in svc.yaml.');
    assert.equal(catalog.generation, 2);
    assert.deepEqual(catalog.specs().map((s) => s.name), ['pets', 'toys']);
    assert.equal(catalog.search('list toys')[0]?.endpoint.id, 'toys:GET:/toys');
  });

  it('keeps the index of a spec passed again as the same object, and indexes a new object of the same name anew', () => {
    const a = pets();
    const catalog = new Catalog([a]);
    // A prepared state for `a` (with an image of another spec) would show in its answers if taken.
    prepareSpec(a, indexImage(toys()));
    catalog.replace([a, toys()]);
    assert.deepEqual(catalog.search('create pet', { spec: 'pets' }).map((h) => h.endpoint.id), ['pets:POST:/pets', 'pets:GET:/pets']);
    assert.ok(takePrepared(a), 'the kept spec did not take a prepared state');
    const b = pets();
    prepareSpec(b, indexImage(toys()));
    catalog.replace([b]);
    assert.deepEqual(catalog.search('create pet', { spec: 'pets' }).map((h) => h.endpoint.id), [], 'a new object takes its prepared state');
    assert.equal(takePrepared(b), undefined);
  });

  it('searches only the spec a filter names, and nothing when that spec is of another collection', () => {
    const catalog = new Catalog([pets(), toys()]);
    assert.deepEqual(catalog.search('list', { spec: 'pets', collection: 'animals' }).map((h) => h.endpoint.id), ['pets:GET:/pets']);
    assert.deepEqual(catalog.search('list', { spec: 'pets', collection: 'things' }), []);
    assert.deepEqual(catalog.search('list', { spec: 'nope' }), []);
    assert.deepEqual(catalog.search('list', { collection: 'things' }).map((h) => h.endpoint.id), ['toys:GET:/toys']);
    assert.deepEqual(catalog.searchPage('list', { spec: 'pets', collection: 'things' }, 0, 5), { hits: [], total: 0 });
    assert.deepEqual(catalog.search('list', {}, 0), []);
    assert.deepEqual(catalog.search('list', {}, -1), []);
    assert.deepEqual(catalog.suggest('pets:GET:/pets', 0), []);
  });

  it('refuses a search page that ends past the depth pages reach, saying where it ends and how to narrow', () => {
    const catalog = new Catalog([pets()]);
    assert.equal(catalog.searchPage('pets', {}, 990, 10).total, 2);
    let thrown: unknown;
    try {
      catalog.searchPage('pets', {}, 995, 7);
    } catch (error) {
      thrown = error;
    }
    assert.ok(thrown instanceof SvcError);
    assert.equal(thrown.code, 'search-too-deep');
    assert.equal(thrown.message, 'search pages reach 1000 results deep; this page would end at 1002');
    assert.equal(thrown.hint, 'add words or a spec, tag or method filter to narrow the search');
  });
});
