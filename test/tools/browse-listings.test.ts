// endpoint_by_spec, endpoint_by_collection and endpoint_by_tag: the overview each gives without
// its name argument (one line per name with counts, a true total, a cursor), and the endpoints of
// one name, on generated catalogues.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { z } from 'zod';
import { spec, type EndpointInput } from '../catalog/fixtures.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { endpointPage, listingOutputShape, paginate } from '../../src/tools/listing.ts';
import { benchOfSpecs } from './support.ts';

const TAGS = ['pets', 'owners', 'store', 'photos'];

/** Two to five specs in one to three collections, each with a few endpoints, tags and deprecations. */
const catalogue = fc
  .uniqueArray(fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/), { minLength: 2, maxLength: 5 })
  .chain((names) =>
    fc.tuple(
      ...names.map((name) =>
        fc.record({
          name: fc.constant(name),
          collection: fc.constantFrom('alpha', 'beta', 'gamma'),
          title: fc.option(fc.constantFrom('Pet Store', 'Weather', 'A "quoted" API'), { nil: undefined }),
          endpoints: fc.array(fc.record({ tags: fc.subarray(TAGS), deprecated: fc.boolean(), summary: fc.option(fc.constantFrom('List', 'Get one', 'Make'), { nil: undefined }) }), {
            minLength: 1,
            maxLength: 6,
          }),
        }),
      ),
    ),
  )
  .map((drafts) =>
    drafts.map((d) =>
      spec(
        d.name,
        d.endpoints.map((e, i): EndpointInput => ({ method: 'GET', path: `/${d.name}/${i}`, tags: e.tags, deprecated: e.deprecated, ...(e.summary ? { summary: e.summary } : {}) })),
        { collection: d.collection, ...(d.title ? { title: d.title } : {}) },
      ),
    ),
  );

const limitOf = fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined });
const structuredOk = (s: unknown): void => assert.ok(z.object(listingOutputShape).safeParse(s).success, JSON.stringify(s));

/** Follows the cursors from the first page (`none` or `''` for no cursor) to the last. */
async function pages(run: (cursor: string | undefined) => Promise<{ text: string; structured?: Record<string, unknown>; isError?: boolean }>) {
  const out = [];
  let cursor: string | undefined;
  do {
    const r = await run(cursor);
    assert.equal(r.isError, undefined, r.text);
    out.push(r);
    cursor = r.structured?.['nextCursor'] as string | undefined;
  } while (cursor !== undefined && out.length < 50);
  return out;
}

describe('endpoint_by_spec', () => {
  it('without spec: one line per spec with its counts, collection and title; a true total; pages to the end', async () => {
    await fc.assert(
      fc.asyncProperty(catalogue, limitOf, fc.constantFrom(undefined, ''), async (specs, limit, none) => {
        const bench = await benchOfSpecs(specs);
        const all = await pages((cursor) => bench.run('endpoint_by_spec', { ...(none !== undefined ? { spec: none } : {}), ...(limit ? { limit } : {}), ...(cursor ? { cursor } : {}) }));
        const lines = all.flatMap((r) => r.text.split('\n').slice(1).filter((l) => !l.startsWith('more: ')));
        assert.deepEqual(
          lines,
          specs.map((s) => {
            const dep = s.endpoints.filter((e) => e.deprecated).length;
            return `${s.name}: ${s.endpoints.length} endpoints${dep ? ` (${dep} deprecated)` : ''}, collection ${s.collection}${s.title ? `, "${s.title}"` : ''}`;
          }),
        );
        const structured = all.flatMap((r) => r.structured!['specs'] as unknown[]);
        assert.deepEqual(structured, specs.map((s) => ({ name: s.name, collection: s.collection, endpoints: s.endpoints.length, ...(s.title ? { title: s.title } : {}) })));
        for (const [i, r] of all.entries()) {
          const page = paginate(specs, i === 0 ? undefined : (all[i - 1]!.structured!['nextCursor'] as string), limit);
          const range = page.offset === 0 && !page.nextCursor ? `${specs.length}` : `${page.offset + 1}-${page.offset + page.items.length} of ${specs.length}`;
          assert.equal(r.text.split('\n')[0], `${range} specs; pass spec to list its endpoints`);
          assert.deepEqual(r.structured!['endpoints'], []);
          assert.equal(r.structured!['total'], specs.length);
          assert.equal(r.structured!['nextCursor'], page.nextCursor);
          assert.equal('nextCursor' in r.structured!, page.nextCursor !== undefined);
          assert.equal(r.text.split('\n').at(-1) === `more: cursor=${page.nextCursor}`, page.nextCursor !== undefined);
          structuredOk(r.structured);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("with spec: that spec's endpoints in source order, as endpointPage writes them", async () => {
    await fc.assert(
      fc.asyncProperty(catalogue, limitOf, async (specs, limit) => {
        const bench = await benchOfSpecs(specs);
        for (const s of specs) {
          const r = await bench.run('endpoint_by_spec', { spec: s.name, ...(limit ? { limit } : {}) });
          assert.deepEqual(r, endpointPage(paginate(s.endpoints, undefined, limit), `in spec ${s.name}`));
        }
      }),
      { numRuns: 20 },
    );
  });

  it('keeps a title with a line break on its spec line', async () => {
    const bench = await benchOfSpecs([spec('one', [{ method: 'GET', path: '/a' }], { title: 'Two\nlines' })]);
    assert.equal((await bench.run('endpoint_by_spec')).text, '1 specs; pass spec to list its endpoints\none: 1 endpoints, collection default, "Two lines"');
  });

  it('refuses an unknown spec, naming the tool that lists them', async () => {
    const bench = await benchOfSpecs([spec('pets', [{ method: 'GET', path: '/a' }])]);
    const r = await bench.run('endpoint_by_spec', { spec: 'pet' });
    assert.deepEqual(r, { isError: true, text: 'unknown spec "pet"\nhint: did you mean "pets"? Call endpoint_by_spec without spec to list them all' });
  });
});

describe('endpoint_by_collection', () => {
  const collectionsOf = (specs: readonly ImportedSpec[]) => {
    const out = new Map<string, ImportedSpec[]>();
    for (const s of specs) out.set(s.collection, [...(out.get(s.collection) ?? []), s]);
    return out;
  };

  it('without collection: one line per collection with its specs and counts; pages to the end', async () => {
    await fc.assert(
      fc.asyncProperty(catalogue, limitOf, fc.constantFrom(undefined, ''), async (specs, limit, none) => {
        const bench = await benchOfSpecs(specs);
        const byCollection = [...collectionsOf(specs)].map(([name, list]) => ({ name, list })).sort((a, b) => a.name.localeCompare(b.name));
        const all = await pages((cursor) =>
          bench.run('endpoint_by_collection', { ...(none !== undefined ? { collection: none } : {}), ...(limit ? { limit } : {}), ...(cursor ? { cursor } : {}) }),
        );
        const got = all.flatMap((r) => r.text.split('\n').slice(1).filter((l) => !l.startsWith('more: ')));
        const listed = bench.ctx.catalog.collections();
        assert.deepEqual([...listed.map((c) => c.name)].sort(), byCollection.map((c) => c.name));
        assert.deepEqual(
          got,
          listed.map((c) => {
            const list = collectionsOf(specs).get(c.name)!;
            return `${c.name}: ${list.reduce((n, s) => n + s.endpoints.length, 0)} endpoints; specs ${list.map((s) => `${s.name} (${s.endpoints.length})`).join(', ')}`;
          }),
        );
        assert.deepEqual(
          all.flatMap((r) => r.structured!['collections'] as unknown[]),
          listed.map((c) => ({ name: c.name, endpoints: c.endpoints, specs: c.specs.map((s) => ({ name: s.name, endpoints: s.endpoints })) })),
        );
        for (const [i, r] of all.entries()) {
          const page = paginate(listed, i === 0 ? undefined : (all[i - 1]!.structured!['nextCursor'] as string), limit);
          const range = page.offset === 0 && !page.nextCursor ? `${listed.length}` : `${page.offset + 1}-${page.offset + page.items.length} of ${listed.length}`;
          assert.equal(r.text.split('\n')[0], `${range} collections; pass collection to list its endpoints`);
          assert.deepEqual(r.structured!['endpoints'], []);
          assert.equal(r.structured!['total'], listed.length);
          assert.equal(r.structured!['nextCursor'], page.nextCursor);
          assert.equal('nextCursor' in r.structured!, page.nextCursor !== undefined);
          assert.equal(r.text.split('\n').at(-1) === `more: cursor=${page.nextCursor}`, page.nextCursor !== undefined);
          structuredOk(r.structured);
        }
      }),
      { numRuns: 40 },
    );
  });

  it("with collection: its specs' endpoints, as endpointPage writes them", async () => {
    await fc.assert(
      fc.asyncProperty(catalogue, limitOf, async (specs, limit) => {
        const bench = await benchOfSpecs(specs);
        for (const [name, list] of collectionsOf(specs)) {
          const r = await bench.run('endpoint_by_collection', { collection: name, ...(limit ? { limit } : {}) });
          assert.deepEqual(r, endpointPage(paginate(list.flatMap((s) => s.endpoints), undefined, limit), `in collection ${name}`));
        }
      }),
      { numRuns: 20 },
    );
  });

  it('refuses an unknown collection, naming the tool that lists them', async () => {
    const bench = await benchOfSpecs([spec('pets', [{ method: 'GET', path: '/a' }], { collection: 'park' })]);
    assert.deepEqual(await bench.run('endpoint_by_collection', { collection: 'parks' }), {
      isError: true,
      text: 'unknown collection "parks"\nhint: did you mean "park"? Call endpoint_by_collection without collection to list them all',
    });
    assert.deepEqual(await bench.run('endpoint_by_collection', { collection: 'zzzzzz' }), {
      isError: true,
      text: 'unknown collection "zzzzzz"\nhint: call endpoint_by_collection without collection to list the collections',
    });
  });
});

describe('endpoint_by_tag', () => {
  /** Tags in first-seen order with counts, over the specs given. */
  const tagCounts = (specs: readonly ImportedSpec[]): [string, number][] => {
    const counts = new Map<string, number>();
    for (const e of specs.flatMap((s) => s.endpoints)) for (const t of e.tags) counts.set(t, (counts.get(t) ?? 0) + 1);
    return [...counts];
  };

  it('without tag: one line per tag with its count, over all specs or one; pages to the end', async () => {
    await fc.assert(
      fc.asyncProperty(catalogue, limitOf, fc.constantFrom(undefined, ''), fc.boolean(), async (specs, limit, none, narrow) => {
        const bench = await benchOfSpecs(specs);
        const within = narrow ? specs[0]! : undefined;
        const counts = tagCounts(within ? [within] : specs);
        const listed = bench.ctx.catalog.tags(within?.name);
        assert.deepEqual([...listed.map((t) => [t.tag, t.endpoints])].sort(), [...counts].sort());
        const all = await pages((cursor) =>
          bench.run('endpoint_by_tag', {
            ...(none !== undefined ? { tag: none } : {}),
            ...(within ? { spec: within.name } : narrow ? {} : { spec: '' }),
            ...(limit ? { limit } : {}),
            ...(cursor ? { cursor } : {}),
          }),
        );
        assert.deepEqual(
          all.flatMap((r) => r.text.split('\n').slice(1).filter((l) => !l.startsWith('more: '))),
          listed.map((t) => `${t.tag}: ${t.endpoints}`),
        );
        assert.deepEqual(all.flatMap((r) => r.structured!['tags'] as unknown[]), listed.map((t) => ({ tag: t.tag, endpoints: t.endpoints })));
        const scope = within ? ` in spec ${within.name}` : '';
        for (const [i, r] of all.entries()) {
          const page = paginate(listed, i === 0 ? undefined : (all[i - 1]!.structured!['nextCursor'] as string), limit);
          const range =
            page.total === 0 ? '0' : page.offset === 0 && !page.nextCursor ? `${listed.length}` : `${page.offset + 1}-${page.offset + page.items.length} of ${listed.length}`;
          assert.equal(r.text.split('\n')[0], `${range} tags${scope}; pass tag to list its endpoints`);
          assert.deepEqual(r.structured!['endpoints'], []);
          assert.equal(r.structured!['total'], listed.length);
          assert.equal(r.structured!['nextCursor'], page.nextCursor);
          assert.equal('nextCursor' in r.structured!, page.nextCursor !== undefined);
          structuredOk(r.structured);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('with tag: the endpoints carrying it, over all specs or one, as endpointPage writes them', async () => {
    await fc.assert(
      fc.asyncProperty(catalogue, limitOf, async (specs, limit) => {
        const bench = await benchOfSpecs(specs);
        for (const [tag] of tagCounts(specs)) {
          const everywhere = specs.flatMap((s) => s.endpoints).filter((e) => e.tags.includes(tag));
          assert.deepEqual(await bench.run('endpoint_by_tag', { tag, ...(limit ? { limit } : {}) }), endpointPage(paginate(everywhere, undefined, limit), `tagged ${tag}`));
          assert.deepEqual(await bench.run('endpoint_by_tag', { tag, spec: '', ...(limit ? { limit } : {}) }), endpointPage(paginate(everywhere, undefined, limit), `tagged ${tag}`));
          for (const s of specs) {
            const here = s.endpoints.filter((e) => e.tags.includes(tag));
            const r = await bench.run('endpoint_by_tag', { tag, spec: s.name, ...(limit ? { limit } : {}) });
            if (here.length) assert.deepEqual(r, endpointPage(paginate(here, undefined, limit), `tagged ${tag} in spec ${s.name}`));
            else assert.equal(r.isError, true, `${tag} is not a tag of ${s.name}`);
          }
        }
      }),
      { numRuns: 20 },
    );
  });

  it('checks the spec before the tag, and the tag within that spec', async () => {
    const bench = await benchOfSpecs([spec('pets', [{ method: 'GET', path: '/a', tags: ['pets'] }]), spec('shop', [{ method: 'GET', path: '/b', tags: ['store'] }])]);
    assert.deepEqual(await bench.run('endpoint_by_tag', { spec: 'pet' }), {
      isError: true,
      text: 'unknown spec "pet"\nhint: did you mean "pets"? Call endpoint_by_spec without spec to list them all',
    });
    assert.deepEqual(await bench.run('endpoint_by_tag', { tag: 'pets', spec: 'pet' }), {
      isError: true,
      text: 'unknown spec "pet"\nhint: did you mean "pets"? Call endpoint_by_spec without spec to list them all',
    });
    assert.deepEqual(await bench.run('endpoint_by_tag', { tag: 'store', spec: 'pets' }), {
      isError: true,
      text: 'unknown tag "store"\nhint: call endpoint_by_tag without tag to list the tags',
    });
    assert.deepEqual(await bench.run('endpoint_by_tag', { tag: 'pet' }), {
      isError: true,
      text: 'unknown tag "pet"\nhint: did you mean "pets"? Call endpoint_by_tag without tag to list them all',
    });
  });

  it('keeps a tag with a line break on its own line', async () => {
    const bench = await benchOfSpecs([spec('pets', [{ method: 'GET', path: '/a', tags: ['two\nlines'] }])]);
    assert.equal((await bench.run('endpoint_by_tag')).text, '1 tags; pass tag to list its endpoints\ntwo lines: 1');
  });
});
