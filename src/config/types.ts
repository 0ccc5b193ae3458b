// The fully defaulted config that `loadConfig` produces from svc.yaml.
// Nothing downstream writes `?? default`: every default is filled here.

/** A secret is never written in svc.yaml: it names an environment variable, read when needed. */
export interface SecretRef {
  readonly env: string;
}

/** Secrets shorter than this are refused: svc could not redact them from its output without blanking ordinary text. */
export const MIN_SECRET_LENGTH = 3;

export type AuthConfig =
  | { readonly type: 'bearer'; readonly token: SecretRef; readonly scheme?: string }
  | { readonly type: 'basic'; readonly username: SecretRef | string; readonly password: SecretRef; readonly scheme?: string }
  | {
      readonly type: 'apiKey';
      readonly in: 'header' | 'query' | 'cookie';
      readonly name: string;
      readonly value: SecretRef;
      readonly scheme?: string;
    }
  | {
      readonly type: 'oauth2';
      readonly tokenUrl: string;
      readonly clientId: SecretRef | string;
      readonly clientSecret: SecretRef;
      readonly scopes: readonly string[];
      readonly scheme?: string;
    };

/** How `invoke` treats methods other than GET, HEAD and OPTIONS. */
export type WritePolicy = 'deny' | 'allow' | 'confirm';

export interface SpecConfig {
  /** Absolute path of the spec file. */
  readonly path: string;
  /** Unique spec name: from svc.yaml, default the file stem (lower-cased, unsafe characters -> `-`). */
  readonly name: string;
  /** Collection: from svc.yaml, else the sub-folder of `specsDir` the file sits in, else `default`. */
  readonly collection: string;
  /** Allow `$ref`s to http(s) URLs (off by default). */
  readonly allowRemoteRefs: boolean;
  /** Absolute folders, besides the spec's own folder tree, that `$ref`s may read. */
  readonly allowRefsFrom: readonly string[];
  /** Overrides the spec's first server. */
  readonly baseUrl?: string;
  /** Values for server URL variables, overriding their defaults. */
  readonly serverVariables: Readonly<Record<string, string>>;
  /** Extra origins `invoke` may reach besides the base URL's. */
  readonly allowedOrigins: readonly string[];
  readonly writes: WritePolicy;
  readonly auth: readonly AuthConfig[];
  /** Static headers sent with every request (e.g. a User-Agent); values may be secrets. */
  readonly headers: Readonly<Record<string, SecretRef | string>>;
  /**
   * Values for credentials the spec declares as ordinary parameters (Slack's `token`), keyed by
   * parameter name or `in.name` (`query.token`, `header.X-Key`, `cookie.sid`): the model never
   * supplies them, and they are redacted like any secret. Always set by the loader (optional only
   * so that settings built by hand elsewhere stay valid).
   */
  readonly parameters?: Readonly<Record<string, SecretRef>>;
  readonly timeoutMs: number;
  readonly retries: number;
  /** Line of this entry in svc.yaml, for messages. */
  readonly line?: number;
}

export interface ServeConfig {
  /** `http` serves Streamable HTTP at /mcp and legacy SSE at /sse (`sse` in svc.yaml or --transport is the same). */
  readonly transport: 'stdio' | 'http';
  readonly host: string;
  readonly port: number;
  /** HTTP clients must send a bearer token (`token`, the default), or nothing (`none`, loopback only). */
  readonly auth: 'token' | 'none';
  /** Environment variable holding the bearer token; else svc creates one in the user's state folder. */
  readonly tokenEnv?: string;
  /** Extra origins allowed to reach the HTTP transport (besides localhost ones). */
  readonly allowedOrigins: readonly string[];
  /** Max HTTP request body bytes. */
  readonly maxBodyBytes: number;
  /** Open HTTP sessions kept at most; past it one of the client holding the most is closed. */
  readonly maxSessions: number;
  /** An HTTP session nobody used for this long is closed. */
  readonly sessionIdleMs: number;
}

export interface LimitsConfig {
  /** A spec file larger than this is refused before it is read whole. */
  readonly maxSpecBytes: number;
  /** `invoke` response bodies are cut at this many bytes. */
  readonly maxResponseBytes: number;
  /** Images returned by `invoke` above this size are described, not embedded. */
  readonly maxImageBytes: number;
}

export interface SearchConfig {
  /**
   * English words related to a query's rare words, searched as low-weight alternatives:
   * `none` (default) or `wordnet` (WordNet forms and synonyms, about 22 MB more memory).
   */
  readonly vocabulary: 'none' | 'wordnet';
}

export interface Config {
  /** Absolute path of svc.yaml (or of the folder it would be in, for a config built from FILE args). */
  readonly file: string;
  /** Absolute folder against which relative paths were resolved. */
  readonly dir: string;
  /** Absolute folder that gives default collections (default `<dir>/specs`). */
  readonly specsDir: string;
  readonly specs: readonly SpecConfig[];
  readonly serve: ServeConfig;
  readonly limits: LimitsConfig;
  /** How search works; absent when svc.yaml says nothing (every default). */
  readonly search?: SearchConfig;
  /** IPC socket path override (else derived from `file`). */
  readonly socket?: string;
}

export const DEFAULTS = {
  port: 7331,
  host: '127.0.0.1',
  timeoutMs: 30_000,
  retries: 2,
  maxSpecBytes: 64 * 1024 * 1024,
  maxResponseBytes: 50 * 1024,
  maxImageBytes: 1024 * 1024,
  maxBodyBytes: 4 * 1024 * 1024,
  maxSessions: 256,
  sessionIdleMs: 30 * 60 * 1000,
} as const;
