// invoke: the one tool that reaches outside. The request logic lives in src/invoke; this file
// only fixes the input schema the model sees and hands the call over.
import { z } from 'zod';
import { defineTool } from './define.ts';
import { endpointIdShape, findEndpoint } from './lookup.ts';

export const INVOKE = 'invoke';

export const invoke = defineTool({
  name: INVOKE,
  description:
    'Call an endpoint over HTTP; inspect it first. params: values by parameter name (query.name when two share a name). ' +
    'body: the request body (JSON value, or field values for form bodies); contentType picks one of the media types inspect lists. ' +
    'svc.yaml may refuse writes or ask the person to confirm.',
  inputShape: {
    endpointId: endpointIdShape,
    params: z.record(z.string(), z.unknown(), { error: 'params must be an object of values by parameter name' }).optional(),
    body: z.unknown().optional(),
    contentType: z.string().optional(),
  },
  annotations: { title: 'Invoke endpoint', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  readsDetail: true,
  async handler({ endpointId, params, body, contentType }, ctx) {
    const { endpoint, spec } = findEndpoint(ctx, endpointId);
    const args = {
      ...(params !== undefined ? { params } : {}),
      ...(body !== undefined ? { body } : {}),
      ...(contentType !== undefined ? { contentType } : {}),
    };
    return ctx.invoker.invoke(endpoint, spec, args, {
      ...(ctx.confirm ? { confirm: ctx.confirm } : {}),
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
  },
});
