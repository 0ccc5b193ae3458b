// `svc status` text: the API's own version is shown as the file writes it, a `v` only before a number.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { apiVersion, formatStatus } from '../../src/ipc/format.ts';
import type { SpecStatus, StatusResult } from '../../src/ipc/protocol.ts';

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
