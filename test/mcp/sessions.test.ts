// The 2025-era session table from its contract, on a clock the test holds: the table never holds
// more than the cap, a full table closes a session of the client holding the most (never one of a
// client with fewer), within that client a session never used after its handshake first, then the
// one idle longest; expiry closes exactly the sessions idle past idleMs; every close happens once.
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SessionTable, clientKey, type SessionEntry } from '../../src/mcp/sessions.ts';

/**
 * A test here takes a second or two; one that hangs (an answer that never comes) fails here instead
 * of stalling the run. Suites get the same limit: node reports a suite's tests only when it ends.
 */
const HANG_MS = 15_000;

interface Entry extends SessionEntry {
  closed: number;
}

function entry(client: string, lastSeen: number, requests: number): Entry {
  const e: Entry = { client, lastSeen, requests, closed: 0, close: () => void e.closed++ };
  return e;
}

/** The reference: which session a full table closes for a newcomer of `client`. */
function expectedVictim(sessions: Map<string, Entry>, newcomer: string): string {
  const counts = new Map<string, number>([[newcomer, 1]]);
  for (const s of sessions.values()) counts.set(s.client, (counts.get(s.client) ?? 0) + 1);
  const most = Math.max(...counts.values());
  const busiest = counts.get(newcomer) === most ? newcomer : [...counts].find(([, n]) => n === most)![0];
  const rank = (s: Entry): [number, number] => [s.requests > 1 ? 1 : 0, s.lastSeen];
  const pool = [...sessions].filter(([, s]) => s.client === busiest);
  const from = pool.length > 0 ? pool : [...sessions];
  from.sort(([, a], [, b]) => rank(a)[0] - rank(b)[0] || rank(a)[1] - rank(b)[1]);
  return from[0]![0];
}

describe('HTTP session table', { timeout: HANG_MS }, () => {
  it('admits up to the cap, then closes the session the contract picks for each newcomer', { timeout: HANG_MS }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.record({ client: fc.constantFrom('a', 'b', 'c'), lastSeen: fc.integer({ min: 0, max: 1000 }), requests: fc.integer({ min: 0, max: 3 }) }), { minLength: 1, maxLength: 12 }),
        async (max, arrivals) => {
          // Distinct lastSeen values: ties have no contract.
          fc.pre(new Set(arrivals.map((a) => a.lastSeen)).size === arrivals.length);
          const logs: string[] = [];
          const table = new SessionTable<Entry>({ maxSessions: max, idleMs: 1e9, log: (l) => logs.push(l), now: () => 5000 });
          const model = new Map<string, Entry>();
          const all: Entry[] = [];
          arrivals.forEach((a, i) => {
            const e = entry(a.client, a.lastSeen, a.requests);
            all.push(e);
            if (model.size >= max) model.delete(expectedVictim(model, a.client));
            table.admit(`s${i}`, e);
            model.set(`s${i}`, e);
            assert.ok(table.size <= max);
            assert.equal(table.size, model.size);
            for (const id of model.keys()) assert.equal(table.get(id), model.get(id), `session ${id} kept`);
          });
          await tick();
          for (const e of all) assert.equal(e.closed, [...model.values()].includes(e) ? 0 : 1, 'closed exactly when evicted, once');
          assert.equal(logs.length, Math.max(0, arrivals.length - max));
          for (const l of logs) assert.equal(l, `${max} HTTP sessions open: closing an idle one of the client holding the most (serve.maxSessions)`);
          await table.closeAll();
          assert.equal(table.size, 0);
          for (const e of all) assert.equal(e.closed, 1);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a newcomer with as many sessions as the busiest other client loses its own, never the other\'s', { timeout: HANG_MS }, async () => {
    const table = new SessionTable<Entry>({ maxSessions: 2, idleMs: 1e9, now: () => 0 });
    const other = entry('other', 1, 5);
    const mine = entry('me', 100, 5);
    table.admit('o', other);
    table.admit('m', mine);
    table.admit('m2', entry('me', 200, 0));
    assert.equal(table.get('o'), other);
    assert.equal(table.get('m'), undefined);
    await table.closeAll();
  });

  it('a session used after its handshake outlives an unused one even when the unused one is newer', { timeout: HANG_MS }, async () => {
    const table = new SessionTable<Entry>({ maxSessions: 2, idleMs: 1e9, now: () => 0 });
    const used = entry('c', 1, 2);
    const handshakeOnly = entry('c', 50, 1);
    table.admit('used', used);
    table.admit('fresh', handshakeOnly);
    table.admit('new', entry('c', 60, 0));
    assert.equal(table.get('used'), used);
    assert.equal(table.get('fresh'), undefined);
    await table.closeAll();
  });

  it('touch marks a request and the time, and knows only admitted sessions', { timeout: HANG_MS }, async () => {
    let now = 10;
    const table = new SessionTable<Entry>({ maxSessions: 4, idleMs: 1e9, now: () => now });
    const e = entry('c', 0, 0);
    table.admit('x', e);
    now = 77;
    assert.equal(table.touch('x'), e);
    assert.equal(e.lastSeen, 77);
    assert.equal(e.requests, 1);
    assert.equal(table.touch('y'), undefined);
    assert.equal(table.get('y'), undefined);
    await table.closeAll();
  });

  it('expire closes exactly the sessions idle longer than idleMs', { timeout: HANG_MS }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1000 }), fc.array(fc.integer({ min: 0, max: 3000 }), { maxLength: 10 }), async (idleMs, seen) => {
        const now = 3000;
        const table = new SessionTable<Entry>({ maxSessions: 100, idleMs, now: () => now });
        const entries = seen.map((t, i) => {
          const e = entry(`c${i}`, t, 0);
          table.admit(`s${i}`, e);
          return e;
        });
        table.expire();
        await tick();
        entries.forEach((e, i) => {
          const stale = e.lastSeen < now - idleMs;
          assert.equal(table.get(`s${i}`) === undefined, stale);
          assert.equal(e.closed, stale ? 1 : 0);
        });
        await table.closeAll();
      }),
    );
  });

  it('the idle sweep runs on its own, every quarter of idleMs, and stops with closeAll', { timeout: HANG_MS }, async () => {
    // idleMs 4 s: a sweep each second (at 16 s, say, the stale session would outlive the wait below).
    const table = new SessionTable<Entry>({ maxSessions: 4, idleMs: 4000 });
    const e = entry('c', Date.now() - 10_000, 0);
    table.admit('old', e);
    const fresh = entry('c', Date.now() + 60_000, 0);
    table.admit('fresh', fresh);
    const deadline = Date.now() + 6000;
    while (table.get('old') !== undefined && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(table.get('old'), undefined, 'expired by the sweep');
    assert.equal(table.get('fresh'), fresh);
    await table.closeAll();
    // A closed table sweeps no more: a stale session put in afterwards stays.
    const quick = new SessionTable<Entry>({ maxSessions: 4, idleMs: 1 });
    await quick.closeAll();
    quick.admit('late', entry('c', 0, 0));
    await new Promise((r) => setTimeout(r, 600));
    assert.notEqual(quick.get('late'), undefined);
  });

  it('a table never keeps the process alive: its sweep timer is unreferenced (this file would not end otherwise)', () => {
    new SessionTable<Entry>({ maxSessions: 1, idleMs: 1e9 });
  });

  it('a session idle exactly idleMs is kept; one millisecond more and it is closed', async () => {
    const table = new SessionTable<Entry>({ maxSessions: 4, idleMs: 100, now: () => 1000 });
    table.admit('exact', entry('c', 900, 0));
    table.admit('over', entry('c', 899, 0));
    table.expire();
    assert.notEqual(table.get('exact'), undefined);
    assert.equal(table.get('over'), undefined);
    await table.closeAll();
  });

  it('forget is idempotent and a close that throws or rejects harms nothing', { timeout: HANG_MS }, async () => {
    const table = new SessionTable<SessionEntry>({ maxSessions: 4, idleMs: 1e9 });
    let closes = 0;
    table.admit('a', { client: 'c', lastSeen: 0, requests: 0, close: () => { closes++; throw new Error('x'); } });
    table.admit('b', { client: 'c', lastSeen: 0, requests: 0, close: async () => { closes++; throw new Error('y'); } });
    table.forget('a');
    table.forget('a');
    assert.equal(table.size, 1);
    await tick();
    await table.closeAll();
    assert.equal(closes, 2);
  });

  it('tells clients apart by address, User-Agent and clientInfo name, and only by them', { timeout: HANG_MS }, () => {
    const part = fc.option(fc.string({ maxLength: 4 }), { nil: undefined });
    // b differs from a in at most one of the three parts, so the part decides alone.
    fc.assert(
      fc.property(fc.tuple(part, part, part), fc.integer({ min: 0, max: 2 }), part, (a, i, changed) => {
        const b = [...a];
        b[i] = changed;
        const same = (a[i] ?? '') === (changed ?? '');
        assert.equal(clientKey(a[0], a[1], a[2]) === clientKey(b[0], b[1], b[2]), same, JSON.stringify([a, b]));
      }),
      { numRuns: 300 },
    );
    assert.equal(clientKey('1.2.3.4', 'ua', 'n'), clientKey('1.2.3.4', 'ua', 'n'));
    assert.notEqual(clientKey('a', 'b', undefined), clientKey('a', undefined, 'b'));
    assert.equal(clientKey(undefined, undefined, undefined), clientKey('', '', ''), 'a missing part reads as empty');
  });
});
