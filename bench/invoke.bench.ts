// invoke's overhead over a direct fetch of the same loopback URL, measured side by side in one
// run (alternating, so both see the same machine state). Target: under 1 ms added at p50.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '../src/config/index.ts';
import { importSpec } from '../src/import/index.ts';
import { createInvoker } from '../src/invoke/index.ts';

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../test/fixtures/invoke/petstore.yaml');
const WARMUP = 200;
const ROUNDS = 1500;

const BODY = JSON.stringify({ id: 7, name: 'Rex', tag: 'dog', owner: { id: 1, name: 'Ann' }, tags: ['a', 'b', 'c'] });

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export async function run(): Promise<string> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(BODY);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  try {
    const config = await parseConfig(`specs:\n  - path: ${JSON.stringify(FIXTURE)}\n    name: pets\n    serverVariables: { port: "${port}" }\n`, path.join(path.dirname(FIXTURE), 'svc.yaml'));
    const outcome = await importSpec(FIXTURE, { name: 'pets', collection: 'default' });
    if (!outcome.ok) throw new Error('fixture did not import');
    const spec = outcome.spec;
    const invoker = createInvoker(config);
    const cases = [
      {
        name: 'GET /pets/{petId}',
        endpoint: spec.endpoints.find((e) => e.id === 'pets:GET:/pets/{petId}')!,
        args: { params: { petId: '7' } },
        url: `http://127.0.0.1:${port}/api/pets/7`,
      },
      {
        name: 'GET /pets (5 query params, 1 header)',
        endpoint: spec.endpoints.find((e) => e.id === 'pets:GET:/pets')!,
        args: { params: { limit: 20, status: 'sold', tags: ['a', 'b'], filter: { color: 'red' }, q: 'rex', 'X-Request-Id': 'r1' } },
        url: `http://127.0.0.1:${port}/api/pets?limit=20&status=sold&tags=a&tags=b&filter[color]=red&q=rex`,
      },
    ];
    const rows: string[] = [];
    for (const c of cases) {
      const direct = async (): Promise<void> => {
        const res = await fetch(c.url, { headers: { accept: 'application/json', 'x-request-id': 'r1' } });
        JSON.stringify(await res.json());
      };
      const viaInvoke = async (): Promise<void> => {
        const r = await invoker.invoke(c.endpoint, spec, c.args, {});
        if (r.isError) throw new Error(r.text);
      };
      for (let i = 0; i < WARMUP; i++) {
        await direct();
        await viaInvoke();
      }
      const a: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        // Alternate the order too, so neither side always runs on a warmer connection.
        const first = i % 2 === 0 ? direct : viaInvoke;
        const second = i % 2 === 0 ? viaInvoke : direct;
        let t = performance.now();
        await first();
        (first === direct ? a : b).push(performance.now() - t);
        t = performance.now();
        await second();
        (second === direct ? a : b).push(performance.now() - t);
      }
      a.sort((x, y) => x - y);
      b.sort((x, y) => x - y);
      const f = (n: number): string => n.toFixed(3);
      const p50 = quantile(b, 0.5) - quantile(a, 0.5);
      rows.push(
        `| ${c.name} | ${f(quantile(a, 0.5))} | ${f(quantile(a, 0.99))} | ${f(quantile(b, 0.5))} | ${f(quantile(b, 0.99))} | ${f(p50)} | ${f(quantile(b, 0.99) - quantile(a, 0.99))} | ${p50 < 1 ? 'yes' : 'NO'} |`,
      );
    }
    return [
      '## invoke overhead',
      '',
      `invoke (validate, serialize, ky, format) against a direct \`fetch\` + JSON parse of the same loopback URL (node:http in the same process), ${ROUNDS} calls each, alternating, after ${WARMUP} warm-up calls. Milliseconds.`,
      '',
      '| Case | fetch p50 | fetch p99 | invoke p50 | invoke p99 | added p50 | added p99 | under 1 ms at p50 |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
      ...rows,
    ].join('\n');
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
