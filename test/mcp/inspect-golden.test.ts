// inspect text of real endpoints checked against golden files (test/fixtures/mcp/golden/*.txt).
// Regenerate after an intended change with UPDATE_GOLDEN=1, then read the diff.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Catalog } from '../../src/catalog/index.ts';
import { configFromFiles } from '../../src/config/index.ts';
import { createInvoker } from '../../src/invoke/index.ts';
import { importConfigured, loadedSpecs } from '../../src/daemon/serve.ts';
import { FIXTURES, REPO_ROOT, call, inMemoryClient, sessionContext, textOf, workspace, type Workspace } from './support.ts';

const GOLDEN = join(FIXTURES, 'golden');

const CASES: readonly [file: string, id: string][] = [
  ['zoo-create-animal', 'zoo:POST:/animals'],
  ['zoo-list-animals', 'zoo:GET:/animals'],
  ['zoo-family-circular', 'zoo:PUT:/animals/{animalId}/family'],
  ['zoo-feed-deprecated', 'zoo:POST:/animals/{animalId}/feed'],
  ['weather-forecast-swagger2', 'weather:GET:/forecast/{city}'],
  ['bookshelf-create-book', 'bookshelf:POST:/books'],
  ['bookshelf-list-books', 'bookshelf:GET:/books'],
];

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

  before(async () => {
    ws = await workspace();
    fixtures = await inMemoryClient(await sessionContext(ws.configFile));
    const config = await configFromFiles([join(REPO_ROOT, 'specs', 'bookshelf.yaml')]);
    const catalog = new Catalog(loadedSpecs(await importConfigured(config)));
    bookshelf = await inMemoryClient({ catalog, config, invoker: createInvoker(config) });
  });
  after(async () => {
    await fixtures?.close();
    await bookshelf?.close();
    await ws?.cleanup();
  });

  for (const [name, id] of CASES) {
    it(`renders ${id} as in ${name}.txt`, async () => {
      const client = id.startsWith('bookshelf:') ? bookshelf : fixtures;
      const result = await call(client, 'inspect', { endpointId: id });
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
    assert.match(text, /^ {2}species \(query, string\): /m);
    assert.doesNotMatch(text, /required/);
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
