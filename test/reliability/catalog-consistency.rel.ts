// A catalogue that went through updates must answer like one built fresh from the same specs:
// the load test checks answers against fresh oracle catalogues, and found search rankings that
// differed after `replace` (equal hits of the replaced spec first). This pins the behaviour down
// in-process.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Catalog } from '../../src/catalog/index.ts';
import { importSpec } from '../../src/import/index.ts';
import type { ImportedSpec } from '../../src/model/index.ts';

async function imported(file: string, name: string): Promise<ImportedSpec> {
  const o = await importSpec(file, { name, collection: 'default' });
  assert.ok(o.ok, `${file} did not import`);
  return o.spec;
}

function doc(word: string, n: number): string {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) paths[`/${word}/item${i}`] = { get: { summary: `${word} item ${i} lookup`, tags: [word], responses: { '200': { description: 'OK' } } } };
  return JSON.stringify({ openapi: '3.0.3', info: { title: word, version: '1' }, paths });
}

describe('catalogue consistency across updates', () => {
  test(
    'search after replace ranks like a catalogue built fresh from the same specs',
    { timeout: 60_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'svc-consistency-'));
      try {
        const files = ['stable', 'alpha', 'beta'].map((w, i) => {
          const f = join(dir, `${w}.json`);
          writeFileSync(f, doc(w, 20 + i * 15));
          return f;
        });
        const stable = await imported(files[0]!, 'stable');
        const alpha = await imported(files[1]!, 'churn');
        const beta = await imported(files[2]!, 'churn');
        const updated = new Catalog([stable, alpha]);
        for (let i = 0; i < 5; i++) updated.replace([stable, i % 2 === 0 ? beta : alpha]);
        const fresh = new Catalog([stable, beta]);
        for (const q of ['item lookup', 'item', 'stable item 3', 'beta lookup']) {
          assert.deepEqual(
            updated.search(q, {}, 20).map((h) => h.endpoint.id),
            fresh.search(q, {}, 20).map((h) => h.endpoint.id),
            `search "${q}" differs after updates`,
          );
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
