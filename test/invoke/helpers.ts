// Test support for invoke: a real node:http server on 127.0.0.1 that records what it receives,
// and a real svc.yaml + real import of the fixture specs under test/fixtures/invoke.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '../../src/config/index.ts';
import type { Config } from '../../src/config/types.ts';
import { importSpec } from '../../src/import/index.ts';
import { createInvoker, type InvokeArgs, type InvokeContext, type InvokeResult, type Invoker } from '../../src/invoke/index.ts';
import type { FormatOptions } from '../../src/invoke/response.ts';
import type { Endpoint, ImportedSpec } from '../../src/model/index.ts';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/invoke');

export interface Recorded {
  readonly method: string;
  /** The raw request target, exactly as it arrived (`/api/pets?limit=2`). */
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

export type Handler = (req: Recorded, res: ServerResponse) => void | Promise<void>;

export interface TestServer {
  readonly origin: string;
  readonly port: number;
  readonly requests: Recorded[];
  /** Route by pathname prefix; the first matching route answers, else 200 with an echo. */
  route(prefix: string, handler: Handler): void;
  close(): Promise<void>;
}

/** Echo what arrived as JSON: the default answer, so tests can see what svc sent. */
export function echo(req: Recorded, res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: req.body.toString('utf8') }));
}

export async function startServer(): Promise<TestServer> {
  const requests: Recorded[] = [];
  const routes: Array<[string, Handler]> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: Recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(rec);
      const pathname = rec.url.split('?')[0]!;
      const hit = routes.find(([prefix]) => pathname.startsWith(prefix));
      Promise.resolve((hit?.[1] ?? echo)(rec, res)).catch((err: unknown) => {
        res.writeHead(500);
        res.end(String(err));
      });
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    route(prefix, handler) {
      routes.unshift([prefix, handler]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Harness {
  readonly config: Config;
  readonly spec: ImportedSpec;
  readonly invoker: Invoker;
  endpoint(id: string): Endpoint;
  call(id: string, args?: InvokeArgs, ctx?: InvokeContext): Promise<InvokeResult>;
}

/**
 * Loads a real svc.yaml whose single spec entry is `fixture` plus the YAML lines in `entry`
 * (indented under the `- path:` item), imports the spec, and builds an invoker.
 */
export async function harness(fixture: string, name: string, entry: string, limits = ''): Promise<Harness> {
  const file = path.join(FIXTURES, fixture);
  const yaml = `${limits}specs:\n  - path: ${JSON.stringify(file)}\n    name: ${name}\n${entry
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => `    ${l}`)
    .join('\n')}\n`;
  const config = await parseConfig(yaml, path.join(FIXTURES, 'svc.yaml'));
  const outcome = await importSpec(file, { name, collection: 'default' });
  if (!outcome.ok) throw new Error(`fixture ${fixture} did not import: ${JSON.stringify(outcome.errors)}`);
  const spec = outcome.spec;
  const invoker = createInvoker(config);
  const endpoint = (id: string): Endpoint => {
    const e = spec.endpoints.find((x) => x.id === `${name}:${id}`);
    if (e === undefined) throw new Error(`no endpoint ${name}:${id}; have ${spec.endpoints.map((x) => x.id).join(', ')}`);
    return e;
  };
  return {
    config,
    spec,
    invoker,
    endpoint,
    call: (id, args = {}, ctx = {}) => invoker.invoke(endpoint(id), spec, args, ctx),
  };
}

/** Everything a result shows, as one string: text, structured JSON and images. */
export function everything(r: InvokeResult): string {
  return `${r.text}\n${JSON.stringify(r.structured ?? null)}\n${JSON.stringify(r.images ?? [])}`;
}

/** Response formatting options for a GET with no secrets: a 200-byte body cap, a 100-byte image cap. */
export function formatOptions(over: Partial<FormatOptions> = {}): FormatOptions {
  return { method: 'GET', secrets: [], sensitiveHeaders: new Set(), notes: [], maxResponseBytes: 200, maxImageBytes: 100, ...over };
}
