// A writable stream that records what is written and can pass for a terminal (isTTY, columns),
// for tests of output that only appears on a terminal, such as progress lines.
import { Writable } from 'node:stream';

export type CapturedStream = Writable & { isTTY: boolean; columns: number; text: string };

/** A stream that keeps everything written to it in `text`; a terminal of `columns` width when `isTTY`. */
export function captureStream(isTTY: boolean, columns: number): CapturedStream {
  const out = new Writable({
    write(chunk, _encoding, done) {
      out.text += String(chunk);
      done();
    },
  }) as CapturedStream;
  out.isTTY = isTTY;
  out.columns = columns;
  out.text = '';
  return out;
}
