// `svc serve` over HTTP says at once that its port is taken, by whom when the system tells, and
// which flag changes it, before it loads the daemon or imports a spec.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { checkPortFree, findPortHolder } from '../../src/cli/port-check.ts';
import { lifelineArgs } from '../support/lifeline.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const BIN = join(ROOT, 'bin', 'svc.js');
const linux = process.platform === 'linux';

/** Another process listening on a free loopback port: its pid and port. */
function holdPort(): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolve, reject) => {
    // The lifeline ends the holder with this test process, should it be killed before `after` runs.
    const child = spawn(process.execPath, [...lifelineArgs(), '-e', "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>console.log(s.address().port))"], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.once('error', reject);
    child.stdout!.setEncoding('utf8').once('data', (line: string) => resolve({ child, port: Number(line.trim()) }));
  });
}

function run(args: readonly string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...process.env, SVC_DEBUG: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

describe('svc serve: port already in use', () => {
  let holder: { child: ChildProcess; port: number };
  let dir: string;
  before(async () => {
    holder = await holdPort();
    dir = mkdtempSync(join(tmpdir(), 'svc-port-'));
    // A spec that cannot be imported: had svc got as far as importing, it would say so.
    writeFileSync(join(dir, 'broken-spec.yaml'), 'openapi: [unclosed\n');
    writeFileSync(join(dir, 'svc.yaml'), 'specs:\n  - path: broken-spec.yaml\n');
  });
  after(() => {
    holder?.child.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops before importing, naming the port, the process holding it and the flag to change it', async () => {
    const result = await run(['serve', '--transport', 'sse', '--port', String(holder.port)], dir);
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stdout, '');
    const by = linux ? ` by pid ${holder.child.pid} \\(node\\)` : '';
    assert.match(result.stderr, new RegExp(`^svc: port ${holder.port} on 127\\.0\\.0\\.1 is already in use${by}\\n`));
    assert.match(result.stderr, /hint: .*--port N \(or serve\.port in svc\.yaml\), or --port 0 for any free port/);
    assert.doesNotMatch(result.stderr, /broken-spec|control socket|loaded|serving MCP/, 'nothing was imported or started');
  });

  it('finds the holder through /proc on Linux', { skip: linux ? false : 'the holder is looked up on Linux only' }, () => {
    assert.deepEqual(findPortHolder(holder.port), { pid: holder.child.pid, command: 'node' });
  });

  it('passes a free port and port 0', async () => {
    await checkPortFree('127.0.0.1', 0);
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const free = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    await checkPortFree('127.0.0.1', free);
    await assert.rejects(checkPortFree('127.0.0.1', holder.port), { code: 'port-in-use' });
  });
});

describe('finding the holder in a /proc tree', { skip: linux ? false : 'Linux only' }, () => {
  /** A fake /proc: tcp tables with the given rows and processes whose fds link to socket inodes. */
  function procTree(rows: readonly { port: number; state: string; inode: number }[], processes: ReadonlyMap<number, readonly number[]>): string {
    const root = mkdtempSync(join(tmpdir(), 'svc-proc-'));
    mkdirSync(join(root, 'net'));
    const header = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n';
    const line = (r: { port: number; state: string; inode: number }, i: number): string =>
      `   ${i}: 0100007F:${r.port.toString(16).toUpperCase().padStart(4, '0')} 00000000:0000 ${r.state} 00000000:00000000 00:00000000 00000000  1000        0 ${r.inode} 1 0000000000000000 100 0 0 10 0\n`;
    writeFileSync(join(root, 'net', 'tcp'), header + rows.map(line).join(''));
    for (const [pid, inodes] of processes) {
      mkdirSync(join(root, String(pid), 'fd'), { recursive: true });
      writeFileSync(join(root, String(pid), 'comm'), `proc${pid}\n`);
      inodes.forEach((inode, fd) => symlinkSync(`socket:[${inode}]`, join(root, String(pid), 'fd', String(fd))));
    }
    return root;
  }

  it('names exactly the process whose descriptor is the listening socket of that port', () => {
    const row = fc.record({ port: fc.integer({ min: 1, max: 65535 }), state: fc.constantFrom('0A', '01', '06'), inode: fc.integer({ min: 1, max: 1e6 }) });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 6 }), fc.integer({ min: 1, max: 65535 }), fc.array(fc.integer({ min: 1, max: 99 }), { maxLength: 4 }), (rows, port, pids) => {
        const inodes = rows.map((r) => r.inode);
        const processes = new Map(pids.map((pid, i) => [pid, inodes.length ? [inodes[i % inodes.length]!] : []] as const));
        const root = procTree(rows, processes);
        try {
          const listening = new Set(rows.filter((r) => r.port === port && r.state === '0A').map((r) => r.inode));
          const owners = [...processes].filter(([, own]) => own.some((inode) => listening.has(inode))).map(([pid]) => pid);
          const found = findPortHolder(port, root);
          if (owners.length === 0) assert.equal(found, undefined);
          else assert.ok(found && owners.includes(found.pid), `found ${JSON.stringify(found)}, owners ${owners}`);
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 60 },
    );
  });
});
