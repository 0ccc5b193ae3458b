// Waiting for a condition without a fixed sleep: polled until it holds, a failure naming it past the bound.
import { setTimeout as sleep } from 'node:timers/promises';

export async function until(cond: () => boolean | Promise<boolean>, ms = 10_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}
