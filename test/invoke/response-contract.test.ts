// Formatting a response from its contract, on generated responses: any status of 400 or more is
// an error, an image is attached only up to its cap, a cut JSON body ends at a value boundary
// (closing its open brackets gives valid JSON), a cut never exceeds the limit, bodies are read
// only as far as needed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { formatResponse, pickHeaders, type FormatOptions } from '../../src/invoke/response.ts';
import { formatOptions } from './helpers.ts';
import { readBody, readText } from '../../src/invoke/read.ts';

const opts = formatOptions;

/** Whether a JSON text has a `,`, `}` or `]` outside strings: a place a cut can end at. */
function hasBoundary(text: string): boolean {
  let inString = false;
  let escaped = false;
  for (const c of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ',' || c === '}' || c === ']') return true;
  }
  return false;
}

/** Closes the brackets a JSON prefix leaves open (outside strings). */
function closeBrackets(prefix: string): string {
  const stack: string[] = [];
  let inString = false;
  let escaped = false;
  for (const c of prefix) {
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') stack.push('}');
    else if (c === '[') stack.push(']');
    else if (c === '}' || c === ']') stack.pop();
  }
  return prefix + stack.reverse().join('');
}

describe('response contract', () => {
  test('every status of 400 or more is flagged as an error, and none below', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 200, max: 599 }), async (status) => {
        const r = await formatResponse(new Response(status === 204 || status === 205 || status === 304 ? null : 'x', { status }), opts());
        assert.equal(r.isError, status >= 400 ? true : undefined, `HTTP ${status}`);
        assert.ok(r.text.startsWith(`HTTP ${status}`));
        assert.equal((r.structured as { status: number }).status, status);
      }),
      { numRuns: 150 },
    );
  });

  test('an image is attached up to its cap exactly, and one byte over is described instead', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 300 }), async (size, cap) => {
        const r = await formatResponse(new Response(new Uint8Array(size).fill(7), { headers: { 'content-type': 'image/png' } }), opts({ maxImageBytes: cap }));
        if (size <= cap) {
          assert.equal(r.images?.length, 1);
          assert.equal(Buffer.from(r.images![0]!.data, 'base64').length, size);
          assert.match(r.text, /\[image\/png image, \d+ bytes, attached\]/);
        } else {
          assert.equal(r.images, undefined);
          assert.match(r.text, /over the \d+ bytes image limit, not attached/);
        }
      }),
      { numRuns: 150 },
    );
  });

  test('a cut JSON body is a prefix of the compact JSON at a value boundary, within the limit', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), fc.integer({ min: 20, max: 400 }), async (value, limit) => {
        const compact = JSON.stringify(value);
        const r = await formatResponse(new Response(JSON.stringify(value, null, 2), { headers: { 'content-type': 'application/json' } }), opts({ maxResponseBytes: limit }));
        const s = r.structured as { truncated: boolean; body: unknown };
        if (Buffer.byteLength(compact) <= limit) {
          assert.equal(s.truncated, false);
          assert.deepEqual(s.body, JSON.parse(compact));
          return;
        }
        assert.equal(s.truncated, true);
        const shown = s.body as string;
        assert.ok(compact.startsWith(shown), 'a prefix of the compact JSON');
        assert.ok(Buffer.byteLength(shown) <= limit);
        assert.match(r.text, /\[truncated: showing .* \(compacted JSON; .* as sent\)\]/);
        if (hasBoundary(compact.slice(0, limit))) {
          // Where a boundary exists, the cut is at one: closing the open brackets makes valid JSON.
          assert.doesNotThrow(() => JSON.parse(closeBrackets(shown)), shown);
        }
      }),
      { numRuns: 300 },
    );
  });

  test('an array of objects cut ends at a value boundary: closing it gives the shown elements', async () => {
    const items = Array.from({ length: 50 }, (_, i) => ({ id: i, name: `n${i}` }));
    const r = await formatResponse(new Response(JSON.stringify(items), { headers: { 'content-type': 'application/json' } }), opts({ maxResponseBytes: 100 }));
    const shown = (r.structured as { body: string }).body;
    const back = JSON.parse(closeBrackets(shown)) as Array<{ id: number }>;
    assert.deepEqual(back.slice(0, -1), items.slice(0, back.length - 1));
    assert.equal(back.at(-1)!.id, back.length - 1);
    assert.ok(Buffer.byteLength(shown) <= 100 && Buffer.byteLength(shown) > 80, shown);
  });

  test('a text cut never passes the limit, and says how much was shown', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', minLength: 0, maxLength: 600 }), fc.integer({ min: 10, max: 300 }), async (text, limit) => {
        const r = await formatResponse(new Response(text, { headers: { 'content-type': 'text/plain; charset=utf-8' } }), opts({ maxResponseBytes: limit }));
        const s = r.structured as { truncated: boolean; body: string | null };
        const size = Buffer.byteLength(text);
        assert.equal(s.truncated, size > limit);
        if (size === 0) return;
        assert.ok(Buffer.byteLength(s.body ?? '') <= limit);
        assert.ok(text.startsWith(s.body ?? ''));
      }),
      { numRuns: 200 },
    );
  });

  test('HEAD, 204 and 304 show no body; binary bodies are described by type and size', async () => {
    const head = await formatResponse(new Response('ignored'), opts({ method: 'HEAD' }));
    assert.ok(head.text.startsWith('HTTP 200 OK') && !head.text.includes('ignored'));
    for (const status of [204, 304]) assert.equal((await formatResponse(new Response(null, { status }), opts())).structured?.body, null);
    const bin = await formatResponse(new Response(new Uint8Array(10), { headers: { 'content-type': 'application/pdf' } }), opts());
    assert.match(bin.text, /\[application\/pdf body, 10 bytes: not shown\]/);
  });

  test('only the headers that matter are kept, credentials among them redacted', () => {
    const h = new Headers({ 'content-type': 'a/b', server: 'x', 'x-ratelimit-remaining': '3', 'x-pagination-next': 'p', 'www-authenticate': 'Bearer realm="tok-secret-1"', etag: 'e' });
    assert.deepEqual(pickHeaders(h, new Set(), ['tok-secret-1']), {
      'content-type': 'a/b',
      'www-authenticate': 'Bearer realm="[redacted]"',
      'x-pagination-next': 'p',
      'x-ratelimit-remaining': '3',
    });
  });
});

describe('bounded reading', () => {
  function endless(): { res: Response; pulled: () => number } {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(64 * 1024).fill(97));
      },
    });
    return { res: new Response(stream, { headers: { 'content-type': 'text/plain' } }), pulled: () => pulled };
  }

  test('readText stops at its bound and cancels the rest of an endless body', async () => {
    const { res, pulled } = endless();
    const text = await readText(res, 100_000);
    assert.equal(text.length, 100_000);
    assert.ok(pulled() <= 4, `${pulled()} chunks pulled`);
  });

  test('readBody keeps only what it is asked to keep and stops counting at its bound', async () => {
    const { res } = endless();
    const read = await readBody(res, 1000);
    assert.equal(read.bytes.length, 1000);
    assert.ok(read.total >= 64 * 1024 * 1024);
    assert.equal(read.exact, false);
  });

  test('an endless text response is answered, cut, with the size given as "more than"', async () => {
    const r = await formatResponse(endless().res, opts());
    assert.match(r.text, /\[truncated: showing \d+ bytes of more than 64\.0 MB\]/);
  });
});

describe('response details', () => {
  const show = async (body: ConstructorParameters<typeof Response>[0], headers: Record<string, string>, over: Partial<FormatOptions> = {}) =>
    formatResponse(new Response(body, { headers }), opts(over));

  test('media types: JSON kinds, text kinds, SVG as text, images, octet-stream sniffed, others binary', async () => {
    for (const t of ['application/json', 'application/problem+json', 'text/json', 'APPLICATION/JSON; charset=utf-8']) {
      assert.deepEqual((await show('{"a": 1}', { 'content-type': t })).structured?.body, { a: 1 }, t);
    }
    for (const t of ['text/csv', 'application/atom+xml', 'application/xml', 'application/javascript', 'application/x-www-form-urlencoded', 'application/x-yaml', 'application/graphql', 'application/x-ndjson', 'image/svg+xml']) {
      assert.equal((await show('a=1 <b/>', { 'content-type': t })).structured?.body, 'a=1 <b/>', t);
    }
    assert.equal((await show('plain words', { 'content-type': 'application/octet-stream' })).structured?.body, 'plain words');
    assert.match((await show(new Uint8Array([0x41, 0, 0x42]), { 'content-type': 'application/octet-stream' })).text, /\[application\/octet-stream body, 3 bytes: not shown\]/);
    assert.match((await show(new Uint8Array([0xff, 0xfe, 0x41]), { 'content-type': '' })).text, /\[binary body, 3 bytes: not shown\]/);
    assert.match((await show('%PDF', { 'content-type': 'application/pdf' })).text, /\[application\/pdf body, 4 bytes: not shown\]/);
    assert.equal((await show('{"a":1}', { 'content-type': 'application/json' })).images, undefined);
  });

  test('a JSON body that does not parse is shown as text', async () => {
    const r = await show('{"a": 1,', { 'content-type': 'application/json' });
    assert.equal(r.structured?.body, '{"a": 1,');
  });

  test('charsets: the declared one is used, an unknown one falls back to UTF-8', async () => {
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9]);
    assert.equal((await show(latin1, { 'content-type': 'text/plain; charset="ISO-8859-1"' })).structured?.body, 'café');
    assert.equal((await show(new TextEncoder().encode('café'), { 'content-type': 'text/plain; charset=no-such-charset' })).structured?.body, 'café');
  });

  test('sizes read as bytes, KB and MB', async () => {
    const big = (n: number) => show('x'.repeat(n), { 'content-type': 'text/plain' }, { maxResponseBytes: 10 });
    assert.match((await big(1023)).text, /showing 10 bytes of 1023 bytes\]/);
    assert.match((await big(1024)).text, /of 1\.0 KB\]/);
    assert.match((await big(1024 * 1024 - 1)).text, /of 1024\.0 KB\]/);
    assert.match((await big(1024 * 1024)).text, /of 1\.0 MB\]/);
  });

  test('a text cut prefers a line end in the last quarter, else a space in the last tenth, else the limit', async () => {
    const cut = async (text: string) => (await show(text, { 'content-type': 'text/plain' }, { maxResponseBytes: 100 })).structured?.body as string;
    assert.equal(await cut(`${'a'.repeat(80)}\n${'b'.repeat(100)}`), `${'a'.repeat(80)}\n`);
    assert.equal(await cut(`${'a'.repeat(70)}\n${'b'.repeat(100)}`), `${'a'.repeat(70)}\n${'b'.repeat(29)}`.slice(0, 100));
    assert.equal(await cut(`${'a'.repeat(95)} ${'b'.repeat(100)}`), `${'a'.repeat(95)} `);
    assert.equal(await cut(`${'a'.repeat(85)} ${'b'.repeat(100)}`), `${'a'.repeat(85)} ${'b'.repeat(14)}`);
    assert.equal(await cut(`${'a'.repeat(99)}\u00e9${'b'.repeat(100)}`), 'a'.repeat(99));
  });

  test('a JSON cut never splits a string; with no boundary it cuts on a character boundary', async () => {
    const r = await show(JSON.stringify({ k: `${'é'.repeat(60)}` }), { 'content-type': 'application/json' }, { maxResponseBytes: 50 });
    const shown = (r.structured as { body: string }).body;
    assert.ok(!shown.includes('\uFFFD'));
    assert.ok(Buffer.byteLength(shown) <= 50);
    const commas = await show(JSON.stringify(['a,b,c,d,e,f,g,h,i,j', 'x'.repeat(60)]), { 'content-type': 'application/json' }, { maxResponseBytes: 40 });
    assert.equal((commas.structured as { body: string }).body, '["a,b,c,d,e,f,g,h,i,j"');
  });

  test('headers kept: rate limits in their spellings, pagination, listed ones; the rest dropped', () => {
    const h = new Headers({ 'ratelimit-limit': '1', 'x-rate-limit-reset': '2', 'x-ratelimit-used': '3', 'x-pagination-page': '4', location: '/x', 'retry-after': '5', 'x-total-count': '6', 'x-powered-by': 'y', 'set-cookie': 'a=b', 'x-api-key': 'k' });
    assert.deepEqual(Object.keys(pickHeaders(h, new Set(), [])).sort(), ['location', 'ratelimit-limit', 'retry-after', 'x-pagination-page', 'x-rate-limit-reset', 'x-ratelimit-used', 'x-total-count']);
    assert.deepEqual(pickHeaders(new Headers({ link: 'secret-val' }), new Set(['link']), []), { link: '[redacted]' });
  });

  test('notes from the call follow the body, and an empty body shows nothing', async () => {
    const r = await formatResponse(new Response('', { status: 200 }), opts({ notes: ['[after 1 retry]'] }));
    assert.equal(r.text, 'HTTP 200 OK\ncontent-type: text/plain;charset=UTF-8\n[after 1 retry]');
    assert.equal(r.structured?.body, null);
  });
});
