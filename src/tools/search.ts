// search: ranked full-text search over ids, paths, summaries, descriptions, tags and parameters.
import { z } from 'zod';
import { safeLine } from '../model/safe-text.ts';
import { HTTP_METHODS, type HttpMethod } from '../model/index.ts';
import { defineTool, readOnly } from './define.ts';
import { endpointItemOf, listingLine, listingOutputShape } from './listing.ts';
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
    'Find endpoints by what they do (e.g. "create issue"), best first. Start here; filters narrow the results.',
  inputShape: {
    query: z.string({ error: 'query must be a text, e.g. "create issue"' }).describe('keywords'),
    spec: z.string().optional(),
    collection: z.string().optional(),
    tag: z.string().optional(),
    // Any case (`get`, `Post`): the model writes methods both ways, and the filter is about the method, not its spelling.
    method: z
      .string({ error: METHOD_ERROR })
      .refine((m) => METHODS.has(m.toUpperCase()), { error: METHOD_ERROR })
      .optional(),
    limit: z
      .number({ error: 'limit must be a number' })
      .int({ error: 'limit must be a whole number' })
      .min(1, { error: 'limit must be at least 1' })
      .max(MAX_SEARCH_LIMIT, { error: `limit must be at most ${MAX_SEARCH_LIMIT}` })
      .optional()
      .describe(`default ${DEFAULT_SEARCH_LIMIT}`),
  },
  outputShape: listingOutputShape,
  annotations: readOnly('Search endpoints'),
  async handler({ query, spec, collection, tag, method, limit }, ctx) {
    if (!query.trim()) throw new ToolInputError('bad-query', 'query must not be empty', 'pass a few keywords, e.g. "create issue"');
    if (spec) requireSpec(ctx, spec);
    if (collection) requireCollection(ctx, collection);
    if (tag) requireTag(ctx, tag, spec || undefined);
    const filters = { ...(spec ? { spec } : {}), ...(collection ? { collection } : {}), ...(tag ? { tag } : {}), ...(method ? { method: method.toUpperCase() as HttpMethod } : {}) };
    const size = limit ?? DEFAULT_SEARCH_LIMIT;
    // One past the page tells whether more matches exist without ranking the whole catalogue twice.
    const hits = ctx.catalog.search(query, filters, size + 1);
    const shown = hits.slice(0, size).map((h) => h.endpoint);
    const more = hits.length > size;
    const head = shown.length
      ? `${shown.length} best matches for "${echo(query)}"${more ? `; more exist, narrow with filters or raise limit` : ''}`
      : `no endpoints match "${echo(query)}"; try other words or fewer filters`;
    return {
      text: [head, ...shown.map(listingLine)].join('\n'),
      structured: { endpoints: shown.map(endpointItemOf), total: shown.length },
    };
  },
});

/** The query as quoted back: a huge query must not come back whole (the LLM pays for every token). */
function echo(query: string): string {
  const line = safeLine(query);
  return line.length <= 80 ? line : `${line.slice(0, 77)}...`;
}
