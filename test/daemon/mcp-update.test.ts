// Updates while an MCP client is busy: a real SDK client spawns `svc serve` on stdio and keeps
// calling tools while `svc update` swaps the catalogue again and again. No call may fail, the client
// hears about each change, and status counts the session and its calls. The updates run the CLI
// in-process (runCli, over the daemon's real control socket): six spawned CLI processes cost more CPU
// than the rest of the test, and the busy workers spin for as long as the updates take.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LoggingMessageNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { runCli } from '../../src/cli/program.ts';
import type { StatusResult } from '../../src/ipc/protocol.ts';
import { captureStream } from '../support/tty.ts';
import { nodeArgs, openapi, project, SVC_BIN, svcJson, until, type Op } from './support.ts';

const BASE: Op[] = Array.from({ length: 40 }, (_, i) => ({ method: 'GET', path: `/things/${i}`, summary: `Fetch thing number ${i}`, tag: 'things' }));

test('a stream of MCP tool calls sees zero failures while svc update swaps the catalogue', async () => {
  const p = project();
  p.write('specs/things.yaml', openapi('Things', BASE));
  p.write('specs/other.yaml', openapi('Other', [{ method: 'GET', path: '/other', summary: 'Other thing' }]));
  p.config(['specs/things.yaml', 'specs/other.yaml']);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgs(), SVC_BIN, 'serve', '--config', p.configFile],
    env: p.env as Record<string, string>,
    cwd: p.dir,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'svc-update-test', version: '1.0.0' });
  const notices: string[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void notices.push(String(n.params.data)));
  await client.connect(transport);
  try {
    await until(() => /control socket/.test(stderr) && /loaded \d+ spec/.test(stderr), 20_000, 'daemon ready');
    const socket = /control socket (\S+)/.exec(stderr)![1]!;
    const update = async (): Promise<{ code: number; stdout: string; stderr: string }> => {
      const out = captureStream(false, 80);
      const err = captureStream(false, 80);
      const code = await runCli(['node', 'svc', 'update', '--socket', socket, '--config', p.configFile], { stdout: out, stderr: err, env: {} });
      return { code, stdout: out.text, stderr: err.text };
    };

    let stop = false;
    let calls = 0;
    const failures: string[] = [];
    const worker = async (n: number): Promise<void> => {
      while (!stop) {
        const pick = (calls + n) % 3;
        try {
          const result = (await client.callTool(
            pick === 0 ? { name: 'search', arguments: { query: 'fetch thing' } }
            : pick === 1 ? { name: 'inspect', arguments: { endpointId: 'things:GET:/things/1' } }
            : { name: 'endpoint_by_spec', arguments: { spec: 'things', limit: 5 } },
          )) as CallToolResult;
          if (result.isError) failures.push(JSON.stringify(result.content));
        } catch (error) {
          failures.push(String(error));
        }
        calls++;
      }
    };
    const workers = [worker(0), worker(1), worker(2), worker(3)];

    for (let round = 1; round <= 6; round++) {
      const ops = [...BASE, ...Array.from({ length: round }, (_, i) => ({ method: 'POST', path: `/things/${i}`, summary: `Change thing ${i} (round ${round})` }))];
      p.write('specs/things.yaml', openapi('Things', ops));
      const run = await update();
      assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
      assert.match(run.stdout, /things: changed/);
    }
    stop = true;
    await Promise.all(workers);

    assert.deepEqual(failures, [], `${failures.length} of ${calls} calls failed`);
    assert.ok(calls >= 30, `only ${calls} calls ran during the updates`);
    const last = (await client.callTool({ name: 'inspect', arguments: { endpointId: 'things:POST:/things/5' } })) as CallToolResult;
    assert.equal(last.isError, undefined, 'the last update is served');

    await until(() => notices.length >= 6, 5000, 'six update notices');
    assert.match(notices[0]!, /^update: things changed \+1/);

    const { json } = await svcJson<{ daemons: { status: StatusResult }[] }>(p, ['status']);
    const s = json.daemons[0]!.status;
    assert.equal(s.transport, 'stdio');
    assert.equal(s.sessions, 1);
    assert.ok(s.toolCalls.count >= calls, `status counts ${s.toolCalls.count} calls, ran ${calls}`);
    assert.equal(s.toolCalls.errors, 0);
    assert.ok(s.toolCalls.p99Ms >= s.toolCalls.p50Ms && s.toolCalls.p50Ms > 0);
    assert.deepEqual(Object.keys(s.toolCalls.byTool).sort(), ['endpoint_by_spec', 'inspect', 'search']);
    assert.equal(s.lastUpdate?.ok, true);

    // An update that changes nothing does not bother the client.
    const before = notices.length;
    assert.equal((await update()).code, 0);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(notices.length, before);
  } finally {
    await client.close();
    p.cleanup();
  }
});
