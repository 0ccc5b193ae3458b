// search: ranked full-text search over ids, paths, summaries, descriptions, tags and parameters.
import { z } from 'zod';
import { safeLine } from '../model/safe-text.ts';
import { HTTP_METHODS, type HttpMethod } from '../model/index.ts';
import { defineTool, readOnly } from './define.ts';
import { MAX_QUERY_CHARS, MAX_SEARCH_DEPTH } from '../catalog/index.ts';
import { decodeCursor, encodeCursor, endpointItemOf, listingLine, listingOutputShape } from './listing.ts';
import { requireCollection, requireSpec, requireTag } from './lookup.ts';
import { ToolInputError } from './errors.ts';

export const SEARCH = 'search';
export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 100;
const METHODS: ReadonlySet<string> = new Set(HTTP_METHODS);
const METHOD_ERROR = `method must be one of ${HTTP_METHODS.join(', ')}`;

export const search = defineTool({
  name: SEARCH,
  description:
    'Find endpoints by what they do ("create issue"), best first. Start here.',
  inputShape: {
    query: z.string({ error: 'query must be a text, e.g. "create issue"' }).describe('keywords'),
    spec: z.string().optional(),
    collection: z.string().optional(),
    tag: z.string().optional(),
    // Any case (`get`, `Post`): the model writes methods both ways, and the filter is about the method, not its spelling.
    method: z
      .string({ error: METHOD_ERROR })
      .refine(
        (m) => METHODS.has(m.toUpperCase()),
        // Stryker disable next-line ObjectLiteral: z.string's own error message is its refinement's too
        { error: METHOD_ERROR },
      )
      .optional(),
    limit: z
      .number({ error: 'limit must be a number' })
      .int({ error: 'limit must be a whole number' })
      .min(1, { error: 'limit must be at least 1' })
      .max(MAX_SEARCH_LIMIT, { error: `limit must be at most ${MAX_SEARCH_LIMIT}` })
      .optional()
      .describe(`default ${DEFAULT_SEARCH_LIMIT}`),
    // Undescribed (every token of tools/list is paid for): a page's text says `more: cursor=...`.
    cursor: z.string().optional(),
  },
  outputShape: listingOutputShape,
  annotations: readOnly('Search endpoints'),
  async handler({ query, spec, collection, tag, method, limit, cursor }, ctx) {
    if (!query.trim()) throw new ToolInputError('bad-query', 'query must not be empty', 'pass a few keywords, e.g. "create issue"');
    if (query.length > MAX_QUERY_CHARS) {
      throw new ToolInputError('bad-query', `query must be at most ${MAX_QUERY_CHARS} characters`, 'a few keywords say what the endpoint does');
    }
    if (spec) requireSpec(ctx, spec);
    if (collection) requireCollection(ctx, collection);
    if (tag) requireTag(ctx, tag, spec || undefined);
    const filters = { ...(spec ? { spec } : {}), ...(collection ? { collection } : {}), ...(tag ? { tag } : {}), ...(method ? { method: method.toUpperCase() as HttpMethod } : {}) };
    const size = limit ?? DEFAULT_SEARCH_LIMIT;
    const offset = cursor === undefined || cursor === '' ? 0 : decodeCursor(cursor);
    if (offset + size > MAX_SEARCH_DEPTH) {
      throw new ToolInputError('search-too-deep', `search pages reach ${MAX_SEARCH_DEPTH} results deep`, 'add words or a spec, tag or method filter to narrow the search');
    }
    // The indexes it reads first are loaded ahead, leaving the thread free in between (at hub scale a
    // first search would otherwise load a dozen in one turn).
    await ctx.catalog.prepareSearch(query, filters);
    const { hits, total, moreThanTotal, readAs } = ctx.catalog.searchPage(query, filters, offset, size);
    const shown = hits.map((h) => h.endpoint);
    const end = offset + shown.length;
    const nextCursor = end < Math.min(total, MAX_SEARCH_DEPTH) && shown.length > 0 ? encodeCursor(end) : undefined;
    const count = moreThanTotal ? `more than ${total}` : `${total}`;
    // A corrected typo is said: the model learns the catalogue's word, and sees why the hits say it.
    const quoted = `"${echo(query)}"${readAs !== undefined ? ` (read as "${echo(readAs)}")` : ''}`;
    const head =
      total === 0
        ? `no endpoints match ${quoted}; try other words or fewer filters`
        : shown.length === 0
          ? `${count} matches for ${quoted}; this page is past the end`
          : `${offset === 0 && !nextCursor ? count : `${offset + 1}-${end} of ${count}`} matches for ${quoted}, best first`;
    const structured: Record<string, unknown> = { endpoints: shown.map(endpointItemOf), total };
    // Past the depth pages reach, the count stops there: `total` is that depth and more match.
    // Undeclared in the output schema (a loose object): every schema token is paid on every tools/list.
    if (moreThanTotal) structured['moreThanTotal'] = true;
    if (readAs !== undefined) structured['readAs'] = readAs;
    if (nextCursor) structured['nextCursor'] = nextCursor;
    return {
      text: [head, ...shown.map(listingLine), ...(nextCursor ? [`more: cursor=${nextCursor}`] : [])].join('\n'),
      structured,
    };
  },
});

/** The query as quoted back: a huge query must not come back whole (the LLM pays for every token). */
function echo(query: string): string {
  const line = safeLine(query);
  return line.length <= 80 ? line : `${line.slice(0, 77)}...`;
}
