// Property-based fuzzing of each importer: random structural and byte-level mutations of real
// corpus documents (and of our own seeds, so it runs without the corpus too). Property: every
// mutated file ends in endpoints or a structured error, in time, in bounded memory, with unique
// ids, without reading outside files or fetching remote refs.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { fuzzCaseArbitrary, mutateDocument, renderCase } from './hostile/mutate.ts';
import { OUTSIDE_SECRET, PASSWD_MARKER } from './hostile/generate.ts';
import { ImportRunner } from './support/import-runner.ts';
import { recordFigures, percentile, round } from './support/figures.ts';
import { CORPUS_DIR, CORPUS_PRESENT, REPO_ROOT, SCALE, scaled } from './support/scale.ts';

type Family = 'openapi-3.0' | 'openapi-3.1' | 'swagger-2.0' | 'postman';

const OWN_SEEDS: Record<Family, unknown> = {
  'openapi-3.0': {
    openapi: '3.0.3',
    info: { title: 'Seed', version: '1' },
    servers: [{ url: 'https://{region}.example.test/v1', variables: { region: { default: 'eu', enum: ['eu', 'us'] } } }],
    paths: {
      '/pets/{petId}': {
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }],
        get: { operationId: 'getPet', tags: ['pets'], summary: 'Get a pet', responses: { '200': { description: 'A pet', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } }, default: { $ref: '#/components/responses/Error' } } },
        delete: { deprecated: true, responses: { '204': { description: 'Gone' } } },
      },
      '/pets': { post: { requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } }, 'multipart/form-data': { schema: { type: 'object' } } } }, responses: { '201': { description: 'Created' } }, security: [{ key: [] }] } },
    },
    components: {
      schemas: { Pet: { type: 'object', properties: { id: { type: 'string' }, parent: { $ref: '#/components/schemas/Pet' } } } },
      responses: { Error: { description: 'Error' } },
      securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } },
    },
  },
  'openapi-3.1': {
    openapi: '3.1.0',
    info: { title: 'Seed', version: '1' },
    paths: { '/items': { get: { parameters: [{ name: 'q', in: 'query', schema: { type: ['string', 'null'] } }], responses: { '200': { description: 'OK' } } } }, '/ref': { $ref: '#/components/pathItems/Ref' } },
    webhooks: { ping: { post: { responses: { '200': { description: 'OK' } } } } },
    components: { pathItems: { Ref: { get: { responses: { '200': { description: 'OK' } } } } } },
  },
  'swagger-2.0': {
    swagger: '2.0',
    info: { title: 'Seed', version: '1' },
    host: 'api.example.test',
    basePath: '/v2',
    consumes: ['application/json'],
    paths: {
      '/pets/{id}': { parameters: [{ name: 'id', in: 'path', required: true, type: 'string' }], get: { operationId: 'getPet', responses: { '200': { description: 'OK', schema: { $ref: '#/definitions/Pet' } } } }, post: { parameters: [{ name: 'body', in: 'body', schema: { $ref: '#/definitions/Pet' } }, { name: 'f', in: 'formData', type: 'file' }], responses: { '200': { description: 'OK' } } } },
    },
    'x-ms-paths': { '/pets/{id}?op=x': { put: { responses: { '200': { description: 'OK' } } } } },
    definitions: { Pet: { type: 'object', properties: { id: { type: 'string' } } } },
  },
  postman: {
    info: { name: 'Seed', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{token}}' }] },
    variable: [{ key: 'baseUrl', value: 'https://api.example.test' }],
    item: [
      { name: 'Folder', item: [{ name: 'Get', request: { method: 'GET', url: { raw: '{{baseUrl}}/pets/:id?x=1', host: ['{{baseUrl}}'], path: ['pets', ':id'], query: [{ key: 'x', value: '1' }], variable: [{ key: 'id', value: '7' }] } } }] },
      { name: 'Post', request: { method: 'POST', url: '{{baseUrl}}/pets', body: { mode: 'raw', raw: '{}' }, header: [{ key: 'Content-Type', value: 'application/json' }] } },
    ],
  },
};

function corpusSeeds(family: Family): { file: string; doc: unknown }[] {
  if (!CORPUS_PRESENT) return [];
  const rows = readFileSync(join(CORPUS_DIR, 'MANIFEST.tsv'), 'utf8').trim().split('\n').slice(1);
  const out: { file: string; doc: unknown }[] = [];
  for (const row of rows) {
    const [path, , , format, size] = row.split('\t');
    if (!path || !format || Number(size) > 120_000) continue;
    if (!(format === family || (family === 'postman' && format.startsWith('postman')))) continue;
    const text = readFileSync(join(CORPUS_DIR, path), 'utf8').replace(/^\uFEFF/, '');
    try {
      out.push({ file: path, doc: path.endsWith('.json') ? JSON.parse(text) : parseYaml(text) });
    } catch {
      // A seed we cannot parse ourselves is no use as a seed.
    }
  }
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'svc-fuzz-'));
const failuresDir = join(REPO_ROOT, '.cache/reliability/fuzz-failures');
const runner = new ImportRunner({ maxHeapMb: 512 });
let canary: Server;
let canaryHits = 0;
let canaryUrl = '';
const fuzzSeed = process.env['SVC_FUZZ_SEED'] ? Number(process.env['SVC_FUZZ_SEED']) : SCALE > 1 ? Date.now() : 20261121;
const figures: Record<string, string | number> = { 'fast-check seed': fuzzSeed };
let unavailable: string | undefined;

before(async () => {
  canary = createServer((_req, res) => {
    canaryHits++;
    res.end('{}');
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  canaryUrl = `http://127.0.0.1:${(canary.address() as { port: number }).port}`;
  const probeFile = join(dir, 'probe.json');
  writeFileSync(probeFile, JSON.stringify(OWN_SEEDS['openapi-3.0']));
  const probe = await runner.run({ file: probeFile, options: { name: 'probe', collection: 'fuzz' } }, 30_000);
  if ('unavailable' in probe && probe.unavailable) unavailable = probe.unavailable;
});

after(async () => {
  await runner.close();
  await new Promise<void>((resolve) => canary.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
  figures['remote requests seen by canary'] = canaryHits;
  figures['worker restarts'] = runner.restarts;
  recordFigures('fuzz-import (fast-check mutations)', figures);
});

describe('property-based fuzzing of the importers', () => {
  for (const family of ['openapi-3.0', 'openapi-3.1', 'swagger-2.0', 'postman'] as const) {
    test(`${family}: every mutated document ends in endpoints or a structured error`, { timeout: scaled(120_000) }, async (t) => {
      if (unavailable) return t.skip(unavailable);
      const seeds = [{ file: `own ${family} seed`, doc: OWN_SEEDS[family] }, ...corpusSeeds(family)];
      if (!CORPUS_PRESENT) t.diagnostic('corpus ../shared/specs absent: fuzzing our own seed only');
      const numRuns = scaled(150);
      const ms: number[] = [];
      let outcomesOk = 0;
      let outcomesError = 0;
      let n = 0;
      const result = await fc.check(
        fc.asyncProperty(fuzzCaseArbitrary(seeds.length, canaryUrl), async (c) => {
          const seed = seeds[c.seed]!;
          const file = join(dir, `${family}-${n++ % 4}.${c.yaml ? 'yaml' : 'json'}`);
          writeFileSync(file, renderCase(mutateDocument(seed.doc, c.structural), c));
          const hitsBefore = canaryHits;
          const r = await runner.run({ file, options: { name: 'fuzz', collection: 'fuzz' }, forbid: [PASSWD_MARKER, OUTSIDE_SECRET], resolveEndpoints: 20 }, 10_000);
          ms.push(r.ms);
          if (!r.failure && r.ok) outcomesOk++;
          else if (!r.failure) outcomesError++;
          const problems = [...r.problems];
          if (canaryHits !== hitsBefore) problems.push('a remote $ref was fetched');
          if (problems.length > 0) {
            mkdirSync(failuresDir, { recursive: true });
            const keep = join(failuresDir, `${family}-${Date.now()}${c.yaml ? '.yaml' : '.json'}`);
            writeFileSync(keep, readFileSync(file));
            throw new Error(`${problems.join('; ')} (seed document ${seed.file}; mutated file kept at ${keep})`);
          }
        }),
        { numRuns, seed: fuzzSeed, endOnFailure: true },
      );
      figures[`${family}: seed documents`] = seeds.length;
      figures[`${family}: inputs tried`] = result.numRuns;
      figures[`${family}: failures`] = result.failed ? 1 : 0;
      figures[`${family}: imported / refused`] = `${outcomesOk} / ${outcomesError}`;
      figures[`${family}: p50 / p99 / max ms`] = `${round(percentile(ms, 50))} / ${round(percentile(ms, 99))} / ${round(Math.max(...ms))}`;
      assert.ok(!result.failed, result.failed ? `counterexample after ${result.numRuns} runs: ${String(result.errorInstance ?? '').slice(0, 1000)}` : '');
    });
  }
});
