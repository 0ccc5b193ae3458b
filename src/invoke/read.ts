// Response bodies are read as streams: at most what will be shown is kept in memory, the rest is
// counted (up to a bound) and discarded, and the stream is cancelled once svc stops reading.

// Past this, svc stops reading and reports the size as "more than".
const COUNT_LIMIT = 64 * 1024 * 1024;

export interface ReadBody {
  readonly bytes: Uint8Array;
  /** Total size in bytes (exact when `exact`). */
  readonly total: number;
  readonly exact: boolean;
}

/** Reads at most `keep` bytes into memory and counts the rest (up to COUNT_LIMIT). */
export async function readBody(res: Response, keep: number): Promise<ReadBody> {
  if (res.body === null) return { bytes: new Uint8Array(0), total: 0, exact: true };
  const chunks: Uint8Array[] = [];
  let kept = 0;
  let total = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (kept < keep) {
      const part = kept + value.byteLength > keep ? value.subarray(0, keep - kept) : value;
      chunks.push(part);
      kept += part.byteLength;
    }
    if (total >= COUNT_LIMIT) {
      await reader.cancel().catch(() => undefined);
      // A declared length is believed only when it is more than what already arrived.
      const declared = Number(res.headers.get('content-length'));
      const believed = Number.isFinite(declared) && declared > total;
      return { bytes: concat(chunks, kept), total: believed ? declared : total, exact: believed };
    }
  }
  return { bytes: concat(chunks, kept), total, exact: true };
}

function concat(chunks: Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}


/** The body as text, at most `max` bytes of it; the rest is not read. */
export async function readText(res: Response, max: number): Promise<string> {
  if (res.body === null) return '';
  const chunks: Uint8Array[] = [];
  let kept = 0;
  const reader = res.body.getReader();
  try {
    while (kept < max) {
      const { done, value } = await reader.read();
      if (done) break;
      const part = kept + value.byteLength > max ? value.subarray(0, max - kept) : value;
      chunks.push(part);
      kept += part.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return new TextDecoder().decode(concat(chunks, kept));
}

/** Lets go of a response svc will not read, so its connection does not buffer it. */
export async function discard(res: Response): Promise<void> {
  await res.body?.cancel().catch(() => undefined);
}
