// endpoint_by_id: a few lines about one endpoint, cheaper than inspect.
import { defineTool, readOnly } from './define.ts';
import { shortSummary } from './listing.ts';
import { endpointIdShape, findEndpoint } from './lookup.ts';

export const ENDPOINT_BY_ID = 'endpoint_by_id';

export const endpointById = defineTool({
  name: ENDPOINT_BY_ID,
  description: 'Quick summary of one endpoint: method, path, summary, spec, tags, parameter names. Use inspect for types and body fields.',
  inputShape: { endpointId: endpointIdShape },
  annotations: readOnly('Endpoint summary'),
  async handler({ endpointId }, ctx) {
    const { endpoint: e } = findEndpoint(ctx, endpointId);
    const summary = shortSummary(e);
    const lines = [`${e.method} ${e.path}`, `id: ${e.id}`];
    if (e.deprecated) lines.push('deprecated: yes');
    if (summary) lines.push(`summary: ${summary}`);
    lines.push(`spec: ${e.spec} (collection ${e.collection})`);
    if (e.tags.length) lines.push(`tags: ${e.tags.join(', ')}`);
    lines.push(`parameters: ${e.parameters.length ? e.parameters.map((p) => `${p.name}${p.required ? '*' : ''}`).join(', ') : 'none'}`);
    if (e.requestBody) lines.push(`body: ${e.requestBody.contents.map((c) => c.mediaType).join(', ') || 'yes'}${e.requestBody.required ? ' (required)' : ''}`);
    if (e.parameters.some((p) => p.required)) lines.push('(* required)');
    return { text: lines.join('\n') };
  },
});
