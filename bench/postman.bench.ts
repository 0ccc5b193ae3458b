// Postman import speed and memory on a synthetic collection shaped like the Stripe export
// (folders of requests with {{baseUrl}} hosts, :id variables, query params, urlencoded bodies,
// collection bearer auth), scaled to 100,000 requests.
import { importPostman } from '../src/import/postman/index.ts';

function collection(requests: number): Record<string, unknown> {
  const folders: unknown[] = [];
  const perFolder = 50;
  for (let f = 0; f < requests / perFolder; f++) {
    const item: unknown[] = [];
    for (let r = 0; r < perFolder; r++) {
      const n = f * perFolder + r;
      item.push({
        name: `Operation ${n}`,
        request: {
          method: r % 2 === 0 ? 'GET' : 'POST',
          description: { content: `Does thing ${n}.`, type: 'text/plain' },
          url: {
            host: ['{{baseUrl}}'],
            path: ['v1', `resource${f}`, ':id', `action${r}`],
            query: [{ key: 'limit', value: '10', description: 'Page size' }, { key: 'expand', value: '', disabled: true }],
            variable: [{ key: 'id', value: '', description: 'The id' }],
          },
          header: [{ key: 'Content-Type', value: 'application/x-www-form-urlencoded' }],
          ...(r % 2 === 1
            ? { body: { mode: 'urlencoded', urlencoded: [{ key: 'name', value: '<string>' }, { key: 'metadata[k]', value: '' }] } }
            : {}),
        },
      });
    }
    folders.push({ name: `Folder ${f}`, item });
  }
  return {
    info: { name: 'bench', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{token}}' }] },
    variable: [{ key: 'baseUrl', value: 'https://api.example.com/' }],
    item: folders,
  };
}

export async function run(): Promise<string> {
  const rows: string[] = [];
  for (const size of [10_000, 100_000]) {
    const doc = collection(size);
    globalThis.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const result = importPostman(doc, 'postman-2.1', { file: '/bench/collection.json', spec: 'bench', collection: 'bench', warn: () => {} });
    const ms = performance.now() - started;
    globalThis.gc?.();
    const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
    rows.push(`| ${size.toLocaleString('en-US')} | ${result.endpoints.length.toLocaleString('en-US')} | ${ms.toFixed(0)} | ${heapMb.toFixed(0)} |`);
  }
  return [
    '## Postman import',
    '',
    'Synthetic v2.1 collection (folders of 50 requests, `{{baseUrl}}` host, `:id` variables, query params, urlencoded bodies, collection bearer auth), already parsed; `importPostman` only.',
    '',
    '| requests | endpoints | ms | heap retained by the result (MB, approximate without --expose-gc) |',
    '|---:|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await run());
