// A stdio connection is one watched session: the hooks hear it open and close, and a catalogue
// change reaches the client as tools/list_changed. In this process, streams standing in for the pipes.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { serveStdio } from '../../src/mcp/stdio.ts';
import type { CatalogChangeNotice, SessionContext } from '../../src/mcp/server.ts';
import { jsonLines } from './support.ts';

const HANG_MS = 15_000;
const CONTEXT = {} as SessionContext;
const line = (m: unknown): string => `${JSON.stringify(m)}\n`;

describe('stdio session hooks', { timeout: HANG_MS }, () => {
  it('opens one watched session, passes a catalogue change on as tools/list_changed, and closes it', { timeout: HANG_MS }, async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const out = jsonLines(stdout);
    const listeners = new Set<(c: CatalogChangeNotice) => void>();
    let opened = 0;
    let closed = 0;
    const handle = await serveStdio({
      stdin, stdout, context: () => CONTEXT, tools: [],
      hooks: { sessionOpened: () => void opened++, sessionClosed: () => void closed++, onCatalogChanged: (l) => (listeners.add(l), () => void listeners.delete(l)) },
    });
    stdin.write(line({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'watch', version: '1' } } }));
    stdin.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    const deadline = Date.now() + 5000;
    while (!out.some((m) => m['id'] === 1) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    assert.equal(opened, 1);
    assert.equal(listeners.size, 1);
    for (const l of listeners) l({ message: 'specs changed', endpointsChanged: true, specsChanged: false });
    while (!out.some((m) => m['method'] === 'notifications/tools/list_changed') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    assert.ok(out.some((m) => m['method'] === 'notifications/tools/list_changed'), JSON.stringify(out));
    await handle.close();
    assert.equal(closed, 1);
    assert.equal(listeners.size, 0);
  });
});
