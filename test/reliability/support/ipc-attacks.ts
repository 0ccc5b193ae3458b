// Attacks on an IPC socket, shared by the in-process IpcServer test and the live-daemon test.
// Each attack runs while `status` is being asked: the answer must keep coming within the budget.
import { createConnection, type Socket } from 'node:net';
import { garbage } from '../hostile/generate.ts';
import { percentile, round } from './figures.ts';

export interface StatusProbe {
  /** One status round trip; rejects on failure. */
  (): Promise<unknown>;
}

export function connect(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = createConnection(path);
    s.once('connect', () => {
      s.off('error', reject);
      s.on('error', () => {});
      resolve(s);
    });
    s.once('error', reject);
  });
}

/** Reads newline-delimited JSON replies from a socket. */
export function replies(socket: Socket): { next(timeoutMs?: number): Promise<Record<string, unknown>>; all: Record<string, unknown>[] } {
  const all: Record<string, unknown>[] = [];
  let buf = '';
  const waiters: ((m: Record<string, unknown>) => void)[] = [];
  let read = 0;
  socket.on('data', (chunk: Buffer) => {
    buf += chunk.toString('utf8');
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      if (line.trim() === '') continue;
      const msg = JSON.parse(line) as Record<string, unknown>;
      all.push(msg);
      waiters.shift()?.(msg);
    }
  });
  return {
    all,
    next(timeoutMs = 5000) {
      if (read < all.length) return Promise.resolve(all[read++]!);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no reply within ${timeoutMs} ms`)), timeoutMs);
        waiters.push((m) => {
          clearTimeout(timer);
          read++;
          resolve(m);
        });
      });
    },
  };
}

export interface TimedStatus {
  readonly ms: number[];
  readonly failures: string[];
}

/** Asks status every `everyMs` until `stop` resolves; collects latencies and failures. */
export async function statusDuring<T>(probe: StatusProbe, everyMs: number, work: () => Promise<T>): Promise<{ result: T; status: TimedStatus }> {
  const status: TimedStatus = { ms: [], failures: [] };
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      try {
        await probe();
        status.ms.push(performance.now() - t0);
      } catch (error) {
        status.failures.push(error instanceof Error ? error.message : String(error));
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  try {
    const result = await work();
    return { result, status };
  } finally {
    running = false;
    await loop;
  }
}

export function summarize(s: TimedStatus): { calls: number; failures: number; p50: number; p99: number; max: number; firstFailure?: string } {
  return { calls: s.ms.length + s.failures.length, failures: s.failures.length, firstFailure: s.failures[0], p50: round(percentile(s.ms, 50)), p99: round(percentile(s.ms, 99)), max: round(Math.max(0, ...s.ms)) };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Garbage bytes, bad JSON, wrong shapes: each line gets an error reply, the connection lives on. */
export async function garbageAttack(path: string, lines: number): Promise<{ sent: number; errorReplies: number; survived: boolean }> {
  const s = await connect(path);
  const r = replies(s);
  const junk = [
    'not json',
    '{"v":1}',
    '[]',
    'null',
    '{"v":1,"id":1}',
    '{"v":99,"id":2,"method":"ping"}',
    '{"v":1,"id":3,"method":"nope"}',
    '{"v":1,"id":4,"method":"ping","params":[1]}',
    '{"v":1,"id":{"x":1},"method":"ping"}',
    '{"v":1,"id":5,"method":"__proto__"}',
    '{"v":1,"id":6,"method":"constructor"}',
    '{"v":1,"id":7,"method":"toString"}',
    '\u0000\u0001\u0002',
    '{"v":1,"id":8,"method":"status","params":{"__proto__":{"polluted":true}}}',
  ];
  let sent = 0;
  // Random binary, split so that each piece is one line (the codec frames on \n).
  const bin = garbage(64 * 1024, 7);
  for (let i = 0; i < lines; i++) {
    const line = i % 2 === 0 ? junk[i % junk.length]! : bin.subarray((i * 97) % 60000, ((i * 97) % 60000) + 200).toString('latin1').replace(/\n/g, ' ');
    s.write(line + '\n');
    sent++;
  }
  // Lines that are empty after trimming get no reply, so count what came back and then prove liveness.
  await sleep(200);
  s.write('{"v":1,"id":"alive","method":"ping"}\n');
  let survived = false;
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const m = await r.next(10_000);
    if (m['id'] === 'alive') {
      survived = m['ok'] === true;
      break;
    }
  }
  s.destroy();
  return { sent, errorReplies: r.all.filter((m) => m['ok'] === false).length, survived };
}

/** A request sent one byte at a time, with pauses: the reply must still be right. */
export async function partialFrames(path: string): Promise<boolean> {
  const s = await connect(path);
  const r = replies(s);
  const req = '{"v":1,"id":"slow","method":"ping"}\n';
  for (const ch of req) {
    s.write(ch);
    await sleep(2);
  }
  const m = await r.next(5000);
  s.destroy();
  return m['id'] === 'slow' && m['ok'] === true;
}

/** Half a frame, then hang up; and a frame cut by a FIN. Nothing to check but survival. */
export async function truncatedFrames(path: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const s = await connect(path);
    s.end('{"v":1,"id":1,"method":"sta');
    await new Promise((r) => s.once('close', r));
  }
}

/** `mb` megabytes with no newline, then a newline: the daemon must answer too-large and keep the connection. */
export async function oversizedFrame(path: string, mb: number): Promise<{ reply: Record<string, unknown>; nextOk: boolean }> {
  const s = await connect(path);
  const r = replies(s);
  const chunk = Buffer.alloc(1024 * 1024, 0x61);
  for (let i = 0; i < mb; i++) {
    if (!s.write(chunk)) await new Promise((res) => s.once('drain', res));
  }
  s.write('\n');
  const reply = await r.next(20_000);
  s.write('{"v":1,"id":"after","method":"ping"}\n');
  const after = await r.next(5000);
  s.destroy();
  return { reply, nextOk: after['id'] === 'after' && after['ok'] === true };
}

/** Opens `n` connections and keeps them open without sending a byte. */
export async function idleConnections(path: string, n: number): Promise<{ sockets: Socket[]; refused: number; closedByServer: () => number }> {
  const sockets: Socket[] = [];
  let refused = 0;
  let closed = 0;
  const batch = 100;
  for (let i = 0; i < n; i += batch) {
    const results = await Promise.allSettled(Array.from({ length: Math.min(batch, n - i) }, () => connect(path)));
    for (const res of results) {
      if (res.status === 'fulfilled') {
        res.value.on('close', () => closed++);
        sockets.push(res.value);
      } else refused++;
    }
  }
  return { sockets, refused, closedByServer: () => closed };
}

/** `n` connections at once, each sending a ping: counts answered and refused. */
export async function concurrentPings(path: string, n: number): Promise<{ answered: number; failed: number; p50: number; p99: number }> {
  const ms: number[] = [];
  let failed = 0;
  await Promise.all(
    Array.from({ length: n }, async (_, i) => {
      const t0 = performance.now();
      try {
        const s = await connect(path);
        const r = replies(s);
        s.write(JSON.stringify({ v: 1, id: i, method: 'ping' }) + '\n');
        const m = await r.next(10_000);
        s.destroy();
        if (m['ok'] === true) ms.push(performance.now() - t0);
        else failed++;
      } catch {
        failed++;
      }
    }),
  );
  return { answered: ms.length, failed, p50: round(percentile(ms, 50)), p99: round(percentile(ms, 99)) };
}

/** Asks for a reply (`method`) and disconnects as soon as its first bytes arrive, or right after sending. */
export async function disconnectMidReply(path: string, method: string, params: Record<string, unknown>, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const s = await connect(path);
    s.write(JSON.stringify({ v: 1, id: i, method, params }) + '\n');
    if (i % 2 === 0) s.destroy();
    else {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 2000);
        s.once('data', () => {
          clearTimeout(t);
          resolve();
        });
      });
      s.destroy();
    }
  }
}
