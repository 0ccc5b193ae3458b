// The documents of one spec and `$ref` look-ups across them, from the contract of
// src/import/documents.ts: each failure in full (code, message naming the ref and the place, hint),
// chains followed to their end and loops stopped, and the loading of external files refusing what a
// spec must not make svc read (outside its folder, dotfiles, other extensions, oversized, remote).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { DocumentSet, isDescriptionFile, refOf } from '../../src/import/documents.ts';
import { parseText } from '../../src/import/read.ts';

const ROOT = '/specs/api.yaml';
const set = (doc: unknown) => new DocumentSet(ROOT, doc, Buffer.from('root'));

describe('look-ups', () => {
  const doc = { a: { b: { type: 'object' } }, s: 'secret text', n: 3, z: null, t: true, chain: { $ref: '#/c2' }, c2: { $ref: '#/a/b' }, loop: { $ref: '#/loop' } };

  it('finds a pointer in the same file, and the same answer object twice', () => {
    const docs = set(doc);
    const found = docs.lookup('#/a/b', ROOT);
    assert.deepEqual(found, { ok: true, file: ROOT, pointer: '/a/b', node: { type: 'object' } });
    assert.equal(docs.lookup('#/a/b', ROOT), found);
    assert.deepEqual(docs.lookup('#/t', ROOT), { ok: true, file: ROOT, pointer: '/t', node: true }, 'a boolean schema is a schema');
    assert.deepEqual(docs.lookup('', ROOT), { ok: true, file: ROOT, pointer: '', node: doc }, 'the whole document');
  });

  it('says how far a missing pointer got', () => {
    assert.deepEqual(set(doc).lookup('#/a/x/y', ROOT), {
      ok: false, code: 'ref-missing', message: `$ref "#/a/x/y": nothing at #/a/x/y in ${ROOT} (found up to "#/a")`, hint: 'Fix the pointer after # or add the missing definition.',
    });
  });

  it('refuses a target that is not an object, naming its type but never its value', () => {
    for (const [key, kind] of [['s', 'a string'], ['n', 'a number'], ['z', 'null']] as const) {
      const r = set(doc).lookup(`#/${key}`, ROOT);
      assert.deepEqual(r, {
        ok: false, code: 'ref-not-object', message: `$ref "#/${key}": the value at #/${key} in ${ROOT} is ${kind}, not an object (a schema or an object is expected here)`, hint: 'Point the $ref at a schema or an object definition.',
      });
      assert.ok(!JSON.stringify(r).includes('secret text'));
    }
  });

  it('a file that was not loaded, an unsupported scheme, file: URLs and remote bases', () => {
    const docs = set(doc);
    assert.deepEqual(docs.lookup('other.yaml#/x', ROOT), {
      ok: false, code: 'ref-file-not-loaded', message: '$ref "other.yaml#/x": file /specs/other.yaml was not loaded', hint: 'Write the $ref as a plain relative path so svc can find it.',
    });
    assert.deepEqual(docs.lookup('ftp://host/x.yaml#/a', ROOT), { ok: false, code: 'ref-unsupported', message: '$ref "ftp://host/x.yaml": unsupported scheme', hint: 'Use a relative file path.' });
    const viaUrl = docs.lookup(`${pathToFileURL(ROOT).href}#/a/b`, '/elsewhere/x.yaml');
    assert.ok(viaUrl.ok && viaUrl.file === ROOT, 'a file: URL names the file itself');
    const remote = docs.lookup('b.yaml#/x', 'https://example.com/specs/a.yaml');
    assert.ok(!remote.ok && remote.message === '$ref "b.yaml#/x": file https://example.com/specs/b.yaml was not loaded', 'relative to a remote file is remote');
    const spaced = docs.lookup('my%20defs.yaml#/x', ROOT);
    assert.ok(!spaced.ok && spaced.message.includes('file /specs/my defs.yaml was not loaded'), 'a percent-encoded path is decoded');
  });

  it('deref follows a chain to its end, returns a node without $ref as is, and stops a loop', () => {
    const docs = set(doc);
    assert.deepEqual(docs.deref(doc.chain, ROOT, '/chain'), { ok: true, file: ROOT, pointer: '/a/b', node: { type: 'object' } });
    assert.deepEqual(docs.deref({ type: 'string' }, ROOT, '/p'), { ok: true, file: ROOT, pointer: '/p', node: { type: 'string' } });
    assert.deepEqual(docs.deref(doc.loop, ROOT, '/loop'), {
      ok: false, code: 'ref-loop', message: `$ref chain longer than 32 hops (a loop?) at ${ROOT}#/loop`, hint: 'Make the $ref point at a definition, not at another $ref that loops back.',
    });
    assert.equal(docs.deref({ $ref: '#/nope' }, ROOT, '').ok, false);
    // A chain of exactly 32 references ends; one of 33 does not.
    const long: Record<string, unknown> = { end: { type: 'integer' } };
    for (let i = 0; i < 33; i++) long[`r${i}`] = { $ref: i === 32 ? '#/end' : `#/r${i + 1}` };
    const longSet = set(long);
    assert.equal(longSet.deref(long['r1'], ROOT, '').ok, true);
    assert.equal(longSet.deref(long['r0'], ROOT, '').ok, false);
  });

  it('refOf reads only string $refs', () => {
    assert.equal(refOf({ $ref: '#/a' }), '#/a');
    assert.equal(refOf({ $ref: { type: 'string' } }), undefined);
    assert.equal(refOf('x'), undefined);
    assert.equal(refOf(null), undefined);
  });
});

describe('description files', () => {
  it('only *.json, *.yaml and *.yml, and no dotfile or file in a dot-folder below the root', () => {
    const name = fc.stringMatching(/^\.?[a-z]{1,6}$/);
    fc.assert(
      fc.property(fc.array(name, { maxLength: 3 }), name, fc.constantFrom('.json', '.yaml', '.yml', '.YAML', '.txt', '.env', ''), (folders, base, ext) => {
        const file = join('/root', ...folders, `${base}${ext}`);
        const expected = /^\.(json|ya?ml)$/i.test(ext) && [...folders, base].every((p) => !p.startsWith('.'));
        assert.equal(isDescriptionFile(file, '/root'), expected, file);
      }),
    );
    assert.equal(isDescriptionFile('/elsewhere/.hidden.yaml', '/root'), false, 'outside the root: the name alone decides');
    assert.equal(isDescriptionFile('/elsewhere/.cfg/x.yaml', '/root'), true);
  });
});

describe('loading external files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-docs-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  async function load(rootText: string, files: Record<string, string>, options: { maxBytes?: number; allowRefsFrom?: string[] } = {}) {
    const folder = mkdtempSync(join(dir, 'spec-'));
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(join(folder, rel, '..'), { recursive: true });
      writeFileSync(join(folder, rel), text);
    }
    const root = join(folder, 'api.yaml');
    writeFileSync(root, rootText);
    const parsed = parseText(rootText);
    assert.ok(parsed.ok);
    const docs = new DocumentSet(root, parsed.value, Buffer.from(rootText));
    const problems = await docs.loadExternal({ allowRemoteRefs: false, allowRefsFrom: options.allowRefsFrom ?? [], maxBytes: options.maxBytes ?? 1 << 20 });
    return { folder, root, docs, problems };
  }

  it('loads referenced files (transitively), lists them sorted after the root, and looks up into them', async () => {
    const { folder, root, docs, problems } = await load('a:\n  $ref: "defs/b.yaml#/B"\n', { 'defs/b.yaml': 'B:\n  $ref: "c.json#/C"\n', 'defs/c.json': '{"C": {"type": "string"}}' });
    assert.deepEqual(problems, []);
    assert.deepEqual(docs.files, [root, join(folder, 'defs/b.yaml'), join(folder, 'defs/c.json')]);
    assert.deepEqual(docs.deref({ $ref: 'defs/b.yaml#/B' }, root, ''), { ok: true, file: join(folder, 'defs/c.json'), pointer: '/C', node: { type: 'string' } });
    assert.match(docs.hash, /^[0-9a-f]{64}$/);
  });

  it('refuses, with code, message and hint, each file a spec must not make svc read', async () => {
    const outside = mkdtempSync(join(dir, 'outside-'));
    writeFileSync(join(outside, 'x.yaml'), 'X: {}\n');
    const cases: [string, Record<string, string>, string, RegExp, { maxBytes?: number }?][] = [
      [`a: { $ref: "${join(outside, 'x.yaml')}#/X" }\n`, {}, 'ref-outside-folder', /refused: it is outside the spec's folder .* list its folder under refs\.allowFrom/],
      ['a: { $ref: ".env#/X" }\n', { '.env': 'X: {}\n' }, 'ref-not-description-file', /only JSON or YAML description files may be referenced .*dotfiles/],
      ['a: { $ref: "notes.txt#/X" }\n', { 'notes.txt': 'X: {}\n' }, 'ref-not-description-file', /only JSON or YAML/],
      ['a: { $ref: ".secret/x.yaml#/X" }\n', { '.secret/x.yaml': 'X: {}\n' }, 'ref-not-description-file', /dot-folders are never read/],
      ['a: { $ref: "missing.yaml#/X" }\n', {}, 'ref-file-missing', /missing\.yaml: file not found .*Check the path/],
      ['a: { $ref: "big.yaml#/X" }\n', { 'big.yaml': `X: "${'x'.repeat(200)}"\n` }, 'ref-file-too-large', /big\.yaml: file is \d+ bytes, above the limit of 100 bytes .*maxSpecBytes/, { maxBytes: 100 }],
      ['a: { $ref: "broken.yaml#/X" }\n', { 'broken.yaml': 'X: [\n' }, 'ref-file-invalid', /broken\.yaml at line \d+, column \d+: YAML syntax error: /],
      ['a: { $ref: "https://example.com/x.yaml#/X" }\n', {}, 'ref-remote-refused', /^remote \$ref to https:\/\/example\.com\/x\.yaml refused .*refs\.remote: true/],
    ];
    for (const [rootText, files, code, message, options] of cases) {
      const { root, problems } = await load(rootText, files, options);
      assert.equal(problems.length, 1, `${code}: ${JSON.stringify(problems)}`);
      const p = problems[0]!;
      assert.equal(p.code, code);
      assert.match(`${p.message} ${p.hint ?? ''}`, message);
      assert.equal(p.file, root, 'placed in the file that holds the $ref');
      assert.equal(p.pointer, '/a', 'at the $ref');
    }
  });

  it('lets a $ref read a folder named in allowRefsFrom', async () => {
    const shared = mkdtempSync(join(dir, 'shared-'));
    writeFileSync(join(shared, 'common.yaml'), 'Common: { type: string }\n');
    const { root, docs, problems } = await load(`a: { $ref: "${join(shared, 'common.yaml')}#/Common" }\n`, {}, { allowRefsFrom: [shared] });
    assert.deepEqual(problems, []);
    assert.deepEqual(docs.lookup(`${join(shared, 'common.yaml')}#/Common`, root), { ok: true, file: join(shared, 'common.yaml'), pointer: '/Common', node: { type: 'string' } });
  });
});
