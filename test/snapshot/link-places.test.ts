// Where linked schema nodes sit (src/snapshot/link-places.ts): the walk that names each wanted
// object by its JSON pointer visits the sections where linked schemas sit first and stops early,
// yet every wanted object, wherever it sits, gets a pointer that leads to that very object.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { lookupPointer } from '../../src/import/pointer.ts';
import { collectPlaces } from '../../src/snapshot/link-places.ts';

/** Objects and arrays under a few keys a description uses (and odd ones: `~`, `/`), a few levels deep. */
const key = fc.constantFrom('paths', 'components', 'schemas', 'examples', 'parameters', 'responses', 'webhooks', 'get', '/a/{b}', 'x~y', 'schema', 'items', '0');
const tree = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant(1), fc.dictionary(key, tie('node'), { maxKeys: 4 }), fc.array(tie('node'), { maxLength: 3 })),
})).node;

/** Every object and array of `root`. */
function objects(root: unknown, out: object[] = []): object[] {
  if (root === null || typeof root !== 'object') return out;
  out.push(root);
  for (const v of Object.values(root)) objects(v, out);
  return out;
}

describe('the places of linked schema nodes', () => {
  it('every wanted object, wherever it sits, gets a pointer that leads to it', () => {
    fc.assert(
      fc.property(fc.dictionary(key, tree, { maxKeys: 5 }), fc.array(fc.nat(), { maxLength: 8 }), (root, picks) => {
        const all = objects(root);
        const wanted = new Set(picks.map((p) => all[p % all.length]!).filter((o) => o !== root));
        const out = new Map<object, string>();
        collectPlaces(root, wanted, out);
        assert.equal(out.size, wanted.size);
        for (const w of wanted) {
          const found = lookupPointer(root, out.get(w)!);
          assert.ok(found.found && found.value === w, `pointer ${out.get(w)} leads elsewhere`);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('stops once every wanted object is met: a section walked last is not walked when nothing wanted is in it', () => {
    const schema = { type: 'string' };
    let walked = false;
    const examples = new Proxy({}, { ownKeys: () => ((walked = true), []) });
    // A plain depth-first walk would take `examples` first (the last key pushed is the first taken).
    const doc = { paths: { '/a': { get: { parameters: [{ $ref: '#/components/parameters/p' }] } } }, components: { parameters: { p: { schema } }, examples } };
    const out = new Map<object, string>();
    collectPlaces(doc, new Set([schema]), out);
    assert.equal(walked, false);
    assert.equal(out.get(schema), '/components/parameters/p/schema');
  });
});
