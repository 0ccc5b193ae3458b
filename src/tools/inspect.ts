// inspect: everything needed to call one endpoint, compact.
import { defineTool, readOnly } from './define.ts';
import { renderInspect } from './inspect-text.ts';
import { endpointIdShape, findEndpoint } from './lookup.ts';

export const INSPECT = 'inspect';

export const inspect = defineTool({
  name: INSPECT,
  description: 'Full details of one endpoint before you invoke it: description, parameters with types, body fields, responses.',
  inputShape: { endpointId: endpointIdShape },
  annotations: readOnly('Inspect endpoint'),
  async handler({ endpointId }, ctx) {
    const { endpoint, spec } = findEndpoint(ctx, endpointId);
    return { text: renderInspect(endpoint, spec) };
  },
});
