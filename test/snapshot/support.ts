// Test support for snapshots: what a spec serves, as plain data to compare (every endpoint with
// its schemas resolved, the spec's metadata, and search answers), and temp folders.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Catalog } from '../../src/catalog/index.ts';
import type { Endpoint, ImportedSpec, SchemaLink } from '../../src/model/index.ts';

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
