// Listings: one compact line per endpoint, pages with an opaque cursor, and the structured
// form every listing tool declares as its output schema.
import { z } from 'zod';
import type { Endpoint } from '../model/index.ts';
import { safeLine } from '../model/safe-text.ts';
import { ToolInputError } from './errors.ts';
import { clip, firstSentence, oneLine } from './text.ts';
import type { ToolResult } from './types.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;

/** Input fields every paginated tool shares. */
export const pageShape = {
  cursor: z.string().optional().describe('nextCursor from the last page'),
  limit: z
    .number({ error: 'limit must be a number' })
    .int({ error: 'limit must be a whole number' })
    .min(1, { error: 'limit must be at least 1' })
    .max(MAX_LIMIT, { error: `limit must be at most ${MAX_LIMIT}` })
    .optional()
    .describe(`default ${DEFAULT_LIMIT}`),
};

const endpointItem = z.object({
  id: z.string(),
  method: z.string(),
  path: z.string(),
  summary: z.string().optional(),
  spec: z.string(),
  tags: z.array(z.string()),
  deprecated: z.boolean(),
});

/**
 * structuredContent of every listing and of search. The schema names only what every answer has;
 * overviews (a tool called without its name argument) add one group beside it: `specs`,
 * `collections` or `tags`, each item with its `endpoints` count.
 */
export const listingOutputShape = {
  endpoints: z.array(endpointItem),
  total: z.number(),
  nextCursor: z.string().optional(),
};

export type EndpointItem = z.infer<typeof endpointItem>;

/** What a listing line shows as the summary: the source summary, else the description's first sentence. */
export function shortSummary(e: Endpoint): string | undefined {
  if (e.summary && e.summary.trim()) return clip(oneLine(e.summary), 120);
  return firstSentence(e.description, 90);
}

/** `spec:METHOD:/path - Summary [deprecated]`: the id already names method and path. */
export function listingLine(e: Endpoint): string {
  const summary = shortSummary(e);
  // The id holds the spec's path key: a newline there must not start a forged listing line.
  return `${safeLine(e.id)}${summary ? ` - ${summary}` : ''}${e.deprecated ? ' [deprecated]' : ''}`;
}

export function endpointItemOf(e: Endpoint): EndpointItem {
  const item: EndpointItem = { id: e.id, method: e.method, path: e.path, spec: e.spec, tags: [...e.tags], deprecated: e.deprecated };
  const summary = shortSummary(e);
  if (summary !== undefined) item.summary = summary;
  return item;
}

// The cursor is opaque to the model: a base64url offset with a prefix, so a mangled or foreign
// cursor is recognised and refused with a clear message instead of silently restarting.
export function encodeCursor(offset: number): string {
  return Buffer.from(`svc1:${offset}`).toString('base64url');
}

export function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^svc1:(\d{1,9})$/.exec(text);
  if (!match) {
    throw new ToolInputError('bad-cursor', `cursor "${clip(cursor, 40)}" is not one this server gave out`, 'pass nextCursor from the previous page exactly, or leave cursor out to start at the first page');
  }
  return Number(match[1]);
}

export interface Page<T> {
  readonly items: readonly T[];
  readonly offset: number;
  readonly total: number;
  readonly nextCursor?: string;
}

export function paginate<T>(all: readonly T[], cursor: string | undefined, limit: number | undefined): Page<T> {
  const offset = cursor === undefined || cursor === '' ? 0 : decodeCursor(cursor);
  const size = limit ?? DEFAULT_LIMIT;
  const items = all.slice(offset, offset + size);
  const end = offset + items.length;
  return end < all.length ? { items, offset, total: all.length, nextCursor: encodeCursor(end) } : { items, offset, total: all.length };
}

/** `1-50 of 1223` style range, and the line that tells the model how to get the next page. */
export function pageHeader(page: Page<unknown>, noun: string): string {
  if (page.total === 0) return `0 ${noun}`;
  if (page.items.length === 0) return `${page.total} ${noun}; this page is past the end`;
  const range = page.offset === 0 && !page.nextCursor ? `${page.total}` : `${page.offset + 1}-${page.offset + page.items.length} of ${page.total}`;
  return `${range} ${noun}`;
}

export function nextLine(page: Page<unknown>): string[] {
  return page.nextCursor ? [`more: cursor=${page.nextCursor}`] : [];
}

/** A page of endpoints as text and structuredContent. */
export function endpointPage(page: Page<Endpoint>, title: string): ToolResult {
  const lines = [`${pageHeader(page, 'endpoints')}${title ? ` ${safeLine(title)}` : ''}`, ...page.items.map(listingLine), ...nextLine(page)];
  const structured: Record<string, unknown> = { endpoints: page.items.map(endpointItemOf), total: page.total };
  if (page.nextCursor) structured['nextCursor'] = page.nextCursor;
  return { text: lines.join('\n'), structured };
}
