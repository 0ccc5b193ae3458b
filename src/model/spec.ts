// One imported API description, as the catalogue holds it.
import type { Diagnostic, SkippedOperation } from './diagnostic.ts';
import type { Endpoint, SchemaLink, SpecFormat } from './endpoint.ts';

/** OpenAPI `securitySchemes` / Swagger `securityDefinitions` / Postman auth, normalized. */
export type SecurityScheme =
  | { readonly type: 'http'; readonly scheme: string; readonly bearerFormat?: string }
  | { readonly type: 'apiKey'; readonly in: 'header' | 'query' | 'cookie'; readonly name: string }
  | { readonly type: 'oauth2'; readonly tokenUrl?: string; readonly scopes?: readonly string[] }
  | { readonly type: 'openIdConnect'; readonly url: string }
  | { readonly type: 'other'; readonly description: string };

/**
 * A schema with every `$ref` followed, except where following would loop:
 * there the node is `{ $circular: '<ref>' }`, and past `maxDepth` it is `{ $truncated: '<ref>' }`.
 * Plain JSON: safe to `JSON.stringify`.
 */
export type ResolvedSchema = unknown;

/** Resolves source schemas on demand, so the import never dereferences whole documents. */
export interface SchemaResolver {
  /** Follow `$ref`s of `link` into a plain, acyclic JSON value. */
  resolve(link: SchemaLink, options?: { maxDepth?: number }): ResolvedSchema;
  /** Follow `$ref`s at the top of `link` only (cheap): the node itself and the file it lives in. */
  shallow(link: SchemaLink): SchemaLink;
}

export interface ImportedSpec {
  /** Name from svc.yaml, default the file stem. */
  readonly name: string;
  readonly collection: string;
  /** Absolute path of the root document. */
  readonly file: string;
  readonly format: SpecFormat;
  /** `info.title` / Postman `info.name`. */
  readonly title?: string;
  /** `info.version` (the API's version, not the format's). */
  readonly version?: string;
  /** Exact format version as written (`3.0.3`, `3.1.0`, `2.0`, `v2.1.0`). */
  readonly formatVersion?: string;
  readonly endpoints: readonly Endpoint[];
  readonly webhooks: number;
  readonly skipped: readonly SkippedOperation[];
  readonly warnings: readonly Diagnostic[];
  /** Document-level servers, for invoke's base URL when an endpoint has none of its own. */
  readonly servers: readonly import('./endpoint.ts').Server[];
  readonly securitySchemes: Readonly<Record<string, SecurityScheme>>;
  /** Every file read to build this spec (root first): what the daemon watches and hashes. */
  readonly files: readonly string[];
  /** sha256 of the files' contents, for `svc update`'s unchanged check. */
  readonly hash: string;
  readonly schemas: SchemaResolver;
  /** When the import finished (ms since epoch). */
  readonly importedAt: number;
  /** Milliseconds the import took. */
  readonly importMs: number;
}

/** The result of importing one configured spec: it either worked (maybe with warnings) or did not. */
export type ImportOutcome =
  | { readonly ok: true; readonly spec: ImportedSpec }
  | {
      readonly ok: false;
      readonly name: string;
      readonly collection: string;
      readonly file: string;
      readonly format?: SpecFormat;
      readonly errors: readonly Diagnostic[];
      readonly warnings: readonly Diagnostic[];
      /** Files read before the failure, so the daemon can still watch them. */
      readonly files: readonly string[];
    };
