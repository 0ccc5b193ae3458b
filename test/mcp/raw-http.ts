// A raw HTTP request for tests of the HTTP front: exact status, headers and body, the body written
// in `chunks` pieces, with Content-Length unless `declare` is false (then chunked).
import { request } from 'node:http';

export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

export interface RawRequest {
  readonly method?: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly chunks?: number;
  readonly declare?: boolean;
  /** Path and query to send instead of the URL's own (the Host header still comes from the URL). */
  readonly path?: string;
}

/** An event stream is not read to its end: its status and headers are returned with an empty body. */
export function rawRequest(url: string, options: RawRequest = {}): Promise<RawAnswer> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const body = Buffer.from(options.body ?? '');
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...options.headers };
    if (options.body !== undefined && options.declare !== false) headers['content-length'] = String(body.length);
    const req = request({ host: u.hostname, port: u.port, path: options.path ?? `${u.pathname}${u.search}`, method: options.method ?? 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      if ((res.headers['content-type'] ?? '').includes('text/event-stream')) {
        res.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' });
        return;
      }
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    // The server may answer 413 and close before the whole body is written.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    if (options.body !== undefined) {
      const pieces = Math.max(1, options.chunks ?? 1);
      const size = Math.ceil(body.length / pieces) || 1;
      for (let at = 0; at < body.length; at += size) req.write(body.subarray(at, at + size));
    }
    req.end();
  });
}
