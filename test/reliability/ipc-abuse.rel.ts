// Abuse of the IPC server (src/ipc/server.ts) on a real Unix socket: garbage, partial and
// oversized frames, a thousand connections, clients that never send, clients that hang up
// mid-reply. Throughout, `status` (through the CLI's own client) keeps answering within budget.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IpcServer } from '../../src/ipc/server.ts';
import { request } from '../../src/ipc/client.ts';
import {
  concurrentPings,
  disconnectMidReply,
  garbageAttack,
  idleConnections,
  oversizedFrame,
  partialFrames,
  statusDuring,
  summarize,
  truncatedFrames,
} from './support/ipc-attacks.ts';
import { recordFigures, round } from './support/figures.ts';
import { scaled } from './support/scale.ts';
import { startDaemon, type LiveDaemon } from './support/daemon.ts';
import { writeFileSync } from 'node:fs';

/** status must answer within this, whatever else is going on. */
const STATUS_BUDGET_MS = 1000;

const dir = mkdtempSync(join(tmpdir(), 'svc-ipc-'));
const path = join(dir, 'd.sock');
let server: IpcServer;
const figures: Record<string, string | number> = {};
const liveFigures: Record<string, string | number> = {};
let live: LiveDaemon | undefined;
const big = 'x'.repeat(8 * 1024 * 1024);

before(async () => {
  // A live daemon with a spec big enough that listings make long replies.
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < 3000; i++) paths[`/things/${i}/{id}`] = { get: { summary: `Get thing ${i} with a longish summary to make the listing lines long`, tags: ['things'], responses: { '200': { description: 'OK' } } } };
  writeFileSync(join(dir, 'big.json'), JSON.stringify({ openapi: '3.0.3', info: { title: 'big', version: '1' }, paths }));
  writeFileSync(join(dir, 'svc.yaml'), 'specs:\n  - path: big.json\n');
  live = await startDaemon({ config: join(dir, 'svc.yaml'), cwd: dir, socket: join(dir, 'live.sock') });
  server = await IpcServer.listen({
    target: { kind: 'explicit', path, source: 'test' },
    handlers: {
      ping: () => ({ pid: process.pid, version: 'test', protocol: 1, config: 'test' }),
      status: () => ({ pid: process.pid, uptimeMs: process.uptime() * 1000, memory: process.memoryUsage() }),
      list: () => ({ text: big }),
    },
  });
});

after(async () => {
  const st = await live?.status().catch(() => undefined);
  if (st) liveFigures['daemon heap after, MB'] = round(st.memory.heapUsed / 1048576);
  await live?.stop();
  if (Object.keys(liveFigures).length > 0) recordFigures('ipc-abuse (live daemon, svc serve)', liveFigures);
  await server.close();
  rmSync(dir, { recursive: true, force: true });
  const heap = process.memoryUsage().heapUsed / 1048576;
  figures['test process heap after, MB'] = round(heap);
  recordFigures('ipc-abuse (in-process IpcServer)', figures);
});

const status = (): Promise<unknown> => request(path, 'status', {}, { timeoutMs: STATUS_BUDGET_MS });

function assertStatusHeld(figures: Record<string, string | number>, name: string, s: ReturnType<typeof summarize>): void {
  figures[`${name}: status calls`] = s.calls;
  figures[`${name}: status failures`] = s.failures;
  figures[`${name}: status p99 ms`] = s.p99;
  assert.equal(s.failures, 0, `${name}: status failed ${s.failures} of ${s.calls} times: ${s.firstFailure ?? ""}`);
  assert.ok(s.max < STATUS_BUDGET_MS, `${name}: status took ${s.max} ms`);
}

function attacks(label: string, socket: () => string, status: () => Promise<unknown>, figures: Record<string, string | number>, bigReply: { method: string; params: Record<string, unknown> }, connections: () => number): void {
  test('garbage lines each get an error reply and the connection keeps working', { timeout: 30_000 }, async () => {
    const lines = scaled(2000);
    const { result, status: st } = await statusDuring(status, 20, () => garbageAttack(socket(), lines));
    figures['garbage lines sent'] = result.sent;
    figures['garbage error replies'] = result.errorReplies;
    assert.ok(result.survived, 'the connection no longer answered a ping after the garbage');
    assert.ok(result.errorReplies > lines / 2, `only ${result.errorReplies} error replies for ${lines} lines`);
    assertStatusHeld(figures, 'garbage', summarize(st));
  });

  test('a request trickled in one byte at a time is answered', { timeout: 10_000 }, async () => {
    assert.ok(await partialFrames(socket()));
  });

  test('frames cut by a hang-up leave the server serving', { timeout: 30_000 }, async () => {
    const { status: st } = await statusDuring(status, 20, () => truncatedFrames(socket(), scaled(200)));
    assertStatusHeld(figures, 'truncated frames', summarize(st));
  });

  test('an oversized frame is refused as too-large without buffering it, and the connection goes on', { timeout: 60_000 }, async () => {
    const before = process.memoryUsage().rss;
    const { result, status: st } = await statusDuring(status, 20, () => oversizedFrame(socket(), 64));
    const grewMb = (process.memoryUsage().rss - before) / 1048576;
    figures['oversized frame MB'] = 64;
    figures['oversized frame: rss growth of the test process (client and server), MB'] = round(grewMb);
    assert.equal(result.reply['ok'], false);
    assert.equal((result.reply['error'] as { code: string }).code, 'too-large');
    assert.ok(result.nextOk, 'the connection did not answer after the oversized frame');
    assertStatusHeld(figures, 'oversized', summarize(st));
  });

  test('a thousand concurrent connections each asking ping: the server stays up and status answers', { timeout: 60_000 }, async () => {
    const n = scaled(1000);
    const { result, status: st } = await statusDuring(status, 20, () => concurrentPings(socket(), n));
    figures['concurrent connections'] = n;
    figures['concurrent: answered'] = result.answered;
    figures['concurrent: refused or dropped'] = result.failed;
    figures['concurrent: ping p99 ms'] = result.p99;
    assert.ok(result.answered > 0);
    assertStatusHeld(figures, 'concurrent', summarize(st));
  });

  test(
    'clients that connect and never send do not lock status out',
    { timeout: 60_000 },
    async () => {
      // More than the server's cap (1,024), so it has to close some of them to let status in.
      const n = scaled(1500);
      const idle = await idleConnections(socket(), n);
      try {
        figures['idle connections opened'] = idle.sockets.length;
        figures['idle: refused'] = idle.refused;
        const samples: number[] = [];
        const failures: string[] = [];
        for (let i = 0; i < 20; i++) {
          const t0 = performance.now();
          try {
            await status();
            samples.push(performance.now() - t0);
          } catch (error) {
            failures.push((error as Error).message);
          }
        }
        figures['idle: closed by server'] = idle.closedByServer();
        assertStatusHeld(figures, 'idle', { calls: 20, failures: failures.length, firstFailure: failures[0], p50: 0, p99: round(Math.max(0, ...samples)), max: Math.max(0, ...samples) });
      } finally {
        for (const s of idle.sockets) s.destroy();
      }
    },
  );

  test('clients that hang up mid-reply leave the server serving', { timeout: 60_000 }, async () => {
    const { status: st } = await statusDuring(status, 20, () => disconnectMidReply(socket(), bigReply.method, bigReply.params, scaled(50)));
    assertStatusHeld(figures, 'disconnect mid-reply', summarize(st));
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(connections() <= 2, `${connections()} connections still open after the clients left`);
  });
}

describe('IPC server under abuse (in-process IpcServer, test handlers)', () => {
  attacks('in-process', () => path, status, figures, { method: 'list', params: {} }, () => server.connections);
});

describe('IPC of a live daemon under abuse (svc serve)', () => {
  attacks('live', () => live!.socket, () => live!.status(STATUS_BUDGET_MS), liveFigures, { method: 'list', params: { spec: 'big', limit: 100 } }, () => 0);
  test('the live daemon is still up and its catalogue intact', { timeout: 10_000 }, async () => {
    const st = await live!.status(STATUS_BUDGET_MS);
    assert.equal(st.totals.endpoints, 3000);
    assert.ok(live!.alive());
  });
});
