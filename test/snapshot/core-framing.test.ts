// A core's framing (src/snapshot/codec.ts, decodeCore): part count, each part's length, then the
// parts (head, link table, cold blocks, shared values, endpoint chunks, per-document data, postings).
// A core cut short anywhere, grown, or whose head does not agree with its parts is refused with an
// error that says so (the daemon's note shows it, and the spec is imported again); it never decodes
// to a spec with endpoints missing. The decoder lets the thread go between chunks.
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { importSpec } from '../../src/import/index.ts';
import type { ImportedSpec } from '../../src/model/index.ts';
import { CODEC_VERSION, decodeCore, specFromCore } from '../../src/snapshot/index.ts';
import { coreParts, decodeRefusal, encodedCore, framedParts, served } from './support.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/import');

let spec: ImportedSpec;
let core: Buffer;

before(async () => {
  const outcome = await importSpec(path.join(FIXTURES, 'oas30-params/openapi.yaml'), { name: 's', collection: 'default' });
  assert.ok(outcome.ok);
  spec = outcome.spec;
  core = encodedCore(spec);
});

/** The core with its head edited (and framed again). */
function withHead(edit: (head: Record<string, unknown>) => void, parts = coreParts(core)): Buffer {
  const head = JSON.parse(parts[0]!.toString('utf8')) as Record<string, unknown>;
  edit(head);
  return framedParts([Buffer.from(JSON.stringify(head)), ...parts.slice(1)]);
}

const head = (): Record<string, unknown> => JSON.parse(coreParts(core)[0]!.toString('utf8')) as Record<string, unknown>;


describe('a core', () => {
  it('decodes to what the import serves, its parts where the encoder framed them', async () => {
    const parts = coreParts(core);
    const h = head();
    assert.equal(h['v'], CODEC_VERSION);
    assert.equal(parts.length, 4 + (h['sharedChunks'] as number) + (h['endpointChunks'] as number) + (h['postingChunks'] as number));
    const decoded = await decodeCore(new Uint8Array(core));
    assert.equal(decoded.coreBytes, core.length);
    assert.ok(decoded.links.equals(parts[1]!));
    assert.equal(decoded.linksOffset, 4 * (parts.length + 1) + parts[0]!.length);
    assert.ok(core.subarray(decoded.linksOffset, decoded.linksOffset + decoded.links.length).equals(parts[1]!));
    const postingParts = parts.slice(parts.length - 1 - (h['postingChunks'] as number));
    assert.ok(decoded.postings.read()!.equals(Buffer.concat(postingParts)));
    assert.ok(core.subarray(decoded.postingsOffset).equals(Buffer.concat(postingParts)));
    assert.equal(decoded.endpoints.length, spec.endpoints.length);
    assert.deepEqual(decoded.digests, h['digests']);
    assert.deepEqual(served(specFromCore(decoded, undefined)), served(spec));
  });

  it('cut short anywhere: refused, by how far it reaches', async () => {
    const count = core.readUInt32LE(0);
    const frameEnd = 4 * (count + 1);
    const ends = new Set<number>([0, 1, 3, 4, 5, frameEnd - 1, frameEnd, frameEnd + 1, core.length - 1]);
    let at = frameEnd;
    for (const p of coreParts(core)) {
      for (const d of [-1, 0, 1]) if (at + d >= 0 && at + d < core.length) ends.add(at + d);
      at += p.length;
    }
    const check = async (length: number): Promise<void> => {
      const why = await decodeRefusal(new Uint8Array(core.subarray(0, length)));
      if (length < 4) assert.equal(why, 'spec image too short', `length ${length}`);
      else if (length < frameEnd) assert.equal(why, 'spec image framing is wrong', `length ${length}`);
      else assert.equal(why, 'spec image is cut short', `length ${length}`);
    };
    for (const length of ends) await check(length);
    await fc.assert(fc.asyncProperty(fc.nat({ max: core.length - 1 }), check), { numRuns: 100 });
  });

  it('with bytes after its last part: refused', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 64 }), async (extra) => {
        assert.equal(await decodeRefusal(new Uint8Array(Buffer.concat([core, extra]))), 'spec image has trailing bytes');
      }),
      { numRuns: 20 },
    );
  });

  it('framed with too few parts, or more than the bytes can frame: refused', async () => {
    for (const count of [0, 1, 2]) {
      const bytes = Buffer.from(core);
      bytes.writeUInt32LE(count, 0);
      assert.equal(await decodeRefusal(new Uint8Array(bytes)), 'spec image framing is wrong', `count ${count}`);
    }
    // Four bytes of frame per part and one for the count: a count the bytes cannot hold.
    for (const extra of [0, 4]) {
      const bytes = Buffer.alloc(4 * 4 + extra);
      bytes.writeUInt32LE(4, 0);
      // The head's length, one byte past the end: a frame that fits, parts that do not.
      bytes.writeUInt32LE(1, 4);
      assert.equal(await decodeRefusal(new Uint8Array(bytes)), extra === 0 ? 'spec image framing is wrong' : 'spec image is cut short', `extra ${extra}`);
    }
    // One part more or fewer than the head counts.
    const parts = coreParts(core);
    assert.equal(await decodeRefusal(new Uint8Array(framedParts([...parts, Buffer.from('[]')]))), 'spec image parts do not agree');
    assert.equal(await decodeRefusal(new Uint8Array(framedParts(parts.slice(0, -1)))), 'spec image parts do not agree');
  });

  it('whose head is of another version or lacks what it must hold: refused', async () => {
    const cases: [string, (h: Record<string, unknown>) => void][] = [
      ['an older version', (h) => (h['v'] = CODEC_VERSION - 1)],
      ['a newer version', (h) => (h['v'] = CODEC_VERSION + 1)],
      ['the version as text', (h) => (h['v'] = String(CODEC_VERSION))],
      ['no meta', (h) => delete h['meta']],
      ['no index', (h) => delete h['index']],
      ['no endpoint count', (h) => delete h['endpointCount']],
      ['the endpoint count as text', (h) => (h['endpointCount'] = String(h['endpointCount']))],
    ];
    for (const [label, edit] of cases) assert.equal(await decodeRefusal(new Uint8Array(withHead(edit))), 'not a spec image of this version', label);
    assert.equal(await decodeRefusal(new Uint8Array(framedParts([Buffer.from('null'), ...coreParts(core).slice(1)]))), 'not a spec image of this version');
  });

  it('whose head counts other parts than it has: refused', async () => {
    const h = head();
    const shared = h['sharedChunks'] as number;
    const endpoints = h['endpointChunks'] as number;
    const postings = h['postingChunks'] as number;
    const cases: [string, (h: Record<string, unknown>) => void][] = [
      ['no shared count', (x) => delete x['sharedChunks']],
      ['no endpoint chunk count', (x) => delete x['endpointChunks']],
      ['no posting chunk count', (x) => delete x['postingChunks']],
      ['a negative shared count', (x) => ((x['sharedChunks'] = -1), (x['endpointChunks'] = endpoints + shared + 1))],
      ['a fractional count', (x) => ((x['sharedChunks'] = shared + 0.5), (x['endpointChunks'] = endpoints - 0.5))],
      ['one shared chunk more', (x) => (x['sharedChunks'] = shared + 1)],
      ['one endpoint chunk more', (x) => (x['endpointChunks'] = endpoints + 1)],
      ['one posting chunk more', (x) => (x['postingChunks'] = postings + 1)],
      ['one posting chunk fewer', (x) => (x['postingChunks'] = postings - 1)],
      ['digests not a list', (x) => (x['digests'] = 'abc')],
      ['one digest more than files', (x) => (x['digests'] = [...(x['digests'] as string[]), 'x'])],
      ['one digest fewer than files', (x) => (x['digests'] = (x['digests'] as string[]).slice(1))],
      ['one endpoint more than the chunks hold', (x) => (x['endpointCount'] = (x['endpointCount'] as number) + 1)],
    ];
    for (const [label, edit] of cases) assert.match(await decodeRefusal(new Uint8Array(withHead(edit))), /^spec image (parts do not agree|cold blocks do not agree)$/, label);
    // The count as the parts have it, moved from one kind to another, is not the same core either.
    if (shared > 0) assert.notEqual(await decodeRefusal(new Uint8Array(withHead((x) => ((x['sharedChunks'] = shared - 1), (x['endpointChunks'] = endpoints + 1))))), '');
  });

  it('whose chunks are not lists, or whose summaries name terms it does not hold: refused', async () => {
    const h = head();
    const shared = h['sharedChunks'] as number;
    const parts = coreParts(core);
    const replaced = (i: number, text: string): Uint8Array => new Uint8Array(framedParts(parts.map((p, j) => (j === i ? Buffer.from(text) : p))));
    if (shared > 0) assert.equal(await decodeRefusal(replaced(3, '{"a":1}')), 'spec image part is not a list');
    assert.equal(await decodeRefusal(replaced(3 + shared, '{"a":1}')), 'spec image part is not a list');
    assert.equal(await decodeRefusal(replaced(3 + shared, '7')), 'spec image part is not a list');
    const terms = ((h['index'] as { terms: string[] }).terms ?? []).length;
    const edited = (summaries: unknown) => withHead((x) => ((x['index'] as Record<string, unknown>)['summaries'] = summaries));
    assert.equal(await decodeRefusal(new Uint8Array(edited([[terms]]))), 'spec image summary names a term it does not hold');
    assert.equal(await decodeRefusal(new Uint8Array(edited([[-1]]))), 'spec image summary names a term it does not hold');
    assert.equal(await decodeRefusal(new Uint8Array(edited([[true]]))), 'spec image summary names a term it does not hold');
    assert.equal(await decodeRefusal(new Uint8Array(edited('x'))), 'spec image index is not shaped right');
    assert.equal(await decodeRefusal(new Uint8Array(edited([7]))), 'spec image index is not shaped right');
    assert.equal(await decodeRefusal(new Uint8Array(withHead((x) => ((x['index'] as Record<string, unknown>)['terms'] = 'x')))), 'spec image index is not shaped right');
  });

  it('lets the thread go before each chunk of shared values and endpoints', async () => {
    const h = head();
    let pauses = 0;
    await decodeCore(new Uint8Array(core), async () => {
      pauses++;
    });
    assert.equal(pauses, (h['sharedChunks'] as number) + (h['endpointChunks'] as number));
    assert.ok(pauses >= 2);
  });
});
