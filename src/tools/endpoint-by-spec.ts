// endpoint_by_spec: browse one API description; without `spec`, the overview of all specs.
import { z } from 'zod';
import { defineTool, readOnly } from './define.ts';
import { endpointPage, listingOutputShape, nextLine, pageHeader, pageShape, paginate } from './listing.ts';
import { requireSpec } from './lookup.ts';
import { safeLine } from '../model/safe-text.ts';

export const ENDPOINT_BY_SPEC = 'endpoint_by_spec';

export const endpointBySpec = defineTool({
  name: ENDPOINT_BY_SPEC,
  description:
    'Endpoints of one API spec, in source order. Without spec: the specs with endpoint counts. Prefer search when you know the task.',
  inputShape: { spec: z.string().optional(), ...pageShape },
  outputShape: listingOutputShape,
  annotations: readOnly('Endpoints by spec'),
  async handler({ spec, cursor, limit }, ctx) {
    if (spec === undefined || spec === '') {
      const page = paginate(ctx.catalog.summaries(), cursor, limit);
      const lines = [
        `${pageHeader(page, 'specs')}; pass spec to list its endpoints`,
        ...page.items.map(
          (s) => safeLine(`${s.name}: ${s.endpoints} endpoints${s.deprecated ? ` (${s.deprecated} deprecated)` : ''}, collection ${s.collection}${s.title ? `, "${s.title}"` : ''}`),
        ),
        ...nextLine(page),
      ];
      const specs = page.items.map((s) => ({ name: s.name, collection: s.collection, endpoints: s.endpoints, ...(s.title ? { title: s.title } : {}) }));
      return { text: lines.join('\n'), structured: { endpoints: [], total: page.total, specs, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) } };
    }
    requireSpec(ctx, spec);
    return endpointPage(paginate(ctx.catalog.list({ spec }), cursor, limit), `in spec ${spec}`);
  },
});
