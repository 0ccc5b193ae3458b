// One Postman request item -> one Endpoint, or a SkippedOperation with a warning that says why.
import { HTTP_METHODS, type Endpoint, type HttpMethod, type Parameter } from '../../model/endpoint.ts';
import type { SkippedOperation } from '../../model/diagnostic.ts';
import type { EndpointIds } from '../ids.ts';
import type { FormatContext } from '../format.ts';
import { authHeaderNames, authQueryNames, type AuthDecision, type SecuritySchemes } from './auth.ts';
import { readBody } from './body.ts';
import { readHeaders } from './headers.ts';
import { readResponses } from './responses.ts';
import type { Servers } from './servers.ts';
import { descriptionOf, isRecord, text } from './shapes.ts';
import { parameter, readUrl } from './url.ts';
import type { CollectionVariables } from './variables.ts';

export interface ImportState {
  readonly ctx: FormatContext;
  readonly variables: CollectionVariables;
  readonly schemes: SecuritySchemes;
  readonly servers: Servers;
  readonly ids: EndpointIds;
  readonly endpoints: Endpoint[];
  readonly skipped: SkippedOperation[];
}

export interface ItemPlace {
  /** JSON pointer of the item (`/item/3/item/0`). */
  readonly pointer: string;
  /** Folder path as a tag (`Users/Admin`), or undefined at the top level. */
  readonly tag: string | undefined;
  /** What the folders above say about auth (`inherit` when none of them says anything). */
  readonly auth: AuthDecision;
}

const METHODS: ReadonlySet<string> = new Set(HTTP_METHODS);

export function importRequest(item: Record<string, unknown>, place: ItemPlace, state: ImportState): void {
  const { ctx } = state;
  const requestPointer = `${place.pointer}/request`;
  const name = text(item['name']);
  // Built only when a warning needs it: most requests never warn.
  const who = (): string =>
    `request ${name !== undefined ? JSON.stringify(name) : requestPointer}${place.tag !== undefined ? ` in folder ${JSON.stringify(place.tag)}` : ''}`;

  // A request may be a bare URL string: Postman then sends GET.
  const rawRequest = item['request'];
  const request: Record<string, unknown> | undefined =
    typeof rawRequest === 'string' ? { url: rawRequest } : isRecord(rawRequest) ? rawRequest : undefined;
  const method = (text(request?.['method']) ?? 'GET').toUpperCase();

  const url = request ? readUrl(request['url'], state.variables) : undefined;
  if (!request || !url) {
    const reason = request ? 'no URL' : 'request is neither an object nor a URL';
    ctx.warn({
      code: 'postman-url-missing',
      message: `${who()} ${request ? 'has no URL' : 'is neither an object nor a URL'}; it is skipped`,
      pointer: requestPointer,
      hint: 'Give the request a URL in Postman and export the collection again.',
    });
    state.skipped.push({ method, path: '', reason, pointer: requestPointer });
    return;
  }
  if (url.strayBraces) {
    ctx.warn({
      code: 'postman-variable-nested',
      message: `${who()} has nested or unbalanced {{variables}} in its URL; they are kept as literal text`,
      pointer: `${requestPointer}/url`,
    });
  }
  if (!METHODS.has(method)) {
    const reason = `method ${method} is not one of ${HTTP_METHODS.join(', ')}`;
    ctx.warn({
      code: 'method-skipped',
      message: `${who()} uses method ${method}; svc serves only ${HTTP_METHODS.join(', ')}, so it is skipped`,
      pointer: requestPointer,
      hint: 'Change the method in the collection if the API really accepts a standard one.',
    });
    state.skipped.push({ method, path: url.path, reason, pointer: requestPointer });
    return;
  }

  const own = state.schemes.decide(request['auth'], (message) =>
    ctx.warn({ code: 'postman-auth-invalid', message: `${who()}: ${message}`, pointer: `${requestPointer}/auth` }),
  );
  let auth = own.kind === 'inherit' ? place.auth : own;

  const headers = readHeaders(request['header']);
  let contentType: string | undefined;
  // A hand-written `Authorization: Bearer ...` header on a request nobody set auth for still says
  // how the API authenticates; it becomes the scheme and, like auth-made headers, no parameter.
  if (auth.kind === 'inherit') {
    const written = headers.find((h) => !h.disabled && h.key.toLowerCase() === 'authorization' && h.value !== undefined);
    const inferred = written?.value !== undefined ? state.schemes.fromHeader(written.value) : undefined;
    if (inferred) auth = inferred;
  }
  const authHeaders = authHeaderNames(auth, state.schemes.schemes);
  const authQuery = authQueryNames(auth, state.schemes.schemes);

  const headerParameters: Parameter[] = [];
  const seenHeaders = new Set<string>();
  for (const h of headers) {
    const lower = h.key.toLowerCase();
    if (lower === 'content-type') {
      if (!h.disabled && contentType === undefined) contentType = h.value;
      continue;
    }
    if (authHeaders.has(lower) || seenHeaders.has(lower)) continue;
    seenHeaders.add(lower);
    headerParameters.push(parameter(h.key, 'header', !h.disabled, h.description, h.value));
  }

  const body = readBody(request['body'], ctx.file, contentType);
  if (body.kind === 'unknown-mode') {
    ctx.warn({
      code: 'postman-body-mode-unknown',
      message: `${who()} has a body of unknown mode ${JSON.stringify(body.mode)}; the endpoint is kept without a body`,
      pointer: `${requestPointer}/body`,
      hint: 'Known modes: raw, urlencoded, formdata, file, graphql.',
    });
  }

  const server = url.host
    ? state.servers.serverFor(url.host, (variable) =>
        ctx.warn({
          code: 'postman-variable-undefined',
          message: `${who()}: the URL uses {{${variable}}}, which the collection's variable list does not define; the server variable has no default`,
          pointer: `${requestPointer}/url`,
          hint: `Add "${variable}" to the collection variables, or set the API's base URL in svc.yaml.`,
        }),
      )
    : undefined;

  const summary = name !== undefined && name !== '' ? name : undefined;
  const description = descriptionOf(request['description']) ?? descriptionOf(item['description']);
  const parameters = [
    ...url.pathParameters,
    ...url.queryParameters.filter((p) => !authQuery.has(p.name)),
    ...headerParameters,
  ];
  const security = auth.kind === 'scheme' ? auth.requirement : auth.kind === 'none' ? [] : undefined;
  const endpoint: Endpoint = {
    id: state.ids.next(ctx.spec, method as HttpMethod, url.path),
    spec: ctx.spec,
    collection: ctx.collection,
    method: method as HttpMethod,
    path: url.path,
    ...(summary !== undefined ? { summary } : {}),
    ...(description !== undefined ? { description } : {}),
    tags: place.tag !== undefined ? [place.tag] : [],
    deprecated: false,
    parameters,
    ...(body.kind === 'body' ? { requestBody: body.body } : {}),
    responses: readResponses(item['response']),
    servers: server ? [server] : [],
    ...(security !== undefined ? { security } : {}),
    source: { file: ctx.file, pointer: place.pointer },
  };
  state.endpoints.push(endpoint);
}
