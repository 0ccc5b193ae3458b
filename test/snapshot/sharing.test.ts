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
import { indexImage } from '../../src/catalog/catalog.ts';
import type { DocumentSchemaResolver } from '../../src/import/schemas.ts';
import { decodeCore, encodeCore, specFromCore } from '../../src/snapshot/index.ts';
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

  it('swaps each shared parameter, body content and response link once, as walking every endpoint for them does', async () => {
    const fresh = await importSpec(FILE, OPTIONS);
    assert.ok(fresh.ok);
    const docs = (fresh.spec.schemas as DocumentSchemaResolver).documents;
    const core = encodeCore(fresh.spec, (f) => docs.doc(f), indexImage(fresh.spec), fresh.spec.files.map((f) => docs.digest(f) ?? ''));
    const decoded = await decodeCore(new Uint8Array(core));
    // The holders the decoder lists: every object of the endpoints that holds a link, each once.
    const holding = new Set<object>();
    for (const e of decoded.endpoints) for (const o of [...e.parameters, ...(e.requestBody?.contents ?? []), ...e.responses]) if (o.schema) holding.add(o);
    assert.ok(holding.size > 0);
    assert.equal(decoded.linkHolders?.length, holding.size);
    assert.deepEqual(new Set(decoded.linkHolders), holding);
    const viaHolders = specFromCore(decoded, undefined);
    // The reference: every endpoint walked for what holds a link (the same object again for each endpoint that shares it).
    const again = await decodeCore(new Uint8Array(core));
    const everyUse: object[] = [];
    for (const e of again.endpoints) for (const o of [...e.parameters, ...(e.requestBody?.contents ?? []), ...e.responses]) if (o.schema) everyUse.push(o);
    const walked = specFromCore({ ...again, linkHolders: everyUse }, undefined);
    assert.deepEqual(served(viaHolders), served(walked));
    assert.deepEqual(served(viaHolders), served(fresh.spec));
    // One link object per row either way: the `container` parameter's three uses share one.
    const links = (spec: ImportedSpec) => new Set(spec.endpoints.flatMap((e) => e.parameters.map((p) => p.schema)));
    assert.equal(links(viaHolders).size, links(walked).size);
  });
});
