// Framing for the IPC socket: one JSON value per line, with a size cap.
// A line that grows past the cap is dropped as it streams in (never buffered whole), and the
// decoder resynchronizes at the next newline, so one bad message never costs the connection.

export type Frame =
  | { readonly kind: 'message'; readonly value: unknown }
  | { readonly kind: 'bad-json'; readonly message: string }
  | { readonly kind: 'too-large'; readonly bytes: number };

const NEWLINE = 0x0a;

export class LineDecoder {
  readonly maxBytes: number;
  #parts: Buffer[] = [];
  #size = 0;
  /** Inside an oversized line: skip bytes until its newline. */
  #discarding = false;
  #discarded = 0;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  /** Feed bytes as they arrive; returns the frames completed by them, in order. */
  push(chunk: Buffer): Frame[] {
    const frames: Frame[] = [];
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl < 0 ? chunk.length : nl;
      const piece = chunk.subarray(start, end);
      if (this.#discarding) {
        this.#discarded += piece.length;
      } else if (this.#size + piece.length + 1 > this.maxBytes) {
        // Too long already, or would be once its newline arrives: drop what we have.
        this.#discarding = true;
        this.#discarded = this.#size + piece.length;
        this.#parts = [];
        this.#size = 0;
      } else if (piece.length > 0) {
        // Copy: the caller may reuse its buffer.
        this.#parts.push(nl < 0 ? Buffer.from(piece) : piece);
        this.#size += piece.length;
      }
      if (nl < 0) break;
      // A complete line.
      if (this.#discarding) {
        frames.push({ kind: 'too-large', bytes: this.#discarded + 1 });
        this.#discarding = false;
        this.#discarded = 0;
      } else {
        const line = this.#parts.length === 1 ? this.#parts[0]! : Buffer.concat(this.#parts, this.#size);
        this.#parts = [];
        this.#size = 0;
        const text = line.toString('utf8').trim();
        if (text.length > 0) frames.push(decodeJson(text));
      }
      start = nl + 1;
    }
    return frames;
  }

  /** Bytes held for a line whose newline has not come yet. */
  get pending(): number {
    return this.#discarding ? this.#discarded : this.#size;
  }
}

function decodeJson(text: string): Frame {
  try {
    return { kind: 'message', value: JSON.parse(text) as unknown };
  } catch (error) {
    return { kind: 'bad-json', message: error instanceof Error ? error.message : String(error) };
  }
}

/** One line of JSON. JSON.stringify never emits a raw newline, so the framing holds. */
export function encodeLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}
