// Who holds a port, read from a /proc tree laid out as Linux lays it out (src/cli/port-check.ts
// findPortHolder), one rule at a time: the tcp table alone when tcp6 is missing, ports below 4096
// (four hex digits), only LISTEN rows and never inode 0, only numeric process folders, the program
// name from exe (without " (deleted)") else comm (trimmed, 64 characters at most), none when
// neither is readable; and checkPortFree's message for an address this machine does not have.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { checkPortFree, findPortHolder } from '../../src/cli/port-check.ts';
import { SvcError } from '../../src/model/errors.ts';

const linux = process.platform === 'linux';
const roots: string[] = [];
after(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

interface Row {
  readonly port: number;
  readonly state: string;
  readonly inode: number;
}
interface Proc {
  readonly name: string;
  readonly inodes: readonly number[];
  readonly exe?: string;
  readonly comm?: string;
}

/** A /proc tree: the tcp table (and tcp6 when given) and process folders with fd links, exe and comm. */
function procTree(tcp: readonly Row[], processes: readonly Proc[], tcp6?: readonly Row[]): string {
  const root = mkdtempSync(join(tmpdir(), 'svc-proc-rules-'));
  roots.push(root);
  mkdirSync(join(root, 'net'));
  const header = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n';
  const line = (r: Row, i: number): string =>
    `   ${i}: 0100007F:${r.port.toString(16).toUpperCase().padStart(4, '0')} 00000000:0000 ${r.state} 00000000:00000000 00:00000000 00000000  1000        0 ${r.inode} 1 0000000000000000 100 0 0 10 0\n`;
  writeFileSync(join(root, 'net', 'tcp'), header + tcp.map(line).join(''));
  if (tcp6) writeFileSync(join(root, 'net', 'tcp6'), header + tcp6.map(line).join(''));
  for (const p of processes) {
    mkdirSync(join(root, p.name, 'fd'), { recursive: true });
    if (p.comm !== undefined) writeFileSync(join(root, p.name, 'comm'), p.comm);
    if (p.exe !== undefined) symlinkSync(p.exe, join(root, p.name, 'exe'));
    p.inodes.forEach((inode, fd) => symlinkSync(`socket:[${inode}]`, join(root, p.name, 'fd', String(fd + 3))));
  }
  return root;
}

describe('the holder of a port in a /proc tree', { skip: linux ? false : 'Linux only' }, () => {
  it('reads the tcp table when there is no tcp6, and a port below 4096 as four hex digits', () => {
    const root = procTree([{ port: 80, state: '0A', inode: 501 }], [{ name: '42', inodes: [501], comm: 'web\n' }]);
    assert.deepEqual(findPortHolder(80, root), { pid: 42, command: 'web' });
    const both = procTree([], [{ name: '43', inodes: [502], comm: 'six' }], [{ port: 8080, state: '0A', inode: 502 }]);
    assert.deepEqual(findPortHolder(8080, both), { pid: 43, command: 'six' });
  });

  it('counts only a listening socket, and never inode 0', () => {
    const established = procTree([{ port: 7000, state: '01', inode: 601 }], [{ name: '50', inodes: [601], comm: 'client' }], []);
    assert.equal(findPortHolder(7000, established), undefined);
    const zero = procTree([{ port: 7001, state: '0A', inode: 0 }], [{ name: '51', inodes: [0], comm: 'zero' }], []);
    assert.equal(findPortHolder(7001, zero), undefined);
  });

  it('looks only into process folders (digits), not self or other names', () => {
    const root = procTree([{ port: 7002, state: '0A', inode: 701 }], [
      { name: 'self', inodes: [701], comm: 'me' },
      { name: '12x', inodes: [701], comm: 'a' },
      { name: 'x12', inodes: [701], comm: 'b' },
    ], []);
    assert.equal(findPortHolder(7002, root), undefined);
  });

  it("names the program from exe without ' (deleted)', else from comm cut at 64 characters, else not at all", () => {
    const row = (inode: number): Row => ({ port: 7100 + inode, state: '0A', inode });
    const cases: [Proc, object][] = [
      [{ name: '60', inodes: [1], exe: '/usr/bin/node (deleted)', comm: 'ignored' }, { pid: 60, command: 'node' }],
      [{ name: '61', inodes: [2], exe: '/opt/my (deleted) tool' }, { pid: 61, command: 'my (deleted) tool' }],
      [{ name: '62', inodes: [3], comm: `${'c'.repeat(100)}\n` }, { pid: 62, command: 'c'.repeat(64) }],
      [{ name: '63', inodes: [4] }, { pid: 63 }],
      [{ name: '64', inodes: [5], comm: '\n' }, { pid: 64 }],
    ];
    for (const [proc, expected] of cases) {
      const inode = proc.inodes[0]!;
      const root = procTree([row(inode)], [proc], []);
      assert.deepEqual(findPortHolder(7100 + inode, root), expected, proc.name);
    }
  });
});

describe('a port on an address this machine does not have', () => {
  it('is said as such, with the hosts to use instead', async () => {
    await assert.rejects(checkPortFree('203.0.113.1', 7331), (error: unknown) => {
      assert.ok(error instanceof SvcError);
      assert.equal(error.code, 'host-unavailable');
      assert.equal(error.message, 'cannot listen on 203.0.113.1: no such address on this machine');
      assert.equal(error.hint, 'use --host 127.0.0.1, 0.0.0.0, or an address of this machine (or serve.host in svc.yaml)');
      return true;
    });
    // Port 0 (any free port) is not checked: the real bind reports such a host.
    await checkPortFree('203.0.113.1', 0);
  });
});
