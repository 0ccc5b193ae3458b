// Pages of every listing: a true total, the items of the page in order, a cursor exactly when
// more follow (and only one this server gave out is taken back), and the header and last line
// that tell the model where it is.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { z } from 'zod';
import { endpoint } from '../catalog/fixtures.ts';
import { ToolInputError } from '../../src/tools/errors.ts';
import {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  decodeCursor,
  encodeCursor,
  endpointItemOf,
  endpointPage,
  listingLine,
  listingOutputShape,
  nextLine,
  pageHeader,
  pageShape,
  paginate,
  shortSummary,
} from '../../src/tools/listing.ts';

const noun = fc.constantFrom('endpoints', 'specs', 'tags');

/** A list, a limit (or none) and a cursor (none, empty, or one at any offset, past the end too). */
const pageInput = fc
  .record({ n: fc.nat({ max: 260 }), limit: fc.option(fc.integer({ min: 1, max: MAX_LIMIT }), { nil: undefined }), at: fc.nat({ max: 280 }), form: fc.constantFrom('none', 'empty', 'cursor') })
  .map(({ n, limit, at, form }) => ({
    all: Array.from({ length: n }, (_, i) => `item${i}`),
    limit,
    offset: form === 'cursor' ? at : 0,
    cursor: form === 'none' ? undefined : form === 'empty' ? '' : encodeCursor(at),
  }));

describe('paginate', () => {
  it('returns the slice at the offset, the true total, and a cursor to the next item exactly when one is left', () => {
    fc.assert(
      fc.property(pageInput, ({ all, limit, offset, cursor }) => {
        const page = paginate(all, cursor, limit);
        const size = limit ?? DEFAULT_LIMIT;
        assert.deepEqual(page.items, all.slice(offset, offset + size));
        assert.equal(page.total, all.length);
        assert.equal(page.offset, offset);
        const end = offset + page.items.length;
        if (end < all.length) {
          assert.equal(page.nextCursor, encodeCursor(end));
          assert.equal(decodeCursor(page.nextCursor!), end);
        } else {
          assert.equal(page.nextCursor, undefined);
          assert.ok(!('nextCursor' in page), 'no nextCursor key on the last page');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('takes 50 items when no limit is given', () => {
    assert.equal(DEFAULT_LIMIT, 50);
    const all = Array.from({ length: 120 }, (_, i) => i);
    const page = paginate(all, undefined, undefined);
    assert.deepEqual(page.items, all.slice(0, 50));
    assert.equal(decodeCursor(page.nextCursor!), 50);
  });

  it('walks every item once, in order, following the cursors', () => {
    fc.assert(
      fc.property(fc.nat({ max: 200 }), fc.integer({ min: 1, max: 40 }), (n, limit) => {
        const all = Array.from({ length: n }, (_, i) => i);
        const seen: number[] = [];
        let cursor: string | undefined;
        let pages = 0;
        do {
          const page = paginate(all, cursor, limit);
          seen.push(...page.items);
          cursor = page.nextCursor;
          pages++;
        } while (cursor);
        assert.deepEqual(seen, all);
        assert.equal(pages, Math.max(1, Math.ceil(n / limit)));
      }),
    );
  });
});

describe('cursors', () => {
  it('reads back every offset it gave out', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 999_999_999 }), (offset) => assert.equal(decodeCursor(encodeCursor(offset)), offset)));
  });

  const refused = (cursor: string): void => {
    assert.throws(
      () => decodeCursor(cursor),
      (error: unknown) => {
        assert.ok(error instanceof ToolInputError);
        assert.equal(error.code, 'bad-cursor');
        const shown = cursor.length <= 40 ? cursor : undefined;
        if (shown !== undefined) assert.equal(error.message, `cursor "${shown}" is not one this server gave out`);
        assert.equal(error.hint, 'pass nextCursor from the previous page exactly, or leave cursor out to start at the first page');
        return true;
      },
      cursor,
    );
  };

  it('refuses a cursor whose text is anything but svc1: and one to nine digits', () => {
    const texts = ['svc1:', 'svc1:1234567890', 'svc1:12a', 'xsvc1:5', 'svc1:5x', ' svc1:5', 'svc1:5\n', 'svc2:5', 'svc1:-1', 'SVC1:5', 'svc1 5'];
    for (const text of texts) refused(Buffer.from(text).toString('base64url'));
    // Anything around a good cursor's text: before it, after it.
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999 }), fc.string({ minLength: 1, maxLength: 5 }).filter((s) => /\D/.test(s)), fc.boolean(), (offset, extra, before) => {
        const text = before ? `${extra}svc1:${offset}` : `svc1:${offset}${extra}`;
        refused(Buffer.from(text).toString('base64url'));
      }),
    );
  });

  it('quotes a refused cursor cut to 40 characters, so a huge one does not come back whole', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 41, maxLength: 400 }), (junk) => {
        const cursor = `!${junk}`;
        try {
          decodeCursor(cursor);
          assert.fail('accepted');
        } catch (error) {
          assert.ok(error instanceof ToolInputError);
          const quoted = /^cursor "([\s\S]*)" is not one this server gave out$/.exec(error.message)?.[1];
          assert.ok(quoted !== undefined, error.message);
          assert.ok(quoted.length <= 40, `${quoted.length} characters`);
          assert.ok(quoted.endsWith('…'));
          assert.ok(cursor.startsWith(quoted.slice(0, -1)));
        }
      }),
    );
  });
});

describe('page header and next line', () => {
  it('says the range shown of the total, or the total alone when one page holds all, or that the page is past the end', () => {
    fc.assert(
      fc.property(pageInput, noun, ({ all, limit, cursor, offset }, what) => {
        const page = paginate(all, cursor, limit);
        const header = pageHeader(page, what);
        const lines = nextLine(page);
        if (all.length === 0) assert.equal(header, `0 ${what}`);
        else if (page.items.length === 0) assert.equal(header, `${all.length} ${what}; this page is past the end`);
        else if (offset === 0 && page.nextCursor === undefined) assert.equal(header, `${all.length} ${what}`);
        else assert.equal(header, `${offset + 1}-${offset + page.items.length} of ${all.length} ${what}`);
        assert.deepEqual(lines, page.nextCursor ? [`more: cursor=${page.nextCursor}`] : []);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the range on a first page that is not the last', () => {
    assert.equal(pageHeader(paginate([1, 2, 3], undefined, 2), 'tags'), '1-2 of 3 tags');
    assert.equal(pageHeader(paginate([1, 2, 3], encodeCursor(2), 2), 'tags'), '3-3 of 3 tags');
    assert.equal(pageHeader(paginate([1, 2, 3], encodeCursor(3), 2), 'tags'), '3 tags; this page is past the end');
  });
});

describe('listing lines and items', () => {
  const pet = (over: Partial<Parameters<typeof endpoint>[2]> = {}) => endpoint('pets', 'default', { method: 'GET', path: '/pets', ...over });

  it('shows the source summary on one line, cut to 120 characters', () => {
    assert.equal(shortSummary(pet({ summary: '  List\n the   pets ' })), 'List the pets');
    const long = `${'word '.repeat(40)}end`;
    const cut = shortSummary(pet({ summary: long }))!;
    assert.ok(cut.length <= 120 && cut.endsWith('…'), cut);
    assert.equal(shortSummary(pet({ summary: 'x'.repeat(120) })), 'x'.repeat(120));
  });

  it("falls back to the description's first sentence (90 characters) when the summary is missing or blank", () => {
    assert.equal(shortSummary(pet({ summary: '   ', description: 'Lists pets. Then more.' })), 'Lists pets.');
    assert.equal(shortSummary(pet({ description: 'Lists pets. Then more.' })), 'Lists pets.');
    assert.equal(shortSummary(pet({ summary: '', description: 'Lists pets. Then more.' })), 'Lists pets.');
    assert.equal(shortSummary(pet({ description: `${'y'.repeat(95)}.` })), `${'y'.repeat(89)}…`);
    assert.equal(shortSummary(pet()), undefined);
  });

  it('writes `id - summary [deprecated]`, leaving out what is missing', () => {
    assert.equal(listingLine(pet({ summary: 'List pets' })), 'pets:GET:/pets - List pets');
    assert.equal(listingLine(pet()), 'pets:GET:/pets');
    assert.equal(listingLine(pet({ deprecated: true })), 'pets:GET:/pets [deprecated]');
    assert.equal(listingLine(pet({ summary: 'Old', deprecated: true })), 'pets:GET:/pets - Old [deprecated]');
  });

  it('keeps a forged line break in a path on the line of its id', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), fc.constantFrom('\n', '\r', '\u2028', '\r\n', '\u001b[2J'), fc.string({ maxLength: 20 }), (a, brk, b) => {
        const line = listingLine(endpoint('pets', 'default', { method: 'GET', path: `/${a}${brk}${b}` }));
        assert.equal(line.split(/\r\n|[\n\r\u2028\u2029\u0085\u000b\u000c]/).length, 1, JSON.stringify(line));
      }),
    );
  });

  it('gives the structured item with the agreed fields, summary only when there is one', () => {
    const e = pet({ summary: 'List pets', tags: ['pets', 'animals'] });
    const item = endpointItemOf(e);
    assert.deepEqual(item, { id: 'pets:GET:/pets', method: 'GET', path: '/pets', summary: 'List pets', spec: 'pets', tags: ['pets', 'animals'], deprecated: false });
    assert.notEqual(item.tags, e.tags, 'a copy of the tags');
    const bare = endpointItemOf(pet({ deprecated: true }));
    assert.ok(!('summary' in bare));
    assert.equal(bare.deprecated, true);
    assert.ok(z.object(listingOutputShape).safeParse({ endpoints: [item, bare], total: 2 }).success);
  });
});

describe('endpointPage', () => {
  const all = Array.from({ length: 7 }, (_, i) => endpoint('pets', 'default', { method: 'GET', path: `/p${i}`, ...(i % 2 ? { summary: `Sum ${i}` } : {}), deprecated: i === 3 }));

  it('writes the header with its title, one line per endpoint, and the next line; structured alike', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.nat({ max: 8 }), (limit, at) => {
        const page = paginate(all, at === 0 ? undefined : encodeCursor(at), limit);
        const result = endpointPage(page, 'in spec pets');
        const shown = all.slice(at, at + limit);
        assert.deepEqual(result.text.split('\n'), [`${pageHeader(page, 'endpoints')} in spec pets`, ...shown.map(listingLine), ...nextLine(page)]);
        assert.deepEqual(result.structured, { endpoints: shown.map(endpointItemOf), total: 7, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
        assert.ok(z.object(listingOutputShape).safeParse(result.structured).success);
      }),
    );
  });

  it('adds no space for an empty title and keeps a title with a line break on the header line', () => {
    assert.equal(endpointPage(paginate(all.slice(0, 1), undefined, 5), '').text.split('\n')[0], '1 endpoints');
    assert.equal(endpointPage(paginate(all.slice(0, 1), undefined, 5), 'tagged a\nb').text.split('\n')[0], '1 endpoints tagged a b');
  });
});

describe('page arguments', () => {
  const shape = z.object(pageShape);
  const message = (input: unknown): string | undefined => {
    const r = shape.safeParse(input);
    return r.success ? undefined : r.error.issues.map((i) => i.message).join('; ');
  };

  it('takes a limit from 1 to 200 and any cursor text, both optional', () => {
    assert.equal(MAX_LIMIT, 200);
    for (const ok of [{}, { limit: 1 }, { limit: 200 }, { cursor: 'x', limit: 37 }]) assert.equal(message(ok), undefined, JSON.stringify(ok));
  });

  it('says what is wrong with a limit', () => {
    assert.equal(message({ limit: 0 }), 'limit must be at least 1');
    assert.equal(message({ limit: 201 }), 'limit must be at most 200');
    assert.equal(message({ limit: 1.5 }), 'limit must be a whole number');
    assert.equal(message({ limit: '5' }), 'limit must be a number');
  });

  it('describes both for the model', () => {
    assert.equal(pageShape.cursor.description, 'nextCursor from the last page');
    assert.equal(pageShape.limit.description, 'default 50');
  });
});
