// Schemas of a spec served from its snapshot file (src/snapshot/detail.ts) are read from that file
// when first followed, long after the start checked its header: a detail part, a segment or the link
// table changed on disk since must never be served as the spec's schema. A damaged detail part or
// segment is read from the source file instead while that file still holds the bytes the spec was
// imported from; otherwise the schema says what is missing. A link table changed since the start
// says the snapshot changed. Real import, real snapshot file, real source files in a temp folder.
import assert from 'node:assert/strict';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { importSpec } from '../../src/import/index.ts';
import type { ImportedSpec, SchemaLink } from '../../src/model/index.ts';
import { decodeCore, readSnapshot, specFromCore, specFromCoreInSteps, writeSnapshot } from '../../src/snapshot/index.ts';
import { encodedCore, encodedLate, served, temp, type Temp } from './support.ts';

const KEY = 'f'.repeat(40);
const MARK = 'changedAfterTheSnapshot';

/** A single-file description large enough that its document is cut into many segments. */
function bigSpec(schemas = 60): string {
  const components: Record<string, unknown> = {};
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < schemas; i++) {
    components[`Thing${i}`] = {
      type: 'object',
      description: `Thing number ${i}. ${'A long description that makes the schema take room. '.repeat(6)}`,
      properties: {
        id: { type: 'string', description: `id of thing ${i}` },
        count: { type: 'integer', minimum: i },
        ...(i > 0 ? { previous: { $ref: `#/components/schemas/Thing${i - 1}` } } : {}),
      },
    };
    paths[`/things${i}/{id}`] = {
      get: {
        operationId: `getThing${i}`,
        summary: `Get thing ${i}`,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: `^t${i}-` } }],
        responses: { '200': { description: 'found', content: { 'application/json': { schema: { $ref: `#/components/schemas/Thing${i}` } } } } },
      },
    };
  }
  // A response schema written inline and large enough to be a segment of its own.
  const fields = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`field${i}`, { type: 'string', description: `Field ${i} of the inline schema, described at some length.` }]));
  paths['/inline'] = { get: { responses: { '200': { description: 'inline', content: { 'application/json': { schema: { type: 'object', properties: fields } } } } } } };
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'Big', version: '1' }, paths, components: { schemas: components } });
}

interface Saved {
  readonly file: string;
  readonly snap: string;
  readonly bytes: Buffer;
  readonly detailOffset: number;
  readonly coreOffset: number;
  /** What the import serves. */
  readonly want: unknown;
}

/** Imports `file`, writes its snapshot into the temp folder and gives where it lies. */
async function save(tmp: Temp, file: string): Promise<Saved> {
  const outcome = await importSpec(file, { name: 's', collection: 'default' });
  assert.ok(outcome.ok);
  const spec = outcome.spec;
  const written = await writeSnapshot(path.join(tmp.dir, 'cache'), KEY, encodedCore(spec), encodedLate(spec));
  return { file, snap: written.file, bytes: readFileSync(written.file), detailOffset: written.detailOffset, coreOffset: written.coreOffset, want: served(spec) };
}

/** Writes `text` as a description in a temp folder, imports and snapshots it, runs `body`, and removes the folder. */
async function withSaved(text: string, body: (s: Saved) => Promise<void>): Promise<void> {
  const tmp = temp();
  try {
    const file = path.join(tmp.dir, 'big.json');
    writeFileSync(file, text);
    await body(await save(tmp, file));
  } finally {
    tmp.cleanup();
  }
}

/** The spec as a start loads it from the snapshot file now on disk (its header and core checked). */
async function load(s: Saved): Promise<ImportedSpec> {
  const read = await readSnapshot(path.dirname(s.snap), KEY);
  assert.ok(read.ok, JSON.stringify(read));
  return specFromCore(await decodeCore(read.core), { file: read.file, coreOffset: read.coreOffset, detailOffset: read.detailOffset, parts: read.parts });
}

function links(spec: ImportedSpec): SchemaLink[] {
  return spec.endpoints.flatMap((e) => [...e.parameters.map((p) => p.schema), ...(e.requestBody?.contents.map((c) => c.schema) ?? []), ...e.responses.map((r) => r.schema)]).filter((l): l is SchemaLink => l !== undefined);
}

/** Every link's schema, resolved, as text. */
function schemasText(spec: ImportedSpec): string {
  return JSON.stringify(links(spec).map((l) => spec.schemas.resolve(l, { maxDepth: 64 })));
}

function damaged(good: Buffer, at: number, mask: number): Buffer {
  const bad = Buffer.from(good);
  bad[at]! ^= mask;
  return bad;
}

describe('a damaged detail in a snapshot file', () => {
  it('any byte of it changed: the schemas are the import\'s, read from the unchanged source file', async () => {
    await withSaved(bigSpec(), async (s) => {
      assert.ok(s.bytes.length - s.detailOffset > 20_000, 'a detail of many segments');
      const places = fc.integer({ min: s.detailOffset, max: s.bytes.length - 1 });
      // The part's lead and table, and generated places in its segments.
      const edges = [s.detailOffset, s.detailOffset + 3, s.detailOffset + 4, s.detailOffset + 10, s.bytes.length - 1];
      const check = async (at: number, mask: number): Promise<void> => {
        writeFileSync(s.snap, damaged(s.bytes, at, mask));
        assert.deepEqual(served(await load(s)), s.want, `byte ${at}`);
      };
      for (const at of edges) await check(at, 0x01);
      await fc.assert(fc.asyncProperty(places, fc.integer({ min: 1, max: 255 }), check), { numRuns: 25 });
    });
  });

  it('any byte of it changed and the source file changed too: each schema is the one imported or says what is missing, never the changed file\'s', async () => {
    const text = bigSpec();
    await withSaved(text, async (s) => {
      const file = s.file;
      const whole = await load(s);
      const before = links(whole).map((l) => JSON.stringify(whole.schemas.resolve(l, { maxDepth: 64 })));
      writeFileSync(file, text.replaceAll('"count"', `"${MARK}"`));
      const check = async (at: number, mask: number): Promise<void> => {
        writeFileSync(s.snap, damaged(s.bytes, at, mask));
        const spec = await load(s);
        const got = links(spec).map((l) => JSON.stringify(spec.schemas.resolve(l, { maxDepth: 64 })));
        assert.doesNotMatch(got.join('\n'), new RegExp(MARK), `byte ${at}`);
        got.forEach((g, i) => {
          if (!g.includes('$unresolved')) assert.equal(g, before[i], `byte ${at}, link ${i}`);
        });
      };
      // The lead and table of the part (its length, its JSON, a segment's checksum in it): no
      // segment can be trusted, none is read, and the source file no longer holds the document.
      const hashAt = s.bytes.indexOf('"', s.detailOffset + 4) + 1;
      for (const at of [s.detailOffset, s.detailOffset + 5, hashAt]) {
        await check(at, 0x01);
        const spec = await load(s);
        for (const l of links(spec)) assert.equal((l.node as { reason?: string }).reason, 'the document could not be read again; run svc update', `byte ${at}`);
      }
      await fc.assert(fc.asyncProperty(fc.integer({ min: s.detailOffset + 20, max: s.bytes.length - 1 }), fc.integer({ min: 1, max: 255 }), check), { numRuns: 25 });
      // The root segment (the last) damaged: no document at all.
      writeFileSync(s.snap, damaged(s.bytes, s.bytes.length - 2, 0x01));
      assert.match(schemasText(await load(s)), /"reason":"the document could not be read again; run svc update"/);
      assert.doesNotMatch(schemasText(await load(s)), /"reason":"the snapshot is damaged/);
      // Each other segment damaged: what stood in it is missing, and the schemas that lead into it say so.
      const tableLength = s.bytes.readUInt32LE(s.detailOffset);
      const rows = JSON.parse(s.bytes.toString('utf8', s.detailOffset + 4, s.detailOffset + 4 + tableLength)) as [number, string][];
      assert.ok(rows.length >= 3, `${rows.length} segments`);
      let at = s.detailOffset + 4 + tableLength;
      let named = 0;
      for (const [length] of rows.slice(0, -1)) {
        writeFileSync(s.snap, damaged(s.bytes, at + length - 1, 0x01));
        const text = schemasText(await load(s));
        assert.match(text, /"\$unresolved":/);
        assert.doesNotMatch(text, new RegExp(MARK));
        if (text.includes('"$unresolved":"/paths/~1inline/get/responses/200/content/application~1json/schema/properties","reason":"the snapshot is damaged and the file changed since; run svc update"')) named++;
        at += length;
      }
      // The inline schema's properties are a segment of their own: the schema names that place and why.
      assert.equal(named, 1);
    });
  });

  it('its source file gone as well: the schema says the document could not be read again', async () => {
    await withSaved(bigSpec(8), async (s) => {
      const file = s.file;
      rmSync(file);
      writeFileSync(s.snap, damaged(s.bytes, s.detailOffset + 1, 0x10));
      const spec = await load(s);
      for (const l of links(spec)) {
        const node = l.node as { $unresolved?: string; reason?: string };
        assert.equal(node.reason, 'the document could not be read again; run svc update', JSON.stringify(node));
        assert.equal(typeof node.$unresolved, 'string');
      }
    });
  });
});

describe('a snapshot file changed after the spec was loaded from it', () => {
  it('its link table changed: every schema says the snapshot changed, in the spec\'s own file', async () => {
    await withSaved(bigSpec(8), async (s) => {
      const file = s.file;
      const read = await readSnapshot(path.dirname(s.snap), KEY);
      assert.ok(read.ok);
      const core = await decodeCore(read.core);
      const linksAt = read.coreOffset + core.linksOffset;
      const spec = specFromCore(core, { file: read.file, coreOffset: read.coreOffset, detailOffset: read.detailOffset, parts: read.parts });
      // Changed after the start checked it: the table is read (and checked) when a schema is first followed.
      writeFileSync(s.snap, damaged(s.bytes, linksAt + 2, 0x01));
      for (const l of links(spec)) {
        assert.deepEqual(l.node, { $unresolved: '', reason: 'the snapshot file changed since this spec was loaded; run svc update' });
        assert.equal(l.file, file);
      }
    });
  });

  it('removed before a schema was followed: the same, never a crash', async () => {
    await withSaved(bigSpec(4), async (s) => {
      const file = s.file;
      const spec = await load(s);
      rmSync(s.snap);
      for (const l of links(spec)) assert.equal((l.node as { reason?: string }).reason, 'the snapshot file changed since this spec was loaded; run svc update');
    });
  });

  it('replaced once its documents are being read: the rest are read from the file as opened, still the import\'s', async () => {
    const text = bigSpec();
    await withSaved(text, async (s) => {
      const file = s.file;
      const spec = await load(s);
      const all = links(spec);
      // The first schema opens the file (and reads the link table and the root segment).
      const first = JSON.stringify(spec.schemas.resolve(all[0]!, { maxDepth: 64 }));
      // Another file in its place (a later run's, here with every detail byte changed), and the source changed.
      const other = Buffer.from(s.bytes);
      for (let i = s.detailOffset; i < other.length; i++) other[i] = other[i]! ^ 0x20;
      writeFileSync(`${s.snap}.new`, other);
      renameSync(`${s.snap}.new`, s.snap);
      writeFileSync(file, text.replaceAll('"count"', `"${MARK}"`));
      const got = all.map((l) => JSON.stringify(spec.schemas.resolve(l, { maxDepth: 64 })));
      assert.equal(got[0], first);
      assert.doesNotMatch(got.join('\n'), /\$unresolved/);
      assert.doesNotMatch(got.join('\n'), new RegExp(MARK));
    });
  });
});

describe('a spec loaded from its snapshot file', () => {
  it('in steps, letting the thread go, is the spec loaded at once', async () => {
    await withSaved(bigSpec(), async (s) => {
      const file = s.file;
      const read = await readSnapshot(path.dirname(s.snap), KEY);
      assert.ok(read.ok);
      const source = { file: read.file, coreOffset: read.coreOffset, detailOffset: read.detailOffset, parts: read.parts };
      const spec = await specFromCoreInSteps(await decodeCore(read.core), source, async () => {});
      assert.deepEqual(served(spec), s.want);
    });
  });
});
