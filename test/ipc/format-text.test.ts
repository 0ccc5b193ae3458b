// The text `svc status` and `svc update` print, whole: every line is part of what a person reads,
// so each is asserted in full (a dropped clause or a wrong unit is a visible fault).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { formatStatus, formatUpdate, plural, updateSummary } from '../../src/ipc/format.ts';
import type { SpecUpdateReport, StatusResult, UpdateResult } from '../../src/ipc/protocol.ts';

const none = { count: 0, sample: [] };
const at = Date.UTC(2026, 0, 2, 3, 4, 5, 678);

function baseStatus(over: Partial<StatusResult> = {}): StatusResult {
  return {
    protocol: 1, pid: 42, version: '0.3.0', startedAt: 0, uptimeMs: 0, transport: 'stdio', socket: '/s.sock', config: '/svc.yaml',
    specs: [], totals: { specs: 0, endpoints: 0, deprecated: 0, failed: 0, pending: 0 },
    memory: { rss: 0, heapUsed: 0, heapTotal: 0 }, sessions: 0,
    toolCalls: { count: 0, errors: 0, p50Ms: 0, p99Ms: 0, byTool: {} }, pendingConfig: false, loading: false,
    ...over,
  };
}

function spec(over: Partial<SpecUpdateReport>): SpecUpdateReport {
  return { name: 'a', file: '/a.yaml', state: 'changed', added: none, removed: none, changed: none, warnings: [], errors: [], keptPrevious: false, ms: 0, ...over };
}

test('status of a busy HTTP daemon shows every part: transport, auth, update in progress, each spec state, totals, memory, calls', () => {
  const status = baseStatus({
    uptimeMs: 3_725_000, transport: 'http', url: 'http://127.0.0.1:7777/mcp', auth: 'bearer token in /x/token',
    specs: [
      { name: 'pets', file: '/p.yaml', format: 'openapi-3.1', version: '1.0', collection: 'default', endpoints: 1, deprecated: 0, indexedAt: at, state: 'ok', errors: [], pending: ['/p.yaml', '/q.yaml'], snapshot: 'loaded from snapshot' },
      { name: 'bad', file: '/b.yaml', collection: 'c', endpoints: 2, deprecated: 1, state: 'failed', errors: [{ severity: 'error', code: 'x', message: 'broken', file: '/b.yaml', line: 3, column: 4 }], pending: [] },
      { name: 'gone', file: '/g.yaml', collection: 'c', endpoints: 0, deprecated: 0, state: 'failed', errors: [], pending: [] },
      { name: 'wait', file: '/w.yaml', format: 'swagger-2.0', collection: 'c', endpoints: 0, deprecated: 0, state: 'loading', errors: [], pending: [] },
    ],
    totals: { specs: 4, endpoints: 3, deprecated: 1, failed: 2, pending: 1 },
    memory: { rss: 5 * 1024 * 1024 + 100_000, heapUsed: 1023 * 1024, heapTotal: 2048 }, sessions: 2,
    toolCalls: { count: 5, errors: 1, p50Ms: 2, p99Ms: 9, byTool: { search: { count: 3, errors: 0, p50Ms: 1, p99Ms: 4 } } },
    pendingConfig: true, loading: true, eventLoop: { p99Ms: 12, maxMs: 30 },
    updating: { startedAt: Date.UTC(2026, 0, 2, 3, 4, 5), done: 1, total: 3, spec: 'pets', waiting: 2 },
    lastUpdate: { ok: false, changed: true, specs: [], configErrors: [], generation: 1, startedAt: Date.UTC(2026, 0, 2, 3, 4, 5), ms: 1234 },
  });
  assert.equal(formatStatus(status), [
    'daemon pid 42, svc 0.3.0, up 1h 2m',
    '  transport http at http://127.0.0.1:7777/mcp',
    '  auth      bearer token in /x/token',
    '  socket    /s.sock',
    '  config    /svc.yaml (changed on disk, run svc update)',
    '  update in progress since 2026-01-02 03:04:05Z: 1 of 3 imported, now pets; 2 more update request(s) waiting',
    '  specs: (first import still running)',
    '    pets (openapi-3.1 v1.0; collection default): 1 endpoint, 0 deprecated; indexed 2026-01-02 03:04:05Z; ok',
    '      pending changes (run svc update): /p.yaml, /q.yaml',
    '      loaded from snapshot',
    '    bad (unknown format; collection c): 2 endpoints, 1 deprecated; indexed never; FAILED: /b.yaml:3:4: broken',
    '      the previous version keeps serving',
    '    gone (unknown format; collection c): 0 endpoints, 0 deprecated; indexed never; FAILED: unknown error',
    '    wait (swagger-2.0; collection c): 0 endpoints, 0 deprecated; indexed never; loading',
    '  totals: 4 specs, 3 endpoints (1 deprecated), 2 failed, 1 with pending changes',
    '  memory: rss 5.1 MB, heap 1023 KB of 2 KB',
    '  event loop delay: p99 12 ms, max 30 ms',
    '  MCP sessions: 2',
    '  tool calls: 5 (1 errors), p50 2 ms, p99 9 ms',
    '    search: 3, p50 1 ms, p99 4 ms',
    '  last update 2026-01-02 03:04:05Z: nothing changed (1.23 s) [failed]',
  ].join('\n'));
});

test('the event loop line adds the delay while updates ran, with the most CPU time between two turns', () => {
  const text = formatStatus(baseStatus({ eventLoop: { p99Ms: 12, maxMs: 30, updates: { p99Ms: 40, maxMs: 250, maxCpuMs: 180 } } }));
  assert.deepEqual(text.split('\n').filter((l) => l.includes('event loop')), ['  event loop delay: p99 12 ms, max 30 ms; while updating: p99 40 ms, max 250 ms (180 ms of CPU time)']);
});

test('status of a quiet stdio daemon leaves out what does not apply', () => {
  const status = baseStatus({
    uptimeMs: 59_999,
    updating: { startedAt: 0, done: 0, total: 0, waiting: 0 },
    lastUpdate: { ok: true, changed: false, specs: [], configErrors: [], generation: 1, startedAt: 0, ms: 3 },
  });
  assert.equal(formatStatus(status), [
    'daemon pid 42, svc 0.3.0, up 59s',
    '  transport stdio',
    '  socket    /s.sock',
    '  config    /svc.yaml',
    '  update in progress since 1970-01-01 00:00:00Z: checking what changed',
    '  specs:',
    '  totals: 0 specs, 0 endpoints (0 deprecated), 0 failed, 0 with pending changes',
    '  memory: rss 0 KB, heap 0 KB of 0 KB',
    '  MCP sessions: 0',
    '  tool calls: 0 (0 errors), p50 0 ms, p99 0 ms',
    '  last update 1970-01-01 00:00:00Z: nothing changed (3 ms)',
  ].join('\n'));
  assert.match(formatStatus(baseStatus()), /\n {2}last update: none since start$/);
  // An update that knows its total but not yet its spec.
  assert.match(formatStatus(baseStatus({ updating: { startedAt: 0, done: 2, total: 5, waiting: 0 } })), /: 2 of 5 imported\n/);
});

test('uptime reads in the largest sensible units at every boundary', () => {
  const up = (ms: number): string => /up (.*)$/m.exec(formatStatus(baseStatus({ uptimeMs: ms })))![1]!;
  const cases: [number, string][] = [
    [0, '0s'], [999, '0s'], [1000, '1s'], [59_999, '59s'], [60_000, '1m 0s'], [61_000, '1m 1s'], [3_599_000, '59m 59s'],
    [3_600_000, '1h 0m'], [3_660_000, '1h 1m'], [48 * 3_600_000 - 1, '47h 59m'], [48 * 3_600_000, '2d 0h'], [49 * 3_600_000, '2d 1h'], [75 * 3_600_000, '3d 3h'],
  ];
  for (const [ms, shown] of cases) assert.equal(up(ms), shown, `${ms} ms`);
  fc.assert(fc.property(fc.integer({ min: 0, max: 400 * 86_400_000 }), (ms) => {
    const shown = up(ms);
    const s = Math.floor(ms / 1000);
    const m = Math.floor(s / 60);
    const h = Math.floor(m / 60);
    assert.equal(shown, s < 60 ? `${s}s` : m < 60 ? `${m}m ${s % 60}s` : h < 48 ? `${h}h ${m % 60}m` : `${Math.floor(h / 24)}d ${h % 24}h`);
  }));
});

test('memory reads in KB below one MB and in MB from one MB on', () => {
  const rss = (n: number): string => /rss (.*?),/.exec(formatStatus(baseStatus({ memory: { rss: n, heapUsed: 0, heapTotal: 0 } })))![1]!;
  assert.equal(rss(1024 * 1024 - 1), '1024 KB');
  assert.equal(rss(1024 * 1024), '1.0 MB');
  assert.equal(rss(1536), '2 KB');
  assert.equal(rss(1535), '1 KB');
  assert.equal(rss(3.25 * 1024 * 1024), '3.3 MB');
});

test('durations read in ms below one second and in seconds from one second on', () => {
  const took = (ms: number): string => /\((.*)\)$/.exec(updateSummary({ ok: true, changed: false, specs: [], configErrors: [], generation: 1, startedAt: 0, ms }))![1]!;
  assert.equal(took(999), '999 ms');
  assert.equal(took(12.34), '12.3 ms');
  assert.equal(took(12.36), '12.4 ms');
  assert.equal(took(1000), '1.00 s');
  assert.equal(took(61_234), '61.23 s');
});

test('a full update report lists what changed per spec, what failed and whether the old version serves, and what waits for a restart', () => {
  const result: UpdateResult = {
    ok: false, changed: true, configErrors: [], restartNeeded: ['http.port', 'transport'], generation: 2, startedAt: 0, ms: 42,
    specs: [
      spec({ name: 'a', state: 'added', added: { count: 7, sample: ['a1', 'a2'] }, ms: 12.34 }),
      spec({ name: 'b', state: 'changed', removed: { count: 1, sample: ['b1'] }, changed: { count: 2, sample: ['c1', 'c2'] }, ms: 1500 }),
      spec({ name: 'c', state: 'failed', keptPrevious: true, errors: [{ severity: 'error', code: 'e', message: 'bad', file: '/c.yaml', pointer: '/paths', hint: 'fix it' }] }),
      spec({ name: 'd', state: 'failed' }),
      spec({ name: 'e', state: 'unchanged' }),
      spec({ name: 'f', state: 'unchanged' }),
      spec({ name: 'g', state: 'removed' }),
      spec({ name: 'h', state: 'unchanged', warnings: [{ severity: 'warning', code: 'w', message: 'odd', file: '/h.yaml' }] }),
    ],
  };
  assert.equal(formatUpdate(result), [
    '  not applied until svc serve restarts (how it listens): http.port, transport',
    '  a: added (12.3 ms)',
    '    added 7 (a1, a2, ... 5 more)',
    '  b: changed (1.50 s)',
    '    removed 1 (b1)',
    '    changed 2 (c1, c2)',
    '  c: FAILED, previous version still serving',
    '    /c.yaml#/paths: error: bad',
    '      hint: fix it',
    '  d: FAILED, not serving',
    '  g: removed',
    '  h: unchanged',
    '    /h.yaml: warning: odd',
    '  2 specs unchanged',
    '  2 failed; catalogue updated in 42 ms',
  ].join('\n'));
  assert.equal(updateSummary(result), 'update: a added +7; b changed -1 ~2; c failed (previous version kept); d failed; g removed (42 ms)');
});

test('a config that could not be read is reported first, and the update says nothing was applied', () => {
  const result: UpdateResult = {
    ok: false, changed: false, restartNeeded: [], generation: 2, startedAt: 0, ms: 5,
    configErrors: [{ severity: 'error', code: 'c', message: 'bad key', file: '/svc.yaml', line: 2 }],
    specs: [spec({ state: 'unchanged' })],
  };
  assert.equal(formatUpdate(result), [
    '  config not applied (everything keeps serving as before):',
    '    /svc.yaml:2: error: bad key',
    '  1 spec unchanged',
    '  nothing to apply in 5 ms',
  ].join('\n'));
  assert.equal(updateSummary(result), 'update failed: the config has 1 problem; nothing changed');
  assert.equal(updateSummary({ ...result, configErrors: [...result.configErrors, ...result.configErrors] }), 'update failed: the config has 2 problems; nothing changed');
  assert.equal(updateSummary({ ...result, configErrors: [] }), 'update: nothing changed (5 ms)');
});

test('the warnings shown per spec stop at five and say how many more there are', () => {
  const warnings = Array.from({ length: 6 }, (_, i) => ({ severity: 'warning' as const, code: 'w', message: `w${i}`, file: '/a.yaml' }));
  const report = (n: number): string[] => formatUpdate({ ok: true, changed: false, configErrors: [], generation: 1, startedAt: 0, ms: 1, specs: [spec({ state: 'unchanged', warnings: warnings.slice(0, n) })] }).split('\n');
  assert.deepEqual(report(5).filter((l) => l.includes('warning')), ['    /a.yaml: warning: w0', '    /a.yaml: warning: w1', '    /a.yaml: warning: w2', '    /a.yaml: warning: w3', '    /a.yaml: warning: w4']);
  assert.equal(report(6).at(-2), '    ... 1 more warnings (`svc check` shows all)');
  assert.equal(report(6).filter((l) => l.includes(': warning: ')).length, 5);
});

test('a line from a spec cannot forge another line: names and messages holding line breaks stay on their own line', () => {
  const result: UpdateResult = {
    ok: false, changed: true, configErrors: [], generation: 2, startedAt: 0, ms: 1,
    specs: [spec({ name: 'x\nFAKE', state: 'failed', errors: [{ severity: 'error', code: 'e', message: 'm\nFAKE', file: '/x.yaml', hint: 'h\nFAKE' }] })],
  };
  for (const line of formatUpdate(result).split('\n')) assert.doesNotMatch(line, /^FAKE/);
  assert.doesNotMatch(updateSummary(result), /\n/);
  const status = baseStatus({ specs: [{ name: 'n\nFAKE', file: '/f', collection: 'c\nFAKE', endpoints: 0, deprecated: 0, state: 'ok', errors: [], pending: ['p\nFAKE'], snapshot: 's\nFAKE' }] });
  for (const line of formatStatus(status).split('\n')) assert.doesNotMatch(line, /^FAKE/);
});

test('plural adds an s for every count but one', () => {
  fc.assert(fc.property(fc.nat(), fc.stringMatching(/^[a-z]{1,8}$/), (n, word) => {
    assert.equal(plural(n, word), n === 1 ? `1 ${word}` : `${n} ${word}s`);
  }));
});
