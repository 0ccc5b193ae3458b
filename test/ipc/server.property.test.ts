// The IPC server's contract on generated conversations over a real Unix socket: every line gets
// exactly one reply (errors included), a request's reply carries its id, an `echo` returns its
// params unchanged, and oversized lines get `too-large`; whatever the chunking of the bytes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { IpcServer } from '../../src/ipc/server.ts';
import { PROTOCOL_VERSION } from '../../src/ipc/protocol.ts';

const skip = process.platform === 'win32' ? 'Unix sockets only' : false;
const CAP = 2048;
const dir = mkdtempSync(join(tmpdir(), 'svc-ipcprop-'));
let server: IpcServer;

before(async () => {
  if (skip) return;
  server = await IpcServer.listen({
    target: { kind: 'explicit', path: join(dir, 'p.sock'), source: 'test' },
    handlers: { echo: (params) => params, slow: async (params) => new Promise((resolve) => setTimeout(() => resolve(params), 2)) },
    maxMessageBytes: CAP,
  });
});
after(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

type Line =
  | { readonly kind: 'request'; readonly id: number; readonly method: 'echo' | 'slow' | 'nope'; readonly params: Record<string, unknown> }
  | { readonly kind: 'garbage'; readonly text: string }
  | { readonly kind: 'oversized'; readonly size: number };

const line: fc.Arbitrary<Line> = fc.oneof(
  fc.record({
    kind: fc.constant('request' as const),
    id: fc.constant(0),
    method: fc.constantFrom('echo' as const, 'slow' as const, 'nope' as const),
    params: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  }),
  fc.record({ kind: fc.constant('garbage' as const), text: fc.string({ minLength: 1, maxLength: 40 }).map((s) => `#${s.replace(/[\r\n]/g, ' ')}`) }),
  fc.record({ kind: fc.constant('oversized' as const), size: fc.integer({ min: CAP, max: 4 * CAP }) }),
);

function render(l: Line): string {
  if (l.kind === 'request') return JSON.stringify({ v: PROTOCOL_VERSION, id: l.id, method: l.method, params: l.params });
  if (l.kind === 'garbage') return l.text;
  return `"${'z'.repeat(l.size)}"`;
}

function converse(payload: Buffer, cuts: readonly number[], expected: number): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(server.path);
    const replies: Record<string, unknown>[] = [];
    let buf = '';
    const timer = setTimeout(() => reject(new Error(`only ${replies.length} of ${expected} replies`)), 5000);
    socket.on('error', reject);
    socket.on('connect', async () => {
      let at = 0;
      for (const c of [...cuts.map((x) => Math.floor(x * payload.length)), payload.length].sort((a, b) => a - b)) {
        if (c <= at) continue;
        socket.write(payload.subarray(at, c));
        at = c;
        await new Promise((r) => setImmediate(r));
      }
    });
    socket.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        replies.push(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>);
        buf = buf.slice(nl + 1);
      }
      if (replies.length >= expected) {
        clearTimeout(timer);
        // Wait a moment for any extra reply, which would break "exactly one".
        setTimeout(() => {
          socket.destroy();
          resolve(replies);
        }, 20);
      }
    });
  });
}

test('every line of any conversation, cut into any chunks, gets exactly one reply of the right kind', { skip }, async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 12 }), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }), async (generated, cuts) => {
      // Ids unique per conversation (the client's duty), so each reply can be matched to its line.
      const lines = generated.map((l, i): Line => (l.kind === 'request' ? { ...l, id: i } : l));
      const payload = Buffer.from(lines.map((l) => `${render(l)}\n`).join(''));
      const replies = await converse(payload, cuts, lines.length);
      assert.equal(replies.length, lines.length);
      const byId = new Map<unknown, Record<string, unknown>[]>();
      for (const r of replies) byId.set(r['id'], [...(byId.get(r['id']) ?? []), r]);
      const anonymous = (byId.get(null) ?? []).map((r) => (r['error'] as { code: string }).code).sort();
      const expectedAnonymous = lines.filter((l) => l.kind !== 'request').map((l) => (l.kind === 'garbage' ? 'bad-json' : 'too-large')).sort();
      assert.deepEqual(anonymous, expectedAnonymous);
      for (const l of lines) {
        if (l.kind !== 'request') continue;
        const mine = byId.get(l.id);
        assert.equal(mine?.length, 1, `replies for id ${l.id}`);
        const r = mine![0]!;
        if (l.method === 'nope') assert.equal((r['error'] as { code: string }).code, 'unknown-method');
        else assert.deepEqual(r['result'], JSON.parse(JSON.stringify(l.params)));
      }
    }),
    { numRuns: 40 },
  );
});
