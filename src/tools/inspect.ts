// inspect: everything needed to call one endpoint, compact.
import { z } from 'zod';
import { svcFilledParameters } from '../invoke/credentials.ts';
import { specSettings } from '../invoke/settings.ts';
import { defineTool, readOnly } from './define.ts';
import { renderInspect } from './inspect-text.ts';
import { MAX_FIELD_DEPTH } from './schema-text.ts';
import { endpointIdShape, findEndpoint } from './lookup.ts';

export const INSPECT = 'inspect';

export const inspect = defineTool({
  name: INSPECT,
  description: 'Full details of one endpoint before you invoke it: parameters, body and response fields (depth: nesting).',
  inputShape: {
    endpointId: endpointIdShape,
    depth: z
      .number({ error: 'depth must be a number' })
      .int({ error: 'depth must be a whole number' })
      .min(1, { error: 'depth must be at least 1' })
      .max(MAX_FIELD_DEPTH, { error: `depth must be at most ${MAX_FIELD_DEPTH}` })
      .optional(),
  },
  annotations: readOnly('Inspect endpoint'),
  readsDetail: true,
  async handler({ endpointId, depth }, ctx) {
    const { endpoint, spec } = findEndpoint(ctx, endpointId);
    const settings = specSettings(ctx.config, spec.name);
    const filled = svcFilledParameters(endpoint, settings.spec, settings.key);
    return { text: renderInspect(endpoint, spec, { ...(depth !== undefined ? { depth } : {}), ...(filled.size > 0 ? { filled } : {}) }) };
  },
});
