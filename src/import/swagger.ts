// Swagger 2.0 -> endpoints: host/basePath/schemes (or x-ms-parameterized-host) become servers,
// `body` and `formData` parameters become the request body under `consumes`, `x-ms-paths` count as paths.
import type { BodyContent, Endpoint, Parameter, ParamLocation, RequestBody, Response, SchemaLink, Server, ServerVariable } from '../model/endpoint.ts';
import type { SecurityScheme } from '../model/spec.ts';
import type { FormatContext, FormatResult } from './format.ts';
import { refOf, type DocumentSet } from './documents.ts';
import { EndpointIds } from './ids.ts';
import { joinPointer } from './pointer.ts';
import {
  builtOncePerNode, EMPTY, isObj, optionalString, responseLabel, stringArray, toSecurity, toSecurityScheme, typeLabel, walkOperations,
  type Located, type Obj, type OperationSite,
} from './common.ts';

const SIMPLE_LOCATIONS: Readonly<Record<string, ParamLocation>> = { path: 'path', query: 'query', header: 'header' };
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];
const DEFAULT_MEDIA = ['application/json'] as const;

export async function importSwagger(docs: DocumentSet, ctx: FormatContext): Promise<FormatResult> {
  const root = docs.doc(docs.root) as Obj;
  const info = isObj(root.info) ? root.info : {};
  const servers = swaggerServers(docs, root, ctx);
  const docSecurity = toSecurity(root.security);
  const rootConsumes = Array.isArray(root.consumes) ? stringArray(root.consumes) : DEFAULT_MEDIA;
  const rootProduces = Array.isArray(root.produces) ? stringArray(root.produces) : DEFAULT_MEDIA;
  const ids = new EndpointIds();
  const endpoints: Endpoint[] = [];

  const skipped = await walkOperations(docs, ['paths', 'x-ms-paths'], ctx, (site) => {
    endpoints.push(buildEndpoint(docs, site, ctx, ids, { servers, docSecurity, rootConsumes, rootProduces }));
  });

  const securitySchemes: Record<string, SecurityScheme> = {};
  if (isObj(root.securityDefinitions)) {
    for (const [name, s] of Object.entries(root.securityDefinitions)) {
      if (isObj(s)) securitySchemes[name] = toSecurityScheme(s);
      else ctx.warn({ code: 'security-scheme-invalid', message: `security definition ${name} is not an object; ignored`, pointer: joinPointer('/securityDefinitions', name) });
    }
  }
  return {
    endpoints,
    skipped,
    webhooks: 0,
    ...(info.title !== undefined ? { title: String(info.title) } : {}),
    ...(info.version !== undefined ? { version: String(info.version) } : {}),
    servers,
    securitySchemes,
  };
}

interface Shared {
  readonly servers: readonly Server[];
  readonly docSecurity: Endpoint['security'];
  readonly rootConsumes: readonly string[];
  readonly rootProduces: readonly string[];
}

function buildEndpoint(docs: DocumentSet, site: OperationSite, ctx: FormatContext, ids: EndpointIds, shared: Shared): Endpoint {
  const { op, path, method } = site;
  const o = op.node;
  const consumes = Array.isArray(o.consumes) ? stringArray(o.consumes) : shared.rootConsumes;
  const produces = Array.isArray(o.produces) ? stringArray(o.produces) : shared.rootProduces;
  const parameters: Parameter[] = [];
  let body: Located<Obj> | undefined;
  const form: Located<Obj>[] = [];
  for (const p of site.params) {
    const where = p.node.in as string;
    if (where === 'body') body = p;
    else if (where === 'formData') form.push(p);
    else {
      const param = toParameter(docs, p, ctx);
      if (param) parameters.push(param);
    }
  }
  const requestBody = body ? bodyFromParam(body, consumes) : form.length > 0 ? bodyFromForm(form, consumes) : undefined;
  const summary = optionalString(o.summary);
  const description = optionalString(o.description);
  const security = o.security !== undefined ? toSecurity(o.security) : shared.docSecurity;
  // Built field by field (same key order as before): conditional spreads allocate a temporary
  // object per optional field, for every endpoint.
  const endpoint: Mutable<Endpoint> = { id: ids.next(ctx.spec, method, path), spec: ctx.spec, collection: ctx.collection, method, path };
  if (summary !== undefined) endpoint.summary = summary;
  if (description !== undefined) endpoint.description = description;
  if (typeof o.operationId === 'string') endpoint.operationId = o.operationId;
  endpoint.tags = stringArray(o.tags);
  endpoint.deprecated = o.deprecated === true;
  endpoint.parameters = parameters;
  if (requestBody) endpoint.requestBody = requestBody;
  endpoint.responses = toResponses(docs, o.responses, op, produces, ctx);
  endpoint.servers = shared.servers;
  if (security !== undefined) endpoint.security = security;
  endpoint.source = { file: op.file, pointer: op.pointer };
  return endpoint as Endpoint;
}

type Mutable<T> = { -readonly [K in keyof T]?: T[K] };

/** One Parameter per source node, shared by the endpoints that use it (see builtOncePerNode). */
const toParameter = builtOncePerNode<Parameter>(buildParameter);

function buildParameter(docs: DocumentSet, p: Located<Obj>, ctx: FormatContext): Parameter | undefined {
  const n = p.node;
  const where = SIMPLE_LOCATIONS[n.in as string];
  if (where === undefined) {
    ctx.warn({
      code: 'parameter-invalid',
      message: `parameter "${String(n.name)}" has in: "${String(n.in)}", not one of path, query, header, body, formData; ignored`,
      pointer: p.pointer,
      file: p.file,
    });
    return undefined;
  }
  const out: {
    name: string; in: ParamLocation; required: boolean; type: string; description?: string;
    schema?: SchemaLink; style?: string; explode?: boolean; example?: unknown;
  } = {
    name: n.name as string,
    in: where,
    required: where === 'path' ? true : n.required === true,
    type: typeLabel(docs, n, p.file),
    // A 2.0 non-body parameter is its own schema (type, format, items, enum, default).
    schema: { file: p.file, node: n, pointer: p.pointer },
  };
  if (typeof n.description === 'string') out.description = n.description;
  const style = collectionStyle(n.collectionFormat, where);
  if (style) {
    out.style = style.style;
    out.explode = style.explode;
  }
  const example = n['x-example'] !== undefined ? n['x-example'] : n.default;
  if (example !== undefined) out.example = example;
  return out;
}

/** Swagger 2.0 `collectionFormat` as the OpenAPI 3 style/explode pair it means. */
function collectionStyle(format: unknown, where: ParamLocation): { style: string; explode: boolean } | undefined {
  switch (format) {
    case 'csv':
      return { style: where === 'query' ? 'form' : 'simple', explode: false };
    case 'multi':
      return { style: 'form', explode: true };
    case 'ssv':
      return { style: 'spaceDelimited', explode: false };
    case 'pipes':
      return { style: 'pipeDelimited', explode: false };
    default:
      return undefined;
  }
}

function bodyFromParam(p: Located<Obj>, consumes: readonly string[]): RequestBody {
  const types = consumes.length > 0 ? consumes : DEFAULT_MEDIA;
  const schema = p.node.schema;
  const link: SchemaLink | undefined = schema !== undefined ? { file: p.file, node: schema, pointer: joinPointer(p.pointer, 'schema') } : undefined;
  const contents: BodyContent[] = types.map((mediaType) => (link ? { mediaType, schema: link } : { mediaType }));
  return {
    required: p.node.required === true,
    ...(typeof p.node.description === 'string' ? { description: p.node.description } : {}),
    contents,
  };
}

function bodyFromForm(params: readonly Located<Obj>[], consumes: readonly string[]): RequestBody {
  let types = consumes.filter((t) => FORM_TYPES.some((f) => t.startsWith(f)));
  if (types.length === 0) types = [params.some((p) => p.node.type === 'file') ? 'multipart/form-data' : 'application/x-www-form-urlencoded'];
  // The form fields as one object schema: the only place their names and types live in 2.0.
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const p of params) {
    const { name, in: _in, required: isRequired, ...schema } = p.node;
    properties[name as string] = schema;
    if (isRequired === true) required.push(name as string);
  }
  const schema = { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
  const file = params[0]!.file;
  return {
    required: required.length > 0,
    contents: types.map((mediaType) => ({ mediaType, schema: { file, node: schema } })),
  };
}

function toResponses(docs: DocumentSet, raw: unknown, op: Located<Obj>, produces: readonly string[], ctx: FormatContext): readonly Response[] {
  if (!isObj(raw)) return EMPTY;
  const out: Response[] = [];
  for (const status of Object.keys(raw)) {
    if (status.startsWith('x-')) continue;
    const value = raw[status];
    // The pointer only matters for warnings: built when the response is a $ref (which may fail).
    const pointer = refOf(value) === undefined ? '' : joinPointer(op.pointer, 'responses', status);
    const r = docs.deref(value, op.file, pointer);
    if (!r.ok) {
      ctx.warn({ code: r.code, message: `response ${status}: ${r.message}`, pointer, file: op.file, ...(r.hint ? { hint: r.hint } : {}) });
      out.push({ status, label: responseLabel(status, undefined) });
      continue;
    }
    const n = isObj(r.node) ? r.node : {};
    const label = responseLabel(status, n.description);
    if (n.schema === undefined) out.push({ status, label });
    else {
      // Where the schema sits: under the $ref's target, or under this response as written.
      const at = joinPointer(refOf(value) === undefined ? joinPointer(op.pointer, 'responses', status) : r.pointer, 'schema');
      out.push({ status, label, contentTypes: produces.length > 0 ? produces : DEFAULT_MEDIA, schema: { file: r.file, node: n.schema, pointer: at } });
    }
  }
  return out;
}

function swaggerServers(docs: DocumentSet, root: Obj, ctx: FormatContext): Server[] {
  const basePath = typeof root.basePath === 'string' ? root.basePath.replace(/\/+$/, '') : '';
  const schemes = stringArray(root.schemes);
  const msHost = root['x-ms-parameterized-host'];
  if (isObj(msHost) && typeof msHost.hostTemplate === 'string') {
    const prefix = msHost.useSchemePrefix === false ? '' : `${schemes[0] ?? 'https'}://`;
    const variables: Record<string, ServerVariable> = {};
    const params = Array.isArray(msHost.parameters) ? msHost.parameters : [];
    params.forEach((raw, i) => {
      const pointer = joinPointer('/x-ms-parameterized-host/parameters', i);
      const p = docs.deref(raw, docs.root, pointer);
      if (!p.ok || !isObj(p.node) || typeof p.node.name !== 'string') {
        ctx.warn({ code: p.ok ? 'parameter-invalid' : p.code, message: `x-ms-parameterized-host parameter ${p.ok ? 'has no name' : p.message}; ignored`, pointer });
        return;
      }
      const v: { default: string; enum?: string[]; description?: string } = { default: p.node.default === undefined ? '' : String(p.node.default) };
      if (Array.isArray(p.node.enum)) v.enum = p.node.enum.map(String);
      if (typeof p.node.description === 'string') v.description = p.node.description;
      variables[p.node.name] = v;
    });
    const url = prefix + msHost.hostTemplate + basePath;
    return [Object.keys(variables).length > 0 ? { url, variables } : { url }];
  }
  if (typeof root.host === 'string' && root.host !== '') {
    const list = schemes.length > 0 ? schemes : ['https'];
    return list.map((s) => ({ url: `${s}://${root.host as string}${basePath}` }));
  }
  // No host: the API is served from the spec's own host; only the base path is known.
  return [{ url: basePath === '' ? '/' : basePath }];
}
