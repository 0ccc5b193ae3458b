// The lifeline check (lifeline.mjs) that every spawned `svc serve` of the tests carries: a process
// spawned by a test process ends when that test process is killed without running its `after`
// hooks, and lives on while it runs. Real processes: a stand-in test process spawns the child and
// is killed with SIGKILL, as a mutation run or a timeout does.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { lifelineArgs } from './lifeline.ts';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!alive(pid)) return true;
    await sleep(50);
  }
  return !alive(pid);
}

/**
 * A stand-in test process that spawns `child` (node code) with the lifeline and prints the child's
 * pid; the child prints `ready` once its code runs.
 */
async function parentWithChild(child: string): Promise<{ parent: ReturnType<typeof spawn>; childPid: number }> {
  const code = `
    const { spawn } = require('node:child_process');
    const c = spawn(process.execPath, ${JSON.stringify([...lifelineArgs(), '-e', child])}, { stdio: ['ignore', 'pipe', 'inherit'] });
    c.stdout.on('data', (d) => process.stdout.write(d));
    process.stdout.write('pid ' + c.pid + '\\n');
    setInterval(() => {}, 1000);`;
  const parent = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  parent.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const end = Date.now() + 20_000;
  while (!/pid \d+\n[\s\S]*ready/.test(out)) {
    if (Date.now() > end || parent.exitCode !== null) {
      parent.kill('SIGKILL');
      throw new Error(`the stand-in test process did not start its child; output:\n${out}`);
    }
    await sleep(20);
  }
  return { parent, childPid: Number(/pid (\d+)/.exec(out)![1]) };
}

/** A child that notes SIGTERM in `marker` (its stdout may be gone with its parent) and then exits. */
const child = (marker: string): string => `process.on('SIGTERM', () => { require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'term'); process.exit(0); });
  setInterval(() => {}, 1000); process.stdout.write('ready\\n');`;

describe('a process spawned with the lifeline', () => {
  it('lives while the test process that spawned it runs, and ends (SIGTERM first: its orderly shutdown) when that process is killed with SIGKILL', { timeout: 30_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-lifeline-'));
    const marker = join(dir, 'term');
    const { parent, childPid } = await parentWithChild(child(marker));
    try {
      // Several check intervals (200 ms each) pass with the parent alive.
      await sleep(700);
      assert.ok(alive(childPid));
      assert.equal(existsSync(marker), false);
      parent.kill('SIGKILL');
      assert.ok(await gone(childPid, 10_000), `pid ${childPid} outlived its parent`);
      assert.equal(readFileSync(marker, 'utf8'), 'term');
    } finally {
      parent.kill('SIGKILL');
      if (alive(childPid)) process.kill(childPid, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('does not keep a process alive that has nothing else to do', { timeout: 30_000 }, async () => {
    const child = spawn(process.execPath, [...lifelineArgs(), '-e', "process.stdout.write('done')"], { stdio: ['ignore', 'pipe', 'inherit'] });
    const started = Date.now();
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 0);
    // Far less than the 5 s grace: the check's timer is unref'd.
    assert.ok(Date.now() - started < 5_000);
  });
});
