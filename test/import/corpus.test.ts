// Every document of the real-world corpus (../shared/specs/MANIFEST.tsv) imports without error and
// yields exactly the manifest's operation count: endpoints plus operations skipped for a method
// outside the seven. Skipped as a whole when the corpus folder is absent.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HTTP_METHODS, formatDiagnostic } from '../../src/model/index.ts';
import { importSpec } from '../../src/import/index.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const corpus = path.resolve(repoRoot, '../shared/specs');
const manifest = path.join(corpus, 'MANIFEST.tsv');
const present = existsSync(manifest);

interface Row {
  readonly path: string;
  readonly format: string;
  readonly operations: number;
}

function rows(): Row[] {
  const [header, ...lines] = readFileSync(manifest, 'utf8').trim().split('\n');
  const cols = header!.split('\t');
  const at = (name: string) => cols.indexOf(name);
  return lines.map((line) => {
    const f = line.split('\t');
    return { path: f[at('path')]!, format: f[at('format')]!, operations: Number(f[at('operations')]) };
  });
}

const SEVEN = new Set<string>(HTTP_METHODS);

// Each document is imported once; the focused tests below reuse the row tests' outcomes.
const outcomes = new Map<string, ReturnType<typeof importSpec>>();
function importRow(rel: string): ReturnType<typeof importSpec> {
  let o = outcomes.get(rel);
  if (!o) {
    o = importSpec(path.join(corpus, rel), { name: 'corpus', collection: 'corpus' });
    outcomes.set(rel, o);
  }
  return o;
}

describe('real-world corpus imports', { skip: present ? false : `corpus not found at ${corpus} (../shared/specs): skipping` }, () => {
  const list = present ? rows() : [];

  test('the manifest lists all 71 documents', () => {
    assert.equal(list.length, 71);
  });

  for (const row of list) {
    test(`${row.path} imports as ${row.format} with ${row.operations} operations`, async () => {
      const outcome = await importRow(row.path);
      assert.ok(outcome.ok, outcome.ok ? '' : outcome.errors.map(formatDiagnostic).join('\n'));
      const spec = outcome.spec;
      assert.equal(spec.format, row.format);
      const otherMethods = spec.skipped.filter((s) => !SEVEN.has(s.method.toUpperCase()));
      assert.equal(spec.endpoints.length + otherMethods.length, row.operations, `endpoints ${spec.endpoints.length} + skipped ${otherMethods.length}`);
      for (const s of otherMethods) {
        assert.ok(spec.warnings.some((w) => w.code === 'method-skipped' && w.message.includes(s.method)), `a warning names skipped ${s.method}`);
      }
      const ids = new Set(spec.endpoints.map((e) => e.id));
      assert.equal(ids.size, spec.endpoints.length, 'endpoint ids are unique');
      assert.equal(spec.files[0], path.join(corpus, row.path));
      assert.match(spec.hash, /^[0-9a-f]{64}$/);
    });
  }

  test('Stripe 2023 schemas resolve on demand into plain JSON with cycles marked', async () => {
    const outcome = await importRow('openapi-3.0/stripe/2023-09-12/spec3.yaml');
    assert.ok(outcome.ok);
    let circular = 0;
    for (const e of outcome.spec.endpoints.slice(0, 40)) {
      for (const r of e.responses) {
        if (!r.schema) continue;
        const text = JSON.stringify(outcome.spec.schemas.resolve(r.schema, { maxDepth: 12 }));
        if (text.includes('"$circular"')) circular++;
      }
    }
    assert.ok(circular > 0, 'Stripe has schemas on cycles; some response must show $circular');
  });

  test('DigitalOcean reads its operations from external files inside its folder', async () => {
    const rel = 'openapi-3.0/digitalocean/specification/DigitalOcean-public.v2.yaml';
    const root = path.join(corpus, rel);
    const outcome = await importRow(rel);
    assert.ok(outcome.ok);
    assert.ok(outcome.spec.files.length > 600);
    const dir = path.dirname(root);
    assert.ok(outcome.spec.files.every((f) => f.startsWith(dir + path.sep) || f === root));
    const external = outcome.spec.endpoints.filter((e) => e.source.file !== root);
    assert.equal(external.length, outcome.spec.endpoints.length, 'every operation lives in its own file');
  });

  test("Spotify's dangling ref outside its folder is a warning, not a failure", async () => {
    const outcome = await importRow('openapi-3.0/spotify/official-spotify-open-api.yml');
    assert.ok(outcome.ok);
    const w = outcome.spec.warnings.find((d) => d.code === 'ref-outside-folder');
    assert.ok(w, 'a ref-outside-folder warning');
    assert.equal(w.pointer, '/components/x-spotify-policy/policies');
  });
});
