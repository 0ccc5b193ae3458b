// Framing for the IPC socket: one JSON value per line, with a size cap.
// The cap is enforced before anything is kept: a line that grows past it is reported at once
// (`too-large`, without waiting for its newline) and its bytes are counted and dropped as they
// stream in, never buffered. The decoder then resynchronizes at the next newline, so one bad
// message does not cost the connection; but a line that never ends (more than `maxDiscardBytes`
// without a newline) is reported as `endless` and the decoder stops: the peer is not speaking
// the protocol, and the caller closes the connection.

export type Frame =
  | { readonly kind: 'message'; readonly value: unknown }
  | { readonly kind: 'bad-json'; readonly message: string }
  /** A line passed the cap; `bytes` is how much of it had arrived (the rest is skipped unread). */
  | { readonly kind: 'too-large'; readonly bytes: number }
  /** More than `maxDiscardBytes` without a newline after a too-large line: decoding has stopped. */
  | { readonly kind: 'endless'; readonly bytes: number };

export interface DecoderOptions {
  /** Bytes of an oversized line skipped before the stream counts as endless. */
  readonly maxDiscardBytes?: number;
}

/** Default for `maxDiscardBytes`: generous (a client may send one oversized request and go on), yet finite. */
export const MAX_DISCARD_BYTES = 256 * 1024 * 1024;

const NEWLINE = 0x0a;

export class LineDecoder {
  readonly maxBytes: number;
  readonly maxDiscardBytes: number;
  #parts: Buffer[] = [];
  #size = 0;
  /** Inside an oversized line: skip bytes until its newline. */
  #discarding = false;
  #discarded = 0;
  #ended = false;

  constructor(maxBytes: number, options: DecoderOptions = {}) {
    this.maxBytes = maxBytes;
    this.maxDiscardBytes = options.maxDiscardBytes ?? MAX_DISCARD_BYTES;
  }

  /** Feed bytes as they arrive; returns the frames completed by them, in order. */
  push(chunk: Buffer): Frame[] {
    const frames: Frame[] = [];
    let start = 0;
    while (start < chunk.length && !this.#ended) {
      const nl = chunk.indexOf(NEWLINE, start);
      const end = nl < 0 ? chunk.length : nl;
      const piece = chunk.subarray(start, end);
      if (this.#discarding) {
        this.#discarded += piece.length;
      } else if (this.#size + piece.length + 1 > this.maxBytes) {
        // Too long already, or would be once its newline arrives: say so now, drop what we have.
        this.#discarding = true;
        this.#discarded = this.#size + piece.length;
        this.#parts = [];
        this.#size = 0;
        // Stryker disable next-line EqualityOperator: nl is 0 only for an empty piece at a chunk's start, and that cannot be over the cap (the bytes before it fit with their newline)
        frames.push({ kind: 'too-large', bytes: this.#discarded + (nl < 0 ? 0 : 1) });
      } else if (
        // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty piece adds no bytes, so keeping it leaves every line the same (a mark above the `} else if` line is not seen)
        piece.length > 0
      ) {
        // Copy: the caller may reuse its buffer (a piece ending at a newline is used before push returns).
        // Stryker disable next-line ConditionalExpression,EqualityOperator: copying a piece that is used at once changes nothing the caller sees
        this.#parts.push(nl < 0 ? Buffer.from(piece) : piece);
        this.#size += piece.length;
      }
      if (this.#discarding && this.#discarded > this.maxDiscardBytes) {
        this.#ended = true;
        frames.push({ kind: 'endless', bytes: this.#discarded });
        break;
      }
      if (nl < 0) break;
      // A complete line.
      if (this.#discarding) {
        this.#discarding = false;
        this.#discarded = 0;
      } else {
        // Stryker disable next-line ConditionalExpression: concatenating one part gives the same bytes; the shortcut only saves a copy
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

  /** Bytes held in memory for a line whose newline has not come yet (never more than maxBytes). */
  get pending(): number {
    return this.#size;
  }

  /** True after an `endless` frame: the decoder ignores all further input. */
  get ended(): boolean {
    return this.#ended;
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
