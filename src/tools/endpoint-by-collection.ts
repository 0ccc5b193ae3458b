// endpoint_by_collection: browse a group of specs (svc.yaml collections, or specs/ sub-folders).
import { z } from 'zod';
import { safeLine } from '../model/safe-text.ts';
import { defineTool, readOnly } from './define.ts';
import { endpointPage, listingOutputShape, nextLine, pageHeader, pageShape, paginate } from './listing.ts';
import { requireCollection } from './lookup.ts';

export const ENDPOINT_BY_COLLECTION = 'endpoint_by_collection';

export const endpointByCollection = defineTool({
  name: ENDPOINT_BY_COLLECTION,
  description:
    'List the endpoints of a collection (a group of specs). Without collection: the collections with their specs and counts.',
  inputShape: { collection: z.string().optional(), ...pageShape },
  outputShape: listingOutputShape,
  annotations: readOnly('Endpoints by collection'),
  async handler({ collection, cursor, limit }, ctx) {
    if (collection === undefined || collection === '') {
      const page = paginate(ctx.catalog.collections(), cursor, limit);
      const lines = [
        `${pageHeader(page, 'collections')}; pass collection to list its endpoints`,
        ...page.items.map((c) => safeLine(`${c.name}: ${c.endpoints} endpoints; specs ${c.specs.map((s) => `${s.name} (${s.endpoints})`).join(', ')}`)),
        ...nextLine(page),
      ];
      const collections = page.items.map((c) => ({ name: c.name, endpoints: c.endpoints, specs: c.specs.map((s) => ({ name: s.name, endpoints: s.endpoints })) }));
      return {
        text: lines.join('\n'),
        structured: { endpoints: [], total: page.total, collections, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) },
      };
    }
    requireCollection(ctx, collection);
    return endpointPage(paginate(ctx.catalog.list({ collection }), cursor, limit), `in collection ${collection}`);
  },
});
