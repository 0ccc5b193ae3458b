// Encoding a core works out each value the importer shares between endpoints (a parameter, a
// response, a body, a tag or server list) once: whichever endpoints share their values and
// whichever hold copies, the core decodes to what the import serves, in the same bytes.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { specImage } from '../../src/catalog/catalog.ts';
import { importSpec } from '../../src/import/index.ts';
import type { Endpoint, ImportedSpec } from '../../src/model/index.ts';
import type { DocumentSchemaResolver } from '../../src/import/schemas.ts';
import { decodeCore, encodeCore, specFromCore } from '../../src/snapshot/index.ts';
import { served } from './support.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/import');
const FILES = ['swagger20-azure/storage.json', 'oas30-params/openapi.yaml', 'multi-file/openapi.yaml', 'swagger20-forms/swagger.yaml', 'circular/openapi.json'];

async function imported(rel: string): Promise<ImportedSpec> {
  const outcome = await importSpec(path.join(FIXTURES, rel), { name: 's', collection: 'default' });
  assert.ok(outcome.ok, rel);
  // Fixed, so two encodings of one spec can be compared byte for byte.
  return { ...outcome.spec, importedAt: 0, importMs: 0 };
}

/** The endpoint with copies of everything it could share with others (its schema links kept: they name the same places). */
function unshared(e: Endpoint): Endpoint {
  return {
    ...e,
    tags: [...e.tags],
    servers: e.servers.map((s) => ({ ...s })),
    ...(e.security !== undefined ? { security: e.security.map((r) => ({ ...r })) } : {}),
    parameters: e.parameters.map((p) => ({ ...p })),
    ...(e.requestBody ? { requestBody: { ...e.requestBody, contents: e.requestBody.contents.map((c) => ({ ...c })) } } : {}),
    responses: e.responses.map((r) => ({ ...r })),
  };
}

function encode(spec: ImportedSpec): Buffer {
  const { index, facts } = specImage(spec);
  const documents = (spec.schemas as DocumentSchemaResolver).documents;
  return encodeCore(spec, (file) => documents.doc(file), index, spec.files.map((f) => documents.digest(f) ?? ''), facts);
}

/** What the spec a core holds serves (its schemas read from the source files). */
async function decoded(core: Buffer): Promise<unknown> {
  return served(specFromCore(await decodeCore(new Uint8Array(core)), undefined));
}

/** Values (by identity) that more than one endpoint of `spec` holds. */
function sharedValues(spec: ImportedSpec): number {
  const seen = new Map<object, number>();
  for (const e of spec.endpoints) for (const v of [...e.parameters, ...e.responses]) seen.set(v, (seen.get(v) ?? 0) + 1);
  return [...seen.values()].filter((n) => n > 1).length;
}

describe('encoding a core', () => {
  it('gives the bytes of endpoints that share nothing, whichever endpoints share their values', async () => {
    const specs = await Promise.all(FILES.map(imported));
    // The fixtures do share values between endpoints, or this would compare nothing.
    assert.ok(specs.some((s) => sharedValues(s) > 0));
    const wanted = specs.map(served);
    const bytes = specs.map((s) => encode({ ...s, endpoints: s.endpoints.map(unshared) }));
    await fc.assert(
      fc.asyncProperty(fc.nat(specs.length - 1), fc.array(fc.boolean(), { minLength: 1, maxLength: 64 }), async (which, pattern) => {
        const spec = specs[which]!;
        // Endpoints where the pattern says so keep what they share; the others get copies.
        const endpoints = spec.endpoints.map((e, i) => (pattern[i % pattern.length] ? e : unshared(e)));
        const core = encode({ ...spec, endpoints });
        assert.deepEqual(await decoded(core), wanted[which]);
        assert.ok(core.equals(bytes[which]!));
      }),
      { numRuns: 30 },
    );
  });

  it('decodes to what the import serves, with its endpoints sharing as imported and with copies', async () => {
    for (const rel of FILES) {
      const spec = await imported(rel);
      const core = encode(spec);
      assert.deepEqual(await decoded(core), served(spec), rel);
      assert.deepEqual(await decoded(encode({ ...spec, endpoints: spec.endpoints.map(unshared) })), served(spec), rel);
    }
  });
});
