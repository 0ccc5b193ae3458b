// Attacks through `$ref` in a spec file: a spec author (or a spec downloaded from elsewhere)
// pointing a reference at a secret next to the spec, such as `.env`. Refs may name only API
// description files (JSON or YAML by extension, never dotfiles) inside the allowed folders, and a
// referenced value that is not an object where one is required is an error that does not quote it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importSpec } from '../../src/import/index.ts';
import { call, inMemoryClient, sessionContext, textOf } from '../mcp/support.ts';

const SECRET = 'API_SECRET=s3cr3t-value-0123456789';

async function tempDir(t: { after(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'svc-refsec-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A spec whose request body has an enum item that is a $ref to `target`. */
function specReferring(target: string): string {
  return [
    'openapi: 3.0.3',
    "info: {title: leak, version: '1'}",
    'paths:',
    '  /things:',
    '    post:',
    '      requestBody:',
    '        content:',
    '          application/json:',
    '            schema:',
    '              type: object',
    '              properties:',
    '                kind:',
    '                  type: string',
    '                  enum:',
    `                    - $ref: '${target}'`,
    '      responses:',
    "        '200': {description: ok}",
    '',
  ].join('\n');
}

async function inspectText(dir: string, specFile: string): Promise<string> {
  const configFile = path.join(dir, 'svc.yaml');
  await writeFile(configFile, `specs:\n  - path: ${JSON.stringify(specFile)}\n    name: leak\n`);
  const client = await inMemoryClient(await sessionContext(configFile));
  try {
    return textOf(await call(client, 'inspect', { endpointId: 'leak:POST:/things' }));
  } finally {
    await client.close();
  }
}

test('a $ref to ./.env in a request-body enum item does not put the secret into inspect', async (t) => {
  const dir = await tempDir(t);
  await writeFile(path.join(dir, '.env'), `${SECRET}\n`);
  const spec = path.join(dir, 'openapi.yaml');
  await writeFile(spec, specReferring('./.env'));
  const text = await inspectText(dir, spec);
  assert.ok(!text.includes('s3cr3t'), `inspect shows the secret:\n${text}`);
  const outcome = await importSpec(spec, { name: 'leak', collection: 'c' });
  assert.ok(outcome.ok);
  const codes = outcome.spec.warnings.map((w) => w.code);
  assert.ok(codes.includes('ref-not-description-file'), `warnings: ${codes.join(', ')}`);
  for (const w of outcome.spec.warnings) assert.ok(!`${w.message} ${w.hint ?? ''}`.includes('s3cr3t'), w.message);
});

test('a $ref to any dotfile or a file in a dot-folder is refused, whatever its extension', async (t) => {
  const dir = await tempDir(t);
  await mkdir(path.join(dir, '.secrets'));
  const targets = ['.env', '.env.json', '.hidden.yaml', '.secrets/keys.json', 'sub/../.npmrc.yml'];
  for (const target of targets) {
    await mkdir(path.dirname(path.join(dir, target)), { recursive: true });
    await writeFile(path.join(dir, target), target.endsWith('json') ? JSON.stringify({ leaked: SECRET }) : `leaked: ${SECRET}\n`);
  }
  for (const target of targets) {
    const spec = path.join(dir, 'openapi.yaml');
    await writeFile(spec, specReferring(`./${target}#/leaked`));
    const outcome = await importSpec(spec, { name: 'leak', collection: 'c' });
    assert.ok(outcome.ok, target);
    assert.deepEqual(outcome.spec.warnings.map((w) => w.code).filter((c) => c.startsWith('ref-')).slice(0, 1), ['ref-not-description-file'], target);
    assert.deepEqual(outcome.spec.files, [spec], `${target} was read`);
  }
});

test('a $ref to a file that is not JSON or YAML by extension is refused before it is read', async (t) => {
  const dir = await tempDir(t);
  for (const name of ['config.ini', 'id_rsa', 'notes.txt', 'creds.json.bak', 'x.yaml~']) {
    await writeFile(path.join(dir, name), `${SECRET}\n`);
    const spec = path.join(dir, 'openapi.yaml');
    await writeFile(spec, specReferring(`./${name}`));
    const outcome = await importSpec(spec, { name: 'leak', collection: 'c' });
    assert.ok(outcome.ok, name);
    const refWarnings = outcome.spec.warnings.filter((w) => w.code.startsWith('ref-'));
    assert.equal(refWarnings[0]?.code, 'ref-not-description-file', name);
    assert.match(refWarnings[0]!.hint ?? '', /\.json.*\.yaml/);
    assert.deepEqual(outcome.spec.files, [spec], `${name} was read`);
  }
});

test('a $ref to a string value of an allowed YAML file is an error that does not quote the value', async (t) => {
  const dir = await tempDir(t);
  // A plain-text file given a .yaml name parses as one YAML string: the whole content.
  await writeFile(path.join(dir, 'values.yaml'), `${SECRET}\n`);
  await writeFile(path.join(dir, 'nested.json'), JSON.stringify({ token: SECRET, n: 42, none: null }));
  for (const target of ['./values.yaml', './nested.json#/token', './nested.json#/n', './nested.json#/none']) {
    const spec = path.join(dir, 'openapi.yaml');
    await writeFile(spec, specReferring(target));
    const text = await inspectText(dir, spec);
    assert.ok(!text.includes('s3cr3t'), `inspect shows the secret for ${target}:\n${text}`);
    const outcome = await importSpec(spec, { name: 'leak', collection: 'c' });
    assert.ok(outcome.ok);
    const body = outcome.spec.endpoints[0]!.requestBody!.contents[0]!.schema!;
    const resolved = JSON.stringify(outcome.spec.schemas.resolve(body));
    assert.match(resolved, /"\$unresolved".*is (a string|a number|null), not an object/, `${target}: ${resolved}`);
    assert.ok(!resolved.includes('s3cr3t') && !/\b42\b/.test(resolved), `${target}: ${resolved}`);
  }
});

test('$refs to ordinary JSON and YAML description files keep working', async (t) => {
  const dir = await tempDir(t);
  await mkdir(path.join(dir, 'schemas'));
  await writeFile(path.join(dir, 'schemas', 'Kind.yaml'), 'type: string\nenum: [a, b]\n');
  await writeFile(path.join(dir, 'schemas', 'Other.JSON'), JSON.stringify({ type: 'integer' }));
  const spec = path.join(dir, 'openapi.yaml');
  await writeFile(spec, specReferring('./schemas/Kind.yaml').replace("enum:\n                    - $ref: './schemas/Kind.yaml'", "allOf:\n                    - $ref: './schemas/Kind.yaml'\n                    - $ref: './schemas/Other.JSON'"));
  const outcome = await importSpec(spec, { name: 'leak', collection: 'c' });
  assert.ok(outcome.ok);
  assert.deepEqual(outcome.spec.warnings, []);
  assert.equal(outcome.spec.files.length, 3);
});
