// The importer gives a root file's bytes back as soon as their digest is taken: a buffer of its own
// is emptied at once, a buffer that shares its memory (Node's pool, a slice) is never touched, and
// the spec's digest is still the digest of the file's bytes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { importSpec } from '../../src/import/index.ts';
import { DocumentSchemaResolver } from '../../src/import/schemas.ts';
import { releaseBytes } from '../../src/import/read.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/import');

describe('releasing a file\'s bytes', () => {
  it('empties a buffer of its own and leaves every buffer that shares memory as it was', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20_000 }), fc.nat(), fc.nat(), fc.boolean(), (size, a, b, pooled) => {
        const whole = pooled ? Buffer.allocUnsafe(size) : Buffer.allocUnsafeSlow(size);
        whole.fill(7);
        const from = size === 0 ? 0 : a % size;
        const to = from + (size - from === 0 ? 0 : b % (size - from + 1));
        const slice = whole.subarray(from, to);
        const own = slice.byteOffset === 0 && slice.byteLength === slice.buffer.byteLength;
        releaseBytes(slice);
        if (own) {
          assert.equal(slice.length, 0);
        } else {
          // Shared memory: neither the slice nor what it shares was emptied.
          assert.equal(slice.length, to - from);
          assert.ok(slice.every((x) => x === 7));
          assert.equal(whole.length, size);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the digest of the file as read, for JSON and YAML roots alike, small and large', async (t) => {
    // Large enough for a buffer of its own (Node pools those under half of Buffer.poolSize): the one the importer empties.
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-release-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 1500; i++) paths[`/things${i}/{id}`] = { get: { summary: `Get thing ${i} — by its id`, responses: { '200': { description: 'ok' } } } };
    const large = path.join(dir, 'large.json');
    writeFileSync(large, JSON.stringify({ openapi: '3.0.3', info: { title: 'large', version: '1' }, paths }));
    assert.ok(readFileSync(large).length > Buffer.poolSize);
    for (const file of [large, ...['oas31-webhooks/openapi.json', 'oas30-params/openapi.yaml', 'swagger20-azure/storage.json'].map((rel) => path.join(FIXTURES, rel))]) {
      const rel = path.basename(file);
      const outcome = await importSpec(file, { name: 's', collection: 'default' });
      assert.ok(outcome.ok, rel);
      const documents = (outcome.spec.schemas as DocumentSchemaResolver).documents;
      assert.equal(documents.digest(file), createHash('sha256').update(readFileSync(file)).digest('hex'), rel);
    }
  });
});
