// Finding what the model named: endpoints by id, specs, collections and tags, with
// "did you mean" suggestions when the name is unknown.
import { z } from 'zod';
import { endpointId, parseEndpointId, type Endpoint, type ImportedSpec } from '../model/index.ts';
import { ToolInputError } from './errors.ts';
import { clip, closest } from './text.ts';
import type { ToolContext } from './types.ts';

export const ID_EXAMPLE = 'github:POST:/repos/{owner}/{repo}/issues';

export const endpointIdShape = z.string({ error: `endpointId must be a text like ${ID_EXAMPLE}` }).describe('spec:METHOD:/path, as listed');

export function findEndpoint(ctx: ToolContext, id: string): { endpoint: Endpoint; spec: ImportedSpec } {
  const wanted = id.trim();
  if (wanted === '') throw new ToolInputError('empty-endpoint-id', 'endpointId must not be empty', `ids look like ${ID_EXAMPLE}; use search or endpoint_by_spec to find one`);
  let endpoint = ctx.catalog.get(wanted);
  if (!endpoint) {
    // Forgive a lower-case method (`github:post:/x`): the id is otherwise exact.
    const parts = parseEndpointId(wanted);
    if (parts) endpoint = ctx.catalog.get(endpointId(parts.spec, parts.method, parts.path));
  }
  if (!endpoint) {
    const suggestions = ctx.catalog.suggest(wanted, 3);
    const hint = suggestions.length
      ? `closest ids: ${suggestions.join(', ')}`
      : `ids look like ${ID_EXAMPLE}; use search or endpoint_by_spec to find one`;
    throw new ToolInputError('unknown-endpoint', `unknown endpoint id "${clip(wanted, 200)}"`, hint);
  }
  const spec = ctx.catalog.spec(endpoint.spec);
  // Stryker disable next-line all: unreachable: get and spec read the same loaded set in one turn, so a found endpoint's spec is there
  if (!spec) throw new ToolInputError('unknown-endpoint', `endpoint "${wanted}" belongs to spec "${endpoint.spec}", which is no longer loaded`);
  return { endpoint, spec };
}

/**
 * The tool that lists the names of each kind when called without that argument. The hint names it
 * whichever tool was called: `search` without `spec` does not list the specs, `endpoint_by_spec` does.
 */
const LISTED_BY = { spec: 'endpoint_by_spec', collection: 'endpoint_by_collection', tag: 'endpoint_by_tag' } as const;

function unknownName(kind: keyof typeof LISTED_BY, code: string, wanted: string, known: readonly string[]): ToolInputError {
  const near = closest(wanted, known);
  const lister = LISTED_BY[kind];
  const hint = near.length
    ? `did you mean ${near.map((n) => `"${n}"`).join(', ')}? Call ${lister} without ${kind} to list them all`
    : known.length
      ? `call ${lister} without ${kind} to list the ${kind}s`
      : 'no specs are loaded; check svc.yaml and the server log';
  return new ToolInputError(code, `unknown ${kind} "${clip(wanted, 100)}"`, hint);
}

export function requireSpec(ctx: ToolContext, name: string): void {
  if (!ctx.catalog.spec(name)) throw unknownName('spec', 'unknown-spec', name, ctx.catalog.specs().map((s) => s.name));
}

export function requireCollection(ctx: ToolContext, name: string): void {
  const names = ctx.catalog.collections().map((c) => c.name);
  if (!names.includes(name)) throw unknownName('collection', 'unknown-collection', name, names);
}

export function requireTag(ctx: ToolContext, tag: string, spec: string | undefined): void {
  const tags = ctx.catalog.tags(spec).map((t) => t.tag);
  if (!tags.includes(tag)) throw unknownName('tag', 'unknown-tag', tag, tags);
}
