// `svc status` and `svc update` text: the API's own version is shown as the file writes it, a `v`
// only before a number; the hint for more warnings names the svc check of the daemon's own config.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { apiVersion, formatStatus, formatUpdate } from '../../src/ipc/format.ts';
import type { SpecStatus, StatusResult, UpdateResult } from '../../src/ipc/protocol.ts';

function status(version: string | undefined): StatusResult {
  const spec: SpecStatus = {
    name: 'kubernetes',
    file: '/specs/kubernetes.json',
    format: 'swagger-2.0',
    ...(version !== undefined ? { version } : {}),
    collection: 'default',
    endpoints: 3,
    deprecated: 0,
    state: 'ok',
    errors: [],
    pending: [],
  };
  const latency = { count: 0, errors: 0, p50Ms: 0, p99Ms: 0 };
  return {
    protocol: 1, pid: 1, version: '0.1.0', startedAt: 0, uptimeMs: 0, transport: 'stdio', socket: '/s.sock', config: '/svc.yaml',
    specs: [spec], totals: { specs: 1, endpoints: 3, deprecated: 0, failed: 0, pending: 0 },
    memory: { rss: 0, heapUsed: 0, heapTotal: 0 }, sessions: 0, toolCalls: { ...latency, byTool: {} }, pendingConfig: false, loading: false,
  };
}

test('status shows a word version as written (Kubernetes: unversioned) and a numbered one with v', () => {
  assert.match(formatStatus(status('unversioned')), /kubernetes \(swagger-2\.0 unversioned; collection default\)/);
  assert.match(formatStatus(status('1.30.2')), /kubernetes \(swagger-2\.0 v1\.30\.2; collection default\)/);
  assert.match(formatStatus(status(undefined)), /kubernetes \(swagger-2\.0; collection default\)/);
});

test('a v is added only before a digit, so no version ever reads vv1 or vunversioned', () => {
  fc.assert(
    fc.property(fc.string({ minLength: 1, maxLength: 20 }), (version) => {
      const shown = apiVersion(version);
      assert.equal(shown, /^\d/.test(version) ? `v${version}` : version);
    }),
  );
  assert.equal(apiVersion('v2'), 'v2');
});

test('an update report with more warnings than it shows names the svc check that reads the daemon\'s own config', () => {
  const none = { count: 0, sample: [] };
  const warning = (i: number) => ({ severity: 'warning' as const, code: 'w', message: `warning ${i}`, file: '/apis/specs/a.yaml' });
  const result: UpdateResult = {
    ok: true,
    changed: true,
    specs: [{ name: 'a', file: '/apis/specs/a.yaml', state: 'changed', added: none, removed: none, changed: { count: 1, sample: ['a:GET:/x'] }, warnings: Array.from({ length: 8 }, (_, i) => warning(i)), errors: [], keptPrevious: false, ms: 5 }],
    configErrors: [],
    generation: 2,
    startedAt: 0,
    ms: 6,
  };
  assert.match(formatUpdate(result, "svc check --config '/my apis/svc.yaml'"), /\.\.\. 3 more warnings \(`svc check --config '\/my apis\/svc\.yaml'` shows all\)/);
});
