// The endpoint model: what every importer produces and everything downstream reads.
// This module imports nothing, so any part of svc may depend on it.

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

export const PARAM_LOCATIONS = ['path', 'query', 'header', 'cookie'] as const;
export type ParamLocation = (typeof PARAM_LOCATIONS)[number];

export type SpecFormat = 'openapi-3.0' | 'openapi-3.1' | 'swagger-2.0' | 'postman-2.0' | 'postman-2.1';

/**
 * A schema as it stands in the source, not dereferenced: `node` may hold `$ref`s,
 * which resolve against `file` (the absolute path of the document it was read from).
 * Resolution happens only when someone asks (inspect, invoke validation).
 */
export interface SchemaLink {
  readonly file: string;
  readonly node: unknown;
  /**
   * Where `node` sits in `file` (a JSON pointer), when the importer read it from there; absent for
   * a node the importer made. A snapshot names the node by it, so it need not search the document.
   */
  readonly pointer?: string;
}

export interface Parameter {
  readonly name: string;
  readonly in: ParamLocation;
  readonly required: boolean;
  /** Compact type label for people and LLMs: `string`, `integer`, `string[]`, `object`, `string|null`. */
  readonly type: string;
  readonly description?: string;
  readonly deprecated?: boolean;
  readonly schema?: SchemaLink;
  /** OpenAPI serialization; absent means the location's default. */
  readonly style?: string;
  readonly explode?: boolean;
  /** Default value known from the source (Postman variables, schema `default`). */
  readonly example?: unknown;
}

export interface BodyContent {
  readonly mediaType: string;
  readonly schema?: SchemaLink;
  /** OpenAPI `encoding` map (per-property style/explode/contentType), kept raw. */
  readonly encoding?: Readonly<Record<string, unknown>>;
}

export interface RequestBody {
  readonly required: boolean;
  readonly description?: string;
  readonly contents: readonly BodyContent[];
}

export interface Response {
  /** `200`, `4XX`, `default` ... as written in the source. */
  readonly status: string;
  /** A short label: the response description's first line, or the schema's name. */
  readonly label: string;
  readonly contentTypes?: readonly string[];
  readonly schema?: SchemaLink;
}

export interface ServerVariable {
  readonly default: string;
  readonly enum?: readonly string[];
  readonly description?: string;
}

export interface Server {
  readonly url: string;
  readonly description?: string;
  readonly variables?: Readonly<Record<string, ServerVariable>>;
}

/** One alternative of an OpenAPI security requirement: scheme name -> scopes. */
export type SecurityRequirement = Readonly<Record<string, readonly string[]>>;

/** Where an endpoint (or a diagnostic) comes from: a file and a JSON pointer inside it. */
export interface SourceLocation {
  readonly file: string;
  readonly pointer: string;
  readonly line?: number;
}

export interface Endpoint {
  /** Unique across the catalogue, stable while spec name, method and path stay: see `endpointId`. */
  readonly id: string;
  readonly spec: string;
  readonly collection: string;
  readonly method: HttpMethod;
  /** Path template with `{name}` placeholders, as written in the source. */
  readonly path: string;
  /** Carried over from the source unchanged. */
  readonly summary?: string;
  /** Carried over from the source unchanged. */
  readonly description?: string;
  readonly operationId?: string;
  readonly tags: readonly string[];
  readonly deprecated: boolean;
  readonly parameters: readonly Parameter[];
  readonly requestBody?: RequestBody;
  readonly responses: readonly Response[];
  /** Effective servers (operation, then path item, then document). */
  readonly servers: readonly Server[];
  /** Effective security (operation, else document); `undefined` when the source says nothing. */
  readonly security?: readonly SecurityRequirement[];
  readonly source: SourceLocation;
}

/**
 * The endpoint id: `spec:METHOD:/path/{template}`, e.g. `github:POST:/repos/{owner}/{repo}/issues`.
 * It reads as what it names, so a listing line needs nothing else to be usable, and it
 * depends only on the spec name, the method and the path, so it survives re-imports.
 */
export function endpointId(spec: string, method: HttpMethod, path: string): string {
  return `${spec}:${method}:${path}`;
}

/** Splits an id back into its parts; `undefined` when the text is not shaped like an id. */
export function parseEndpointId(id: string): { spec: string; method: HttpMethod; path: string } | undefined {
  const first = id.indexOf(':');
  if (first <= 0) return undefined;
  const second = id.indexOf(':', first + 1);
  // Stryker disable next-line EqualityOperator: `second` is -1 or past `first` (at least 1), never 0
  if (second < 0) return undefined;
  const method = id.slice(first + 1, second).toUpperCase();
  if (!(HTTP_METHODS as readonly string[]).includes(method)) return undefined;
  return { spec: id.slice(0, first), method: method as HttpMethod, path: id.slice(second + 1) };
}
