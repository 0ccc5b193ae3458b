// How long work holds this thread: the most CPU time it spends between two turns of its event
// loop, probed every millisecond while `work` runs. CPU time, not the clock's: a busy machine makes
// the thread wait for a core, which the code under test cannot help, but does not stretch its work.

/** Runs `work` and returns its result with the longest stretch of this thread's CPU time (ms) without a turn of the event loop. */
export async function longestTurn<T>(work: () => Promise<T>): Promise<{ result: T; longestMs: number }> {
  let longestMs = 0;
  let last = process.threadCpuUsage();
  const probe = setInterval(() => {
    const now = process.threadCpuUsage();
    longestMs = Math.max(longestMs, (now.user + now.system - last.user - last.system) / 1000);
    last = now;
  }, 1);
  try {
    last = process.threadCpuUsage();
    const result = await work();
    return { result, longestMs };
  } finally {
    clearInterval(probe);
  }
}
