// Async work over thousands of items (a hub's specs, its files), a batch at a time: all at once,
// their answers come back in one turn of the event loop and hold the thread (and, for file reads,
// keep every buffer in flight together).

/** Items taken at a time by `mapInBatches` unless told otherwise. */
export const BATCH = 256;

/** `Promise.all(items.map(fn))`, `size` items at a time; the results in the items' order. */
export async function mapInBatches<T, R>(items: readonly T[], fn: (item: T) => Promise<R>, size: number = BATCH): Promise<R[]> {
  const out: R[] = [];
  // Stryker disable next-line EqualityOperator: a batch past the end is empty
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}
