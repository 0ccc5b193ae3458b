// A spec loaded from its snapshot holds each parameter, response and request body its endpoints
// repeat once (one object, one schema link), and still serves exactly what a fresh import serves.
// Its link table stays in the snapshot file until a schema is first followed.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { FileDigests } from '../../src/daemon/digests.ts';
import { SpecLoader } from '../../src/daemon/loader.ts';
import { importSpec } from '../../src/import/index.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { served, temp } from './support.ts';

const FILE = path.resolve(import.meta.dirname, '../fixtures/import/swagger20-azure/storage.json');
const OPTIONS = { name: 's', collection: 'default', allowRemoteRefs: false, allowRefsFrom: [], maxSpecBytes: 64 * 1024 * 1024 };
const loaders: SpecLoader[] = [];
after(async () => {
  await Promise.all(loaders.map((l) => l.close()));
});

async function start(cache: string): Promise<ImportedSpec> {
  const loader = new SpecLoader({ dir: cache, svcVersion: '1', digests: new FileDigests() });
  loaders.push(loader);
  const outcome = await loader.load(FILE, OPTIONS, true);
  assert.ok(outcome.ok);
  await loader.settled();
  return outcome.spec;
}

describe('a spec loaded from its snapshot', () => {
  it('holds a parameter its endpoints repeat as one object with one schema link', async (t) => {
    const tmp = temp();
    t.after(() => tmp.cleanup());
    const cache = path.join(tmp.dir, 'cache');
    await start(cache);
    const spec = await start(cache);
    const fresh = await importSpec(FILE, OPTIONS);
    assert.ok(fresh.ok);
    assert.deepEqual(served(spec), served(fresh.spec));

    const containers = spec.endpoints.flatMap((e) => e.parameters.filter((p) => p.name === 'container'));
    assert.equal(containers.length, 3, 'the fixture refers to one `container` parameter from three operations');
    assert.equal(new Set(containers).size, 1);
    assert.equal(new Set(containers.map((p) => p.schema)).size, 1);
    // A different parameter stays a different object.
    const restype = spec.endpoints.flatMap((e) => e.parameters.filter((p) => p.name === 'restype'));
    assert.equal(restype.length, 1);
    assert.notEqual(restype[0], containers[0]);
  });

  it('holds equal parameter, response and content-type lists as one array each', async (t) => {
    const tmp = temp();
    t.after(() => tmp.cleanup());
    const cache = path.join(tmp.dir, 'cache');
    await start(cache);
    const spec = await start(cache);
    const lists: [kind: string, list: readonly unknown[]][] = [
      ...spec.endpoints.map((e) => ['parameters', e.parameters] as [string, readonly unknown[]]),
      ...spec.endpoints.map((e) => ['responses', e.responses] as [string, readonly unknown[]]),
      ...spec.endpoints.flatMap((e) => e.responses.flatMap((r) => (r.contentTypes ? [['content types', r.contentTypes] as [string, readonly unknown[]]] : []))),
    ];
    // Lists by kind and by the identity of their items: each such group must be one array.
    const ids = new Map<unknown, number>();
    const idOf = (x: unknown) => ids.get(x) ?? (ids.set(x, ids.size), ids.size - 1);
    const arrays = new Map<string, Set<readonly unknown[]>>();
    for (const [kind, list] of lists) {
      const key = `${kind}:${list.map(idOf).join(',')}`;
      arrays.set(key, (arrays.get(key) ?? new Set()).add(list));
    }
    assert.ok(lists.length > arrays.size, 'the fixture repeats lists');
    for (const [key, set] of arrays) assert.equal(set.size, 1, `${key} is ${set.size} arrays`);
  });

  it('reads its index postings from the snapshot file on the first search, and makes them again when that file changed', async (t) => {
    const tmp = temp();
    t.after(() => tmp.cleanup());
    const cache = path.join(tmp.dir, 'cache');
    await start(cache);
    const fresh = await importSpec(FILE, OPTIONS);
    assert.ok(fresh.ok);
    const want = (served(fresh.spec) as { search: unknown }).search;
    const intact = await start(cache);
    assert.deepEqual((served(intact) as { search: unknown }).search, want);
    const changed = await start(cache);
    const [file] = readdirSync(cache).filter((f) => f.endsWith('.snap'));
    const bytes = readFileSync(path.join(cache, file!));
    // Every byte after the header's first kilobyte changed: the postings region with it.
    writeFileSync(path.join(cache, file!), Buffer.concat([bytes.subarray(0, 1024), Buffer.alloc(bytes.length - 1024, 0x20)]));
    assert.deepEqual((served(changed) as { search: unknown }).search, want);
  });

  it('reads its schema links from the snapshot file when first followed, and says so when that file changed', async (t) => {
    const tmp = temp();
    t.after(() => tmp.cleanup());
    const cache = path.join(tmp.dir, 'cache');
    await start(cache);
    const link = (spec: ImportedSpec) => spec.endpoints.flatMap((e) => e.parameters).find((p) => p.name === 'restype')!.schema!;

    const intact = await start(cache);
    assert.deepEqual(intact.schemas.resolve(link(intact)), { name: 'restype', in: 'query', required: true, type: 'string', enum: ['container'] });

    const changed = await start(cache);
    const [file] = readdirSync(cache).filter((f) => f.endsWith('.snap'));
    writeFileSync(path.join(cache, file!), 'replaced by another svc');
    const node = changed.schemas.resolve(link(changed)) as { $unresolved?: string; reason?: string };
    assert.equal(node.$unresolved, '');
    assert.match(node.reason ?? '', /snapshot file changed.*svc update/);
  });
});
