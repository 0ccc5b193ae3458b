// inspect text of real endpoints checked against golden files (test/fixtures/mcp/golden/*.txt).
// Regenerate after an intended change with UPDATE_GOLDEN=1, then read the diff.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Catalog } from '../../src/catalog/index.ts';
import { configFromFiles } from '../../src/config/index.ts';
import { createInvoker } from '../../src/invoke/index.ts';
import { importConfigured, loadedSpecs } from '../../src/daemon/start-load.ts';
import { FIXTURES, REPO_ROOT, SPECS, call, inMemoryClient, sessionContext, textOf, workspace, type Workspace } from './support.ts';

const GOLDEN = join(FIXTURES, 'golden');

const CASES: readonly [file: string, id: string, depth?: number][] = [
  ['zoo-create-animal', 'zoo:POST:/animals'],
  ['zoo-list-animals', 'zoo:GET:/animals'],
  ['zoo-family-circular', 'zoo:PUT:/animals/{animalId}/family'],
  ['zoo-feed-deprecated', 'zoo:POST:/animals/{animalId}/feed'],
  ['weather-forecast-swagger2', 'weather:GET:/forecast/{city}'],
  ['bookshelf-create-book', 'bookshelf:POST:/books'],
  ['bookshelf-list-books', 'bookshelf:GET:/books'],
  ['gallery-list-pictures', 'gallery:GET:/pictures'],
  ['gallery-create-picture', 'gallery:POST:/pictures'],
  ['gallery-create-picture-depth-1', 'gallery:POST:/pictures', 1],
  ['gallery-create-picture-depth-6', 'gallery:POST:/pictures', 6],
  ['gallery-upload-binary', 'gallery:PUT:/pictures/{id}/file'],
  ['gallery-note-no-schema', 'gallery:POST:/pictures/{id}/notes'],
  ['gallery-patch-any', 'gallery:PATCH:/pictures/{id}'],
  ['gallery-flag-no-fields', 'gallery:POST:/pictures/{id}/flags'],
];

/** An in-memory client over one spec file, as `svc serve FILE` would load it. */
async function clientFor(file: string): Promise<Client> {
  const config = await configFromFiles([file]);
  const catalog = new Catalog(loadedSpecs(await importConfigured(config)));
  return inMemoryClient({ catalog, config, invoker: createInvoker(config) });
}

function checkGolden(name: string, actual: string): void {
  const file = join(GOLDEN, `${name}.txt`);
  if (process.env['UPDATE_GOLDEN'] || !existsSync(file)) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, `${actual}\n`);
    if (!process.env['UPDATE_GOLDEN']) assert.fail(`golden file ${name}.txt was missing and has been written; check it and rerun`);
    return;
  }
  assert.equal(actual, readFileSync(file, 'utf8').replace(/\n$/, ''));
}

describe('inspect against golden text', () => {
  let ws: Workspace;
  let fixtures: Client;
  let bookshelf: Client;
  let gallery: Client;

  before(async () => {
    ws = await workspace();
    fixtures = await inMemoryClient(await sessionContext(ws.configFile));
    const config = await configFromFiles([join(REPO_ROOT, 'specs', 'bookshelf.yaml')]);
    const catalog = new Catalog(loadedSpecs(await importConfigured(config)));
    bookshelf = await inMemoryClient({ catalog, config, invoker: createInvoker(config) });
    gallery = await clientFor(join(SPECS, 'gallery', 'gallery.yaml'));
  });
  after(async () => {
    await fixtures?.close();
    await bookshelf?.close();
    await gallery?.close();
    await ws?.cleanup();
  });

  const clientOf = (id: string): Client => (id.startsWith('bookshelf:') ? bookshelf : id.startsWith('gallery:') ? gallery : fixtures);

  for (const [name, id, depth] of CASES) {
    it(`renders ${id}${depth ? ` at depth ${depth}` : ''} as in ${name}.txt`, async () => {
      const result = await call(clientOf(id), 'inspect', { endpointId: id, ...(depth !== undefined ? { depth } : {}) });
      assert.equal(result.isError, undefined, textOf(result));
      checkGolden(name, textOf(result));
    });
  }

  it('puts METHOD /path alone on the first line and the sections in the fixed order', async () => {
    const text = textOf(await call(fixtures, 'inspect', { endpointId: 'zoo:POST:/animals' }));
    const lines = text.split('\n');
    assert.equal(lines[0], 'POST /animals');
    const order = ['Summary:', 'Description:', 'Parameters:', 'Body (', 'Responses:'].map((p) => lines.findIndex((l) => l.startsWith(p)));
    assert.ok(order.every((i) => i > 0), `every section present: ${order}`);
    assert.deepEqual([...order].sort((a, b) => a - b), order);
  });

  it('marks required only where required', async () => {
    const text = textOf(await call(fixtures, 'inspect', { endpointId: 'zoo:GET:/animals' }));
    const parameters = text.slice(text.indexOf('Parameters:'), text.indexOf('Responses:'));
    assert.match(parameters, /^ {2}species \(query, string\): /m);
    assert.doesNotMatch(parameters, /required/);
  });

  it('carries summary and description over unchanged', async () => {
    const text = textOf(await call(fixtures, 'inspect', { endpointId: 'zoo:GET:/animals' }));
    assert.ok(text.includes('Description: Returns the animals of the zoo, page by page.\nFilter by species or enclosure.\n'));
  });

  it('puts the deprecation line right after the first line', async () => {
    const lines = textOf(await call(fixtures, 'inspect', { endpointId: 'zoo:POST:/animals/{animalId}/feed' })).split('\n');
    assert.match(lines[1]!, /^Deprecated/);
  });

  it('shows a circular schema as a reference instead of expanding it', async () => {
    const text = textOf(await call(fixtures, 'inspect', { endpointId: 'zoo:PUT:/animals/{animalId}/family' }));
    assert.match(text, /children \(ref:FamilyMember\[\], circular\)/);
  });
});

describe('inspect depth and undescribed bodies', () => {
  let gallery: Client;
  before(async () => {
    gallery = await clientFor(join(SPECS, 'gallery', 'gallery.yaml'));
  });
  after(() => gallery?.close());

  const inspectText = async (args: Record<string, unknown>): Promise<string> => textOf(await call(gallery, 'inspect', args));
  /** Nesting level of a body field line: `  x` is 1, `    x` is 2 ... */
  const bodyLevels = (text: string): number[] => {
    const lines = text.split('\n');
    const start = lines.findIndex((l) => l.startsWith('Body ('));
    const end = lines.findIndex((l) => l.startsWith('Responses:'));
    return lines.slice(start + 1, end).map((l) => (l.length - l.trimStart().length) / 2);
  };

  it('shows no field deeper than depth, and every line of a shallower view in a deeper one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 5 }), async (depth) => {
        const shallow = await inspectText({ endpointId: 'gallery:POST:/pictures', depth });
        const deeper = await inspectText({ endpointId: 'gallery:POST:/pictures', depth: depth + 1 });
        assert.ok(Math.max(...bodyLevels(shallow)) <= depth, shallow);
        const deeperLines = deeper.split('\n');
        let at = 0;
        for (const line of shallow.split('\n')) {
          at = deeperLines.indexOf(line, at);
          assert.ok(at >= 0, `"${line}" of depth ${depth} is kept at depth ${depth + 1}`);
        }
      }),
      { numRuns: 10 },
    );
  });

  it('refuses a depth outside 1-6, saying the bound', async () => {
    for (const [depth, message] of [[0, /depth must be at least 1/], [7, /depth must be at most 6/], [2.5, /depth must be a whole number/]] as const) {
      const result = await call(gallery, 'inspect', { endpointId: 'gallery:POST:/pictures', depth });
      assert.equal(result.isError, true);
      assert.match(textOf(result), message);
    }
  });

  it('never leaves a Body line without a line under it that says what to send', async () => {
    for (const id of ['gallery:POST:/pictures', 'gallery:PUT:/pictures/{id}/file', 'gallery:POST:/pictures/{id}/notes', 'gallery:PATCH:/pictures/{id}', 'gallery:POST:/pictures/{id}/flags']) {
      const lines = (await inspectText({ endpointId: id })).split('\n');
      const body = lines.findIndex((l) => l.startsWith('Body'));
      assert.ok(body > 0, id);
      assert.match(lines[body + 1] ?? '', /^ {2}\S/, `${id}: ${lines[body + 1]}`);
      assert.doesNotMatch(lines[body + 1]!, /^ {2}(any|object)$/, 'a bare type is not a description');
    }
  });

  it('shows the success response fields under its own line, returned fields only', async () => {
    const text = await inspectText({ endpointId: 'gallery:POST:/pictures' });
    const responses = text.slice(text.indexOf('Responses:'));
    assert.match(responses, /^ {2}201 Added\.\n {4}id \(integer\(int64\)\)\n/m);
    assert.doesNotMatch(responses, /uploadToken/, 'writeOnly fields are not returned');
    const body = text.slice(text.indexOf('Body ('), text.indexOf('Responses:'));
    assert.doesNotMatch(body, /^ {2}id /m, 'readOnly fields are not sent');
    assert.match(body, /uploadToken \(string\)/);
  });
});
