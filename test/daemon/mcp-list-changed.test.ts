// After `svc update` changed the catalogue, MCP clients of both protocol eras learn of it the way
// their era provides: a 2025-11-25 session gets notifications/tools/list_changed (and a log line);
// a 2026-07-28 client gets tools/list_changed on its subscriptions/listen stream, over HTTP and stdio.
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { StatusResult } from '../../src/ipc/protocol.ts';
import { nodeArgs, openapi, project, startDaemon, SVC_BIN, svc, svcJson, until, type Op } from './support.ts';

const OPS: Op[] = [{ method: 'GET', path: '/things', summary: 'List things' }];

test('clients of both eras hear tools/list_changed after svc update, on HTTP and stdio', async () => {
  const p = project();
  p.write('specs/things.yaml', openapi('Things', OPS));
  p.config(['specs/things.yaml']);
  const d = await startDaemon(p);
  const heard = { legacyHttp: 0, modernHttp: 0, modernStdio: 0 };
  const closers: (() => Promise<void>)[] = [];
  try {
    const status = (await svcJson<{ daemons: { status: StatusResult }[] }>(p, ['status'])).json.daemons[0]!.status;
    const token = readFileSync(/the token in (\S+)/.exec(status.auth ?? '')![1]!, 'utf8').trim();
    const requestInit = { headers: { authorization: `Bearer ${token}` } };

    const legacy = new LegacyClient({ name: 'lc-2025', version: '1' });
    legacy.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard.legacyHttp++);
    await legacy.connect(new LegacyHttp(new URL(status.url!), { requestInit }));
    closers.push(() => legacy.close());

    const onChanged = (key: keyof typeof heard) => ({ tools: { autoRefresh: false, onChanged: () => void heard[key]++ } });
    const modernHttp = new ModernClient({ name: 'lc-2026-http', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, listChanged: onChanged('modernHttp') });
    await modernHttp.connect(new ModernHttp(new URL(status.url!), { requestInit }));
    closers.push(() => modernHttp.close());

    const modernStdio = new ModernClient({ name: 'lc-2026-stdio', version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } }, listChanged: onChanged('modernStdio') });
    await modernStdio.connect(
      new ModernStdio({ command: process.execPath, args: [...nodeArgs(), SVC_BIN, 'serve', '--config', p.configFile, '--socket', `${p.runtime}/stdio.sock`], env: p.env as Record<string, string>, cwd: p.dir, stderr: 'ignore' }),
    );
    closers.push(() => modernStdio.close());
    // Both daemons have loaded the spec, and the 2026-07-28 clients' listen streams are open.
    await until(async () => (await modernStdio.callTool({ name: 'endpoint_by_spec', arguments: {} })).isError === undefined, 20_000, 'stdio daemon ready');
    await new Promise((resolve) => setTimeout(resolve, 300));

    p.write('specs/things.yaml', openapi('Things', [...OPS, { method: 'POST', path: '/things', summary: 'Add a thing' }]));
    for (const socket of [d.socket, `${p.runtime}/stdio.sock`]) {
      const run = await svc(p, ['update', '--socket', socket]);
      assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
    }
    await until(() => heard.legacyHttp > 0 && heard.modernHttp > 0 && heard.modernStdio > 0, 10_000, 'every client to hear the change').catch((error: Error) => {
      throw new Error(`${error.message}; heard: ${JSON.stringify(heard)}`);
    });
  } finally {
    for (const close of closers) await close().catch(() => {});
    await d.stop();
    p.cleanup();
  }
});
