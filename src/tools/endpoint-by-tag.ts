// endpoint_by_tag: browse by the spec's own tags (GitHub: issues, repos, actions ...).
import { z } from 'zod';
import { safeLine } from '../model/safe-text.ts';
import { defineTool, readOnly } from './define.ts';
import { endpointPage, listingOutputShape, nextLine, pageHeader, pageShape, paginate } from './listing.ts';
import { requireSpec, requireTag } from './lookup.ts';

export const ENDPOINT_BY_TAG = 'endpoint_by_tag';

export const endpointByTag = defineTool({
  name: ENDPOINT_BY_TAG,
  description: "List the endpoints with one of the specs' tags. Without tag: the tags with counts (narrow with spec).",
  inputShape: { tag: z.string().optional(), spec: z.string().optional(), ...pageShape },
  outputShape: listingOutputShape,
  annotations: readOnly('Endpoints by tag'),
  async handler({ tag, spec, cursor, limit }, ctx) {
    const within = spec === undefined || spec === '' ? undefined : spec;
    if (within !== undefined) requireSpec(ctx, within);
    const scope = within ? ` in spec ${within}` : '';
    if (tag === undefined || tag === '') {
      const page = paginate(ctx.catalog.tags(within), cursor, limit);
      const lines = [
        `${pageHeader(page, 'tags')}${scope}; pass tag to list its endpoints`,
        ...page.items.map((t) => safeLine(`${t.tag}: ${t.endpoints}`)),
        ...nextLine(page),
      ];
      const tags = page.items.map((t) => ({ tag: t.tag, endpoints: t.endpoints }));
      return { text: lines.join('\n'), structured: { endpoints: [], total: page.total, tags, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) } };
    }
    requireTag(ctx, tag, within);
    const filter = within ? { tag, spec: within } : { tag };
    return endpointPage(paginate(ctx.catalog.list(filter), cursor, limit), `tagged ${tag}${scope}`);
  },
});
