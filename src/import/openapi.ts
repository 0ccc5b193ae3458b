// OpenAPI 3.0 / 3.1 -> endpoints. Schemas stay as links into the parsed document.
import { PARAM_LOCATIONS, type BodyContent, type Endpoint, type Parameter, type ParamLocation, type RequestBody, type Response, type SchemaLink, type SpecFormat } from '../model/endpoint.ts';
import type { SecurityScheme } from '../model/spec.ts';
import type { FormatContext, FormatResult } from './format.ts';
import type { DocumentSet } from './documents.ts';
import { EndpointIds } from './ids.ts';
import { joinPointer } from './pointer.ts';
import {
  builtOncePerNode, EMPTY, isObj, optionalString, responseLabel, stringArray, toSecurity, toSecurityScheme, toServers, typeLabel, walkOperations,
  type Located, type Obj, type OperationSite,
} from './common.ts';

const LOCATIONS = new Set<string>(PARAM_LOCATIONS);

export async function importOpenApi(docs: DocumentSet, format: SpecFormat, ctx: FormatContext): Promise<FormatResult> {
  const root = docs.doc(docs.root) as Obj;
  const info = isObj(root.info) ? root.info : {};
  const docServers = toServers(root.servers) ?? [];
  const docSecurity = toSecurity(root.security);
  const ids = new EndpointIds();
  const endpoints: Endpoint[] = [];

  const skipped = await walkOperations(docs, ['paths'], ctx, (site) => {
    endpoints.push(buildEndpoint(docs, site, ctx, ids, docServers, docSecurity));
  });

  const webhooks = isObj(root.webhooks) ? Object.keys(root.webhooks).filter((k) => !k.startsWith('x-')).length : 0;
  return {
    endpoints,
    skipped,
    webhooks,
    ...(info.title !== undefined ? { title: String(info.title) } : {}),
    ...(info.version !== undefined ? { version: String(info.version) } : {}),
    servers: docServers,
    securitySchemes: readSecuritySchemes(docs, root, ctx),
  };
}

function buildEndpoint(
  docs: DocumentSet,
  site: OperationSite,
  ctx: FormatContext,
  ids: EndpointIds,
  docServers: Endpoint['servers'],
  docSecurity: Endpoint['security'],
): Endpoint {
  const { op, item, path, method } = site;
  const o = op.node;
  const parameters: Parameter[] = [];
  for (const p of site.params) {
    const param = toParameter(docs, p, ctx);
    if (param) parameters.push(param);
  }
  const requestBody = o.requestBody === undefined ? undefined : toRequestBody(docs, o.requestBody, op, ctx);
  const summary = optionalString(o.summary) ?? optionalString(item.node.summary);
  const description = optionalString(o.description) ?? optionalString(item.node.description);
  const security = o.security !== undefined ? toSecurity(o.security) : docSecurity;
  const endpoint: Endpoint = {
    id: ids.next(ctx.spec, method, path),
    spec: ctx.spec,
    collection: ctx.collection,
    method,
    path,
    ...(summary !== undefined ? { summary } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(typeof o.operationId === 'string' ? { operationId: o.operationId } : {}),
    tags: stringArray(o.tags),
    deprecated: o.deprecated === true,
    parameters,
    ...(requestBody ? { requestBody } : {}),
    responses: toResponses(docs, o.responses, op, ctx),
    servers: toServers(o.servers) ?? toServers(item.node.servers) ?? docServers,
    ...(security !== undefined ? { security } : {}),
    source: { file: op.file, pointer: op.pointer },
  };
  return endpoint;
}

/** One Parameter per source node, shared by the endpoints that use it (see builtOncePerNode). */
const toParameter = builtOncePerNode<Parameter>(buildParameter);

function buildParameter(docs: DocumentSet, p: Located<Obj>, ctx: FormatContext): Parameter | undefined {
  const n = p.node;
  const where = n.in as string;
  if (!LOCATIONS.has(where)) {
    ctx.warn({
      code: 'parameter-invalid',
      message: `parameter "${String(n.name)}" has in: "${where}", not one of ${PARAM_LOCATIONS.join(', ')}; ignored`,
      pointer: p.pointer,
      file: p.file,
      hint: where === 'body' || where === 'formData' ? 'OpenAPI 3 describes bodies with requestBody.' : undefined,
    });
    return undefined;
  }
  let schema: unknown = n.schema;
  let schemaAt = joinPointer(p.pointer, 'schema');
  if (schema === undefined && isObj(n.content)) {
    // Stryker disable next-line ArrayDeclaration: whatever stands in for no entry, its second item is not an object
    const [mediaType, first] = Object.entries(n.content)[0] ?? [];
    if (isObj(first)) {
      schema = first.schema;
      schemaAt = joinPointer(p.pointer, 'content', mediaType!, 'schema');
    }
  }
  const out: {
    name: string; in: ParamLocation; required: boolean; type: string; description?: string; deprecated?: boolean;
    schema?: SchemaLink; style?: string; explode?: boolean; example?: unknown;
  } = {
    name: n.name as string,
    in: where as ParamLocation,
    required: where === 'path' ? true : n.required === true,
    type: typeLabel(docs, schema, p.file),
  };
  if (typeof n.description === 'string') out.description = n.description;
  if (n.deprecated === true) out.deprecated = true;
  if (schema !== undefined) out.schema = { file: p.file, node: schema, pointer: schemaAt };
  if (typeof n.style === 'string') out.style = n.style;
  if (typeof n.explode === 'boolean') out.explode = n.explode;
  const example = n.example !== undefined ? n.example : isObj(schema) ? (schema.default ?? schema.example) : undefined;
  if (example !== undefined) out.example = example;
  return out;
}

function toRequestBody(docs: DocumentSet, raw: unknown, op: Located<Obj>, ctx: FormatContext): RequestBody | undefined {
  const pointer = joinPointer(op.pointer, 'requestBody');
  const body = docs.deref(raw, op.file, pointer);
  if (!body.ok) {
    ctx.warn({ code: body.code, message: `request body: ${body.message}`, pointer, file: op.file, ...(body.hint ? { hint: body.hint } : {}) });
    return undefined;
  }
  if (!isObj(body.node)) {
    ctx.warn({ code: 'request-body-invalid', message: 'requestBody is not an object; ignored', pointer, file: op.file });
    return undefined;
  }
  const b = body.node;
  const contents: BodyContent[] = [];
  if (isObj(b.content)) {
    for (const [mediaType, media] of Object.entries(b.content)) {
      const c: { mediaType: string; schema?: SchemaLink; encoding?: Record<string, unknown> } = { mediaType };
      if (isObj(media)) {
        if (media.schema !== undefined) c.schema = { file: body.file, node: media.schema, pointer: joinPointer(body.pointer, 'content', mediaType, 'schema') };
        if (isObj(media.encoding)) c.encoding = media.encoding;
      }
      contents.push(c);
    }
  }
  return {
    required: b.required === true,
    ...(typeof b.description === 'string' ? { description: b.description } : {}),
    contents,
  };
}

function toResponses(docs: DocumentSet, raw: unknown, op: Located<Obj>, ctx: FormatContext): readonly Response[] {
  if (!isObj(raw)) return EMPTY;
  const out: Response[] = [];
  for (const status of Object.keys(raw)) {
    if (status.startsWith('x-')) continue;
    const pointer = joinPointer(op.pointer, 'responses', status);
    const r = docs.deref(raw[status], op.file, pointer);
    if (!r.ok) {
      ctx.warn({ code: r.code, message: `response ${status}: ${r.message}`, pointer, file: op.file, ...(r.hint ? { hint: r.hint } : {}) });
      out.push({ status, label: responseLabel(status, undefined) });
      continue;
    }
    const cached = responseCache.get(r.node as object);
    if (cached !== undefined && cached.status === status) {
      out.push(cached);
      continue;
    }
    const n = isObj(r.node) ? r.node : {};
    const response: { status: string; label: string; contentTypes?: string[]; schema?: SchemaLink } = {
      status,
      label: responseLabel(status, n.description),
    };
    if (isObj(n.content)) {
      const types = Object.keys(n.content);
      if (types.length > 0) {
        response.contentTypes = types;
        const preferred = types.find((t) => t.includes('json')) ?? types[0]!;
        const media = n.content[preferred];
        if (isObj(media) && media.schema !== undefined) response.schema = { file: r.file, node: media.schema, pointer: joinPointer(r.pointer, 'content', preferred, 'schema') };
      }
    }
    if (isObj(r.node)) responseCache.set(r.node, response);
    out.push(response);
  }
  return out;
}

/** Like parameters, responses from one source node (`$ref`ed components) are built once and shared. */
const responseCache = new WeakMap<object, Response>();

function readSecuritySchemes(docs: DocumentSet, root: Obj, ctx: FormatContext): Record<string, SecurityScheme> {
  const out: Record<string, SecurityScheme> = {};
  const components = isObj(root.components) ? root.components : undefined;
  const schemes = components && isObj(components.securitySchemes) ? components.securitySchemes : undefined;
  if (!schemes) return out;
  for (const [name, raw] of Object.entries(schemes)) {
    const pointer = joinPointer('/components/securitySchemes', name);
    const s = docs.deref(raw, docs.root, pointer);
    if (!s.ok || !isObj(s.node)) {
      ctx.warn({ code: s.ok ? 'security-scheme-invalid' : s.code, message: `security scheme ${name}: ${s.ok ? 'not an object' : s.message}; ignored`, pointer });
      continue;
    }
    out[name] = toSecurityScheme(s.node);
  }
  return out;
}
