// Test support for snapshots: what a spec serves, as plain data to compare (every endpoint with
// its schemas resolved, the spec's metadata, and search answers), and temp folders.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { Catalog } from '../../src/catalog/index.ts';
import { specImage } from '../../src/catalog/catalog.ts';
import { fingerprintList } from '../../src/daemon/diff.ts';
import type { DocumentSchemaResolver } from '../../src/import/schemas.ts';
import type { Endpoint, ImportedSpec, SchemaLink } from '../../src/model/index.ts';
import { decodeCore, encodeCore, encodeLate } from '../../src/snapshot/index.ts';

const QUERIES = ['list', 'create', 'delete item', 'get by id', 'update settings', 'search'];

/** Everything a client can see of a spec: endpoints with schemas resolved, metadata, search answers. */
export function served(spec: ImportedSpec): unknown {
  const resolve = (link: SchemaLink | undefined) =>
    link === undefined ? undefined : { shallow: spec.schemas.shallow(link).node, resolved: spec.schemas.resolve(link, { maxDepth: 8 }) };
  const endpoint = (e: Endpoint) => ({
    ...e,
    // A decoded endpoint makes these when asked (getters a spread leaves out).
    id: e.id,
    description: e.description,
    source: e.source,
    parameters: e.parameters.map((p) => ({ ...p, schema: resolve(p.schema) })),
    ...(e.requestBody ? { requestBody: { ...e.requestBody, contents: e.requestBody.contents.map((c) => ({ ...c, schema: resolve(c.schema) })) } } : {}),
    responses: e.responses.map((r) => ({ ...r, schema: resolve(r.schema) })),
  });
  const { endpoints, schemas: _s, importedAt: _a, importMs: _m, ...meta } = spec;
  const catalog = new Catalog([spec]);
  return JSON.parse(
    JSON.stringify({
      meta,
      endpoints: endpoints.map(endpoint),
      search: QUERIES.map((q) => catalog.search(q).map((h) => [h.endpoint.id, Math.round(h.score * 1e6)])),
    }),
  );
}

/** A freshly imported spec's core, encoded as the import worker encodes it (entry facts included). */
export function encodedCore(spec: ImportedSpec): Buffer {
  const docs = (spec.schemas as DocumentSchemaResolver).documents;
  const { index, facts } = specImage(spec);
  return encodeCore(spec, (f) => docs.doc(f), index, spec.files.map((f) => docs.digest(f) ?? ''), facts);
}

/** The same spec's late part (detail and change fingerprints), as the import worker encodes it. */
export function encodedLate(spec: ImportedSpec): ReturnType<typeof encodeLate> {
  const docs = (spec.schemas as DocumentSchemaResolver).documents;
  return encodeLate(spec, (f) => docs.doc(f), fingerprintList(spec));
}

/** A core's parts as framed: a count, each part's length, then the parts (which must fill the bytes). */
export function coreParts(bytes: Buffer): Buffer[] {
  const count = bytes.readUInt32LE(0);
  let at = 4 * (count + 1);
  const out: Buffer[] = [];
  for (let i = 0; i < count; i++) {
    const length = bytes.readUInt32LE(4 * (i + 1));
    out.push(bytes.subarray(at, at + length));
    at += length;
  }
  assert.equal(at, bytes.length);
  return out;
}

/** Parts framed as the encoder frames them (`coreParts` undone). */
export function framedParts(parts: readonly Buffer[]): Buffer {
  const frame = Buffer.alloc(4 * (parts.length + 1));
  frame.writeUInt32LE(parts.length, 0);
  parts.forEach((p, i) => frame.writeUInt32LE(p.length, 4 * (i + 1)));
  return Buffer.concat([frame, ...parts]);
}

/** Why `decodeCore` refuses `bytes` (fails the test when it decodes them). */
export async function decodeRefusal(bytes: Uint8Array): Promise<string> {
  try {
    await decodeCore(bytes);
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail('decoded');
}

export interface Temp {
  readonly dir: string;
  /** A copy of a fixture folder (or file) inside the temp folder. */
  copy(from: string, to: string): string;
  cleanup(): void;
}

export function temp(): Temp {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-snap-'));
  return {
    dir,
    copy(from, to) {
      const target = path.join(dir, to);
      cpSync(from, target, { recursive: true });
      return target;
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
