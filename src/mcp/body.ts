// HTTP request bodies, capped before they are buffered: a declared Content-Length over the limit is
// refused before a byte is read, and a body without one (chunked) is counted as it arrives and
// dropped the moment it passes the limit, so a client cannot make the daemon hold more than
// `limit` bytes for one request.

export class BodyTooLarge extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`request body larger than ${limit} bytes`);
    this.limit = limit;
  }
}

/** The body parsed as JSON; throws BodyTooLarge past `limit` bytes, SyntaxError when it is not JSON. */
export async function readBody(req: AsyncIterable<unknown> & { headers: Record<string, string | string[] | undefined> }, limit: number): Promise<unknown> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limit) throw new BodyTooLarge(limit);
    chunks.push(buf);
  }
  return JSON.parse(Buffer.concat(chunks, size).toString('utf8'));
}
