// Where a response is cut and what it keeps, from formatResponse's contract:
// - a cut JSON body is the LONGEST prefix within the limit that ends at a value boundary (after a
//   closing bracket, or just before a comma, outside strings); with no boundary, the limit backed
//   off to a character boundary;
// - a cut text ends after the last line end in the last quarter before the limit, else after the
//   last space in the last tenth, else at the limit (a character boundary), never past it;
// - the text read is wider than the limit, whatever the limit (a limit over 64 KB shows that much);
// - the headers kept are a fixed list, plus rate-limit and pagination families by prefix;
// - the media type and charset are read however the parameters are spaced or quoted;
// - the status line is `HTTP <status> <reason>`, with no reason when none is known.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { formatResponse, pickHeaders, type FormatOptions } from '../../src/invoke/response.ts';
import { formatOptions } from './helpers.ts';

const opts = formatOptions;

const body = (r: { structured?: Record<string, unknown> }): unknown => r.structured?.['body'];

/** The longest cut of a compact JSON text within `limit` bytes, by the contract (ASCII texts). */
function expectedJsonCut(text: string, limit: number): number {
  const boundary = new Set<number>();
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ',') boundary.add(i);
    else if (c === '}' || c === ']') boundary.add(i + 1);
  }
  for (let p = limit; p > 0; p--) if (boundary.has(p) && (p < limit || text[p - 1] === '}' || text[p - 1] === ']')) return p;
  return limit;
}

/** The cut of an ASCII text at `limit` bytes, by the contract. */
function expectedTextCut(text: string, limit: number): number {
  for (let i = limit - 1; i > limit * 0.75; i--) if (text[i] === '\n') return i + 1;
  for (let i = limit - 1; i > limit * 0.9; i--) if (text[i] === ' ') return i + 1;
  return limit;
}

const asciiJson = fc.jsonValue({ maxDepth: 5 }).map((v) => JSON.stringify(v).replace(/[^\x20-\x7e]/g, 'x')).filter((s) => {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
});

describe('cutting a JSON body', () => {
  test('the cut is the longest prefix within the limit that ends at a value boundary', async () => {
    await fc.assert(
      fc.asyncProperty(asciiJson, fc.double({ min: 0, max: 1, noNaN: true }), async (json, at) => {
        const compact = JSON.stringify(JSON.parse(json));
        fc.pre(compact.length > 2);
        const limit = 1 + Math.floor(at * (compact.length - 2));
        const r = await formatResponse(new Response(compact, { headers: { 'content-type': 'application/json' } }), opts({ maxResponseBytes: limit }));
        assert.equal(body(r), compact.slice(0, expectedJsonCut(compact, limit)), `limit ${limit} of ${compact}`);
      }),
      { numRuns: 400 },
    );
  });

  test('a closing bracket is a boundary even where no comma follows within the limit', async () => {
    const r = await formatResponse(new Response('[1,[2,[3]]]', { headers: { 'content-type': 'application/json' } }), opts({ maxResponseBytes: 9 }));
    assert.equal(body(r), '[1,[2,[3]');
    const o = await formatResponse(new Response('{"a":{"b":{}}}', { headers: { 'content-type': 'application/json' } }), opts({ maxResponseBytes: 12 }));
    assert.equal(body(o), '{"a":{"b":{}');
  });

  test('a body with no boundary before the limit is cut at the limit, backed off to a whole character', async () => {
    const long = JSON.stringify('é'.repeat(100));
    const even = await formatResponse(new Response(long, { headers: { 'content-type': 'application/json' } }), opts({ maxResponseBytes: 41 }));
    assert.equal(body(even), `"${'é'.repeat(20)}`);
    const odd = await formatResponse(new Response(long, { headers: { 'content-type': 'application/json' } }), opts({ maxResponseBytes: 42 }));
    assert.equal(body(odd), `"${'é'.repeat(20)}`, 'half a character is not shown');
  });
});

describe('cutting a text body', () => {
  const ascii = fc.array(fc.constantFrom('a', 'b', ' ', '\n', '.'), { minLength: 2, maxLength: 500 }).map((a) => a.join(''));

  test('after the last line end in the last quarter, else the last space in the last tenth, else at the limit', async () => {
    await fc.assert(
      fc.asyncProperty(ascii, fc.integer({ min: 1, max: 499 }), async (text, limit) => {
        fc.pre(limit < text.length);
        const r = await formatResponse(new Response(text, { headers: { 'content-type': 'text/plain' } }), opts({ maxResponseBytes: limit }));
        assert.equal(body(r), text.slice(0, expectedTextCut(text, limit)), JSON.stringify({ text, limit }));
      }),
      { numRuns: 400 },
    );
  });

  test('the edges of the windows: a line end exactly a quarter back, a space exactly a tenth back, or at the limit itself, is not taken', async () => {
    const at = (i: number, c: string) => `${'a'.repeat(i)}${c}${'a'.repeat(199 - i)}`;
    const show = async (text: string) => body(await formatResponse(new Response(text, { headers: { 'content-type': 'text/plain' } }), opts({ maxResponseBytes: 100 })));
    assert.equal(await show(at(75, '\n')), 'a'.repeat(75) + '\n' + 'a'.repeat(24));
    assert.equal(await show(at(76, '\n')), 'a'.repeat(76) + '\n');
    assert.equal(await show(at(90, ' ')), 'a'.repeat(90) + ' ' + 'a'.repeat(9));
    assert.equal(await show(at(91, ' ')), 'a'.repeat(91) + ' ');
    assert.equal(await show(at(100, '\n')), 'a'.repeat(100));
    assert.equal(await show(at(100, ' ')), 'a'.repeat(100));
  });

  test('a limit over 64 KB shows that much text', async () => {
    const text = 'a'.repeat(100_000);
    const r = await formatResponse(new Response(text, { headers: { 'content-type': 'text/plain' } }), opts({ maxResponseBytes: 70_000 }));
    assert.equal((body(r) as string).length, 70_000);
    assert.match(r.text, /\[truncated: showing 68\.4 KB of 97\.7 KB\]$/);
  });
});

describe('reading the media type and charset', () => {
  test('a space before the parameters still reads as JSON', async () => {
    const r = await formatResponse(new Response('{ "a" : [1, 2] }', { headers: { 'content-type': 'application/json ; charset=utf-8' } }), opts());
    assert.deepEqual(body(r), { a: [1, 2] });
  });

  test('a charset is read quoted or not, with spaces around the equals sign, in any case', async () => {
    for (const type of ['text/plain; charset=iso-8859-1', 'text/plain; charset = iso-8859-1', 'text/plain;charset="ISO-8859-1"', 'text/plain; CHARSET=latin1']) {
      const r = await formatResponse(new Response(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), { headers: { 'content-type': type } }), opts());
      assert.equal(body(r), 'café', type);
    }
    const json = await formatResponse(new Response(new Uint8Array([0x22, 0xe9, 0x22]), { headers: { 'content-type': 'application/json; charset=iso-8859-1' } }), opts());
    assert.equal(body(json), 'é');
  });
});

describe('headers and the status line', () => {
  const KEPT = ['content-type', 'location', 'link', 'retry-after', 'www-authenticate', 'x-total-count', 'x-total', 'x-total-pages', 'x-next-page', 'x-next-cursor', 'x-page', 'x-per-page', 'deprecation', 'sunset'];
  const FAMILIES = ['ratelimit-remaining', 'rate-limit-reset', 'x-ratelimit-limit', 'x-rate-limit-used', 'ratelimit', 'x-pagination-next', 'x-pagination'];
  const DROPPED = ['server', 'etag', 'x-request-id', 'my-ratelimit', 'x-my-rate-limit', 'pagination', 'x-totals', 'x-pages', 'sunsets', 'links', 'set-cookie'];

  test('each header of the list and of the rate-limit and pagination families is kept; others are dropped', () => {
    const h = new Headers();
    for (const name of [...KEPT, ...FAMILIES, ...DROPPED]) h.set(name, `v-${name}`);
    const kept = pickHeaders(h, new Set(), []);
    assert.deepEqual(Object.keys(kept).sort(), [...KEPT, ...FAMILIES].sort());
    for (const [name, value] of Object.entries(kept)) assert.equal(value, `v-${name}`);
  });

  test('the status line has the reason the server gave, else the standard one, else none', async () => {
    const first = async (status: number, statusText?: string) => (await formatResponse(new Response('x', { status, ...(statusText !== undefined ? { statusText } : {}) }), opts())).text.split('\n')[0];
    assert.equal(await first(599), 'HTTP 599');
    assert.equal(await first(299), 'HTTP 299');
    assert.equal(await first(404), 'HTTP 404 Not Found');
    assert.equal(await first(200, 'Fine'), 'HTTP 200 Fine');
  });
});

describe('bodies by kind', () => {
  const show = (bytes: Uint8Array | string, type: string, over: Partial<FormatOptions> = {}) => formatResponse(new Response(bytes, { headers: { 'content-type': type } }), opts(over));

  test('an image up to its cap is attached whole, however much larger than a text window it is', async () => {
    const png = new Uint8Array(100_000).map((_, i) => i % 251);
    const r = await show(png, 'image/png', { maxImageBytes: 200_000 });
    assert.equal(r.images?.length, 1);
    assert.deepEqual(Buffer.from(r.images![0]!.data, 'base64'), Buffer.from(png));
    assert.equal((r.structured as { truncated: boolean }).truncated, false);
  });

  test('an image over its cap is not attached, and the answer says it was cut', async () => {
    const r = await show(new Uint8Array(300), 'image/png');
    assert.equal(r.images, undefined);
    assert.equal((r.structured as { truncated: boolean }).truncated, true);
  });

  test('an image or binary type with spaced parameters is named without them', async () => {
    const img = await show(new Uint8Array(10), 'image/png ; q=1');
    assert.equal(img.images?.[0]?.mimeType, 'image/png');
    assert.match(img.text, /\[image\/png image, 10 bytes, attached\]/);
    const bin = await show(new Uint8Array(10), 'application/pdf ; q=1');
    assert.match(bin.text, /\n\n\[application\/pdf body, 10 bytes: not shown\]$/);
  });

  test('an empty body shows nothing, whatever its type', async () => {
    for (const type of ['image/png', 'application/pdf', 'application/json', 'text/plain', 'application/octet-stream', '']) {
      const r = await show('', type);
      assert.equal(r.images, undefined, type);
      assert.equal(r.text.split('\n\n')[1], undefined, `${type}: ${r.text}`);
      assert.equal((r.structured as { body: unknown }).body, null, type);
    }
  });

  test('JSON with a byte that is not UTF-8 inside a string is still JSON', async () => {
    const r = await show(new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), 'application/json');
    assert.deepEqual((r.structured as { body: unknown }).body, { a: '\ufffd' });
  });

  test('a body without a useful type is judged by its first 4 KB', async () => {
    const late = Buffer.concat([Buffer.alloc(4096, 'a'), Buffer.from([0xff, 0xfe, 0x00])]);
    const r = await show(late, 'application/octet-stream');
    assert.match(r.text, /\n\naaaa/);
    const early = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.alloc(10, 'a')]);
    assert.match((await show(early, 'application/octet-stream')).text, /not shown\]$/);
  });

  test('400 is the first error status', async () => {
    assert.equal((await formatResponse(new Response('x', { status: 400 }), opts())).isError, true);
    assert.equal((await formatResponse(new Response('x', { status: 399 }), opts())).isError, undefined);
  });
});
