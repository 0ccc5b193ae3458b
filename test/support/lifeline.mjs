// Preloaded (`node --import <this file>`) into every process a test spawns that would otherwise
// outlive it: `svc serve` daemons, port holders. Such a process ends when the test process that
// started it is gone. A test process stopped without running its `after` hooks (a mutation run
// ends a test file at its first failure with SIGTERM, a timeout with SIGKILL) would otherwise leave
// its daemons running, reparented to init, holding ports and sockets until the machine restarts.
//
// Test-only: svc itself has no such check, because a user's daemon is meant to outlive the shell
// that started it. The check polls the parent's pid (a process whose parent dies is reparented, so
// its ppid changes), which works whatever the child's stdio is (svc's stdio mode already ends on
// stdin's end, its HTTP mode does not read stdin at all) and costs one system call per interval.
import { isMainThread } from 'node:worker_threads';

/** How often the parent is looked for (ms). */
const INTERVAL_MS = 200;
/** How long the process has after SIGTERM (its own orderly shutdown) before SIGKILL. */
const GRACE_MS = 5_000;

// Worker threads inherit `--import` (svc's import worker passes its loaders on): one check per
// process is enough, and a worker's ppid is the process's own.
if (isMainThread) {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    setTimeout(() => process.kill(process.pid, 'SIGKILL'), GRACE_MS).unref();
    process.kill(process.pid, 'SIGTERM');
  }, INTERVAL_MS);
  // The check never keeps a process alive that would otherwise end.
  timer.unref();
}
