// On-demand schema resolution from its contract, over generated `$ref` graphs: every reference is
// expanded to what it points at; a reference met again on its own path is marked `$circular` (and
// only then); nothing is expanded past maxDepth; siblings of a `$ref` stay on top of what it points
// at; a reference to nothing says why; shallow() follows a chain of references to its end.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DocumentSet } from '../../src/import/documents.ts';
import { DocumentSchemaResolver } from '../../src/import/schemas.ts';

const FILE = '/specs/api.yaml';

function resolver(defs: Record<string, unknown>): DocumentSchemaResolver {
  return new DocumentSchemaResolver(new DocumentSet(FILE, { components: { schemas: defs } }, Buffer.from('x')));
}
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The reference expansion: the same contract written out plainly. */
function expand(defs: Record<string, unknown>, node: unknown, path: string[], depth: number, maxDepth: number): unknown {
  if (node === null || typeof node !== 'object') return node;
  const r = (node as { $ref?: unknown }).$ref;
  if (typeof r === 'string') {
    const name = r.split('/').pop()!;
    if (path.includes(name)) return { $circular: r };
    if (depth >= maxDepth) return { $truncated: r };
    return expand(defs, defs[name], [...path, name], depth + 1, maxDepth);
  }
  if (depth >= maxDepth) return { $truncated: 'depth' };
  if (Array.isArray(node)) return node.map((v) => expand(defs, v, path, depth + 1, maxDepth));
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, expand(defs, v, path, depth + 1, maxDepth)]));
}

/** Definitions d0..dn whose properties refer to any definitions (cycles included). */
const graph = fc.integer({ min: 1, max: 5 }).chain((n) =>
  fc.array(fc.array(fc.integer({ min: 0, max: n - 1 }), { maxLength: 3 }), { minLength: n, maxLength: n }).map((edges) => {
    const defs: Record<string, unknown> = {};
    edges.forEach((targets, i) => {
      defs[`d${i}`] = { type: 'object', properties: Object.fromEntries(targets.map((t, j) => [`p${j}`, ref(`d${t}`)])), items: [{ type: 'string' }] };
    });
    return defs;
  }),
);

describe('schema resolution', () => {
  it('expands every reference, marks exactly the ones met again on their own path, and stops at maxDepth', () => {
    fc.assert(
      fc.property(graph, fc.integer({ min: 1, max: 12 }), (defs, maxDepth) => {
        const r = resolver(defs);
        const start = { file: FILE, node: ref('d0') };
        assert.deepEqual(r.resolve(start, { maxDepth }), expand(defs, start.node, [], 0, maxDepth));
      }),
    );
  });

  it('uses a depth of 64 unless told otherwise', () => {
    // A chain of 70 definitions, each pointing at the next.
    const defs: Record<string, unknown> = {};
    for (let i = 0; i < 70; i++) defs[`d${i}`] = i === 69 ? { type: 'string' } : ref(`d${i + 1}`);
    const r = resolver(defs);
    assert.deepEqual(r.resolve({ file: FILE, node: ref('d0') }), { $truncated: '#/components/schemas/d64' });
    assert.deepEqual(r.resolve({ file: FILE, node: ref('d0') }), expand(defs, ref('d0'), [], 0, 64));
  });

  it('keeps the siblings of a $ref on top of what it points at, resolved too', () => {
    const defs = { Pet: { type: 'object', description: 'a pet' }, Name: { type: 'string' } };
    const r = resolver(defs);
    assert.deepEqual(r.resolve({ file: FILE, node: { $ref: '#/components/schemas/Pet', description: 'the owner\'s pet', extra: ref('Name') } }), { type: 'object', description: 'the owner\'s pet', extra: { type: 'string' } });
    assert.deepEqual(r.resolve({ file: FILE, node: { $ref: '#/components/schemas/Name' } }), { type: 'string' });
    // Siblings of a reference to something that is not an object are dropped: nothing to put them on.
    const list = resolver({ L: [1, 2] });
    assert.deepEqual(list.resolve({ file: FILE, node: { $ref: '#/components/schemas/L', description: 'x' } }), [1, 2]);
  });

  it('says why a reference cannot be followed, and leaves plain values alone', () => {
    const r = resolver({});
    const out = r.resolve({ file: FILE, node: { properties: { a: ref('Missing') } } }) as { properties: { a: { $unresolved: string; reason: string } } };
    assert.equal(out.properties.a.$unresolved, '#/components/schemas/Missing');
    assert.match(out.properties.a.reason, /nothing at #\/components\/schemas\/Missing/);
    assert.equal(r.resolve({ file: FILE, node: 'text' }), 'text');
    assert.equal(r.resolve({ file: FILE, node: null }), null);
    assert.deepEqual(r.resolve({ file: FILE, node: { $ref: 5 } }), { $ref: 5 }, 'a $ref that is not a string is a plain key');
  });

  it('stops a schema that would produce more than 50,000 nodes', () => {
    // Ten levels of ten properties, each a reference to the next level: 10^10 nodes if expanded.
    const defs: Record<string, unknown> = {};
    for (let i = 0; i < 10; i++) defs[`l${i}`] = { type: 'object', properties: Object.fromEntries(Array.from({ length: 10 }, (_, j) => [`p${j}`, i === 9 ? { type: 'string' } : ref(`l${i + 1}`)])) };
    const out = JSON.stringify(resolver(defs).resolve({ file: FILE, node: ref('l0') }));
    assert.match(out, /"\$truncated":"(#\/components\/schemas\/l\d|size limit)"/);
    let count = 0;
    JSON.parse(out, (_k, v) => (count++, v));
    assert.ok(count < 120_000, `${count} values`);
  });

  it('shallow follows a chain of references to its end, and keeps a link it cannot follow', () => {
    const r = resolver({ A: ref('B'), B: ref('C'), C: { type: 'integer' } });
    assert.deepEqual(r.shallow({ file: FILE, node: ref('A') }), { file: FILE, node: { type: 'integer' } });
    const broken = { file: FILE, node: ref('Nope') };
    assert.equal(r.shallow(broken), broken);
    const plain = { file: FILE, node: { type: 'string' } };
    assert.deepEqual(r.shallow(plain), plain);
    assert.ok(r.documents instanceof DocumentSet);
  });
});
