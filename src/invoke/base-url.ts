// The base URL a spec's requests go to: svc.yaml `baseUrl`, else the endpoint's (or document's)
// first server with its variables filled from svc.yaml `serverVariables` or their defaults.
import type { SpecConfig } from '../config/types.ts';
import type { Endpoint, ImportedSpec, Server } from '../model/index.ts';
import { InvokeError } from './errors.ts';
import { encodeStrict } from './serialize.ts';
import type { SpecSettings } from './settings.ts';

export interface BaseUrl {
  /** Absolute http(s) URL without a trailing slash, e.g. `https://api.example.com/v1`. */
  readonly href: string;
  readonly origin: string;
}

// `{name}` (OpenAPI) and `{{name}}` (Postman) placeholders.
const PLACEHOLDER = /\{\{\s*([^{}]+?)\s*\}\}|\{([^{}]+)\}/g;

const cache = new WeakMap<object, WeakMap<object, BaseUrl>>();

/** The base URL of one endpoint: its own servers (operation, path item) or else the document's. */
export function resolveBaseUrl(endpoint: Endpoint, spec: ImportedSpec, settings: SpecSettings): BaseUrl {
  return resolveServers(endpoint.servers.length > 0 ? endpoint.servers : spec.servers, spec, settings);
}

/** The spec's own base URL (document servers): its origin is the one requests may go to. */
export function resolveSpecBaseUrl(spec: ImportedSpec, settings: SpecSettings): BaseUrl {
  return resolveServers(spec.servers, spec, settings);
}

function resolveServers(servers: readonly Server[], spec: ImportedSpec, settings: SpecSettings): BaseUrl {
  // Cache per (servers array, spec settings): both are immutable for the life of a catalogue.
  // The cache only saves work: computing again gives an equal result.
  let perOwner = cache.get(servers);
  // Stryker disable next-line ConditionalExpression: a fresh map only loses cached entries.
  if (perOwner === undefined) cache.set(servers, (perOwner = new WeakMap()));
  const hit = perOwner.get(settings.spec);
  // Stryker disable next-line ConditionalExpression: a miss computes the same value.
  if (hit !== undefined) return hit;
  const result = computeBaseUrl(servers[0], spec, settings);
  // Stryker disable next-line CallExpression: not caching computes the same value next time.
  perOwner.set(settings.spec, result);
  return result;
}

function computeBaseUrl(server: Server | undefined, spec: ImportedSpec, settings: SpecSettings): BaseUrl {
  const configured = settings.spec.baseUrl;
  const source = configured ?? server?.url;
  const keyHint = `set ${settings.key}.baseUrl in svc.yaml${settings.where} to the API's absolute URL, e.g. https://api.example.com/v1`;
  if (source === undefined || source.trim() === '') {
    throw new InvokeError('invoke-base-url', `Spec '${spec.name}' names no server URL, so svc does not know where to send requests.`, {
      hint: keyHint,
    });
  }
  // svc.yaml's own base URL takes its variables from svc.yaml alone, percent-encoded: a spec's
  // default must not move the host that svc.yaml chose (`{tenant}` = `evil.example/steal#`).
  // Stryker disable next-line OptionalChaining: without svc.yaml's baseUrl a server is there (else the check above threw).
  const variables = configured !== undefined ? {} : (server?.variables ?? {});
  const missing: string[] = [];
  const refused: string[] = [];
  const filled = source.replace(PLACEHOLDER, (_m, postman: string | undefined, openapi: string | undefined) => {
    // Stryker disable next-line StringLiteral: PLACEHOLDER always captures one of the two groups.
    const name = (postman ?? openapi ?? '').trim();
    const own = settings.spec.serverVariables[name];
    const value = own ?? variables[name]?.default;
    if (value === undefined || value === '') {
      missing.push(name);
      // Stryker disable next-line StringLiteral: a missing variable makes the whole URL an error below.
      return '';
    }
    const allowed = variables[name]?.enum;
    if (own === undefined && allowed !== undefined && allowed.length > 0 && !allowed.includes(value)) refused.push(name);
    return configured !== undefined ? encodeStrict(value) : value;
  });
  if (refused.length > 0) {
    throw new InvokeError('invoke-base-url', `Server URL '${source}' of spec '${spec.name}': the default of ${refused.map((m) => `'${m}'`).join(', ')} is not one of its enum values.`, {
      hint: `set ${refused.map((m) => `${settings.key}.serverVariables.${m}`).join(', ')} in svc.yaml${settings.where}`,
    });
  }
  if (missing.length > 0) {
    throw new InvokeError(
      'invoke-base-url',
      `Server URL '${source}' of spec '${spec.name}' uses variable${missing.length > 1 ? 's' : ''} ${missing.map((m) => `'${m}'`).join(', ')} without a default.`,
      {
        hint:
          configured !== undefined
            ? `set ${missing.map((m) => `${settings.key}.serverVariables.${m}`).join(', ')} in svc.yaml${settings.where} (svc.yaml's baseUrl takes its variables from svc.yaml only)`
            : `set ${missing.map((m) => `${settings.key}.serverVariables.${m}`).join(', ')} (or ${settings.key}.baseUrl) in svc.yaml${settings.where}`,
      },
    );
  }
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(filled)) {
    throw new InvokeError(
      'invoke-base-url',
      `Server URL '${filled}' of spec '${spec.name}' is relative${configured !== undefined ? '' : ' (the spec does not say which host serves it)'}.`,
      { hint: keyHint },
    );
  }
  let url: URL;
  try {
    url = new URL(filled);
  } catch (cause) {
    throw new InvokeError('invoke-base-url', `Server URL '${filled}' of spec '${spec.name}' is not a valid URL.`, { cause, hint: keyHint });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvokeError('invoke-base-url', `Server URL '${filled}' of spec '${spec.name}' is not http or https.`, { hint: keyHint });
  }
  url.search = '';
  url.hash = '';
  return { href: url.href.replace(/\/+$/, ''), origin: url.origin };
}

/** Where svc.yaml's credentials may go: the spec's base URL, and whether svc.yaml or the spec chose it. */
export interface CredentialBase extends BaseUrl {
  /** `spec`: svc.yaml gives no baseUrl, so the spec's first server decides (`svc check` warns). */
  readonly source: 'svc.yaml' | 'spec';
}

/**
 * The one base URL credentials are sent to: svc.yaml's `baseUrl`, else the spec's first server.
 * @throws InvokeError when neither gives an absolute http(s) URL.
 */
export function credentialBase(spec: ImportedSpec, config: SpecConfig, key = `specs[] (${config.name})`): CredentialBase {
  // Stryker disable next-line BooleanLiteral: resolving a base URL does not read `unlisted`.
  const base = resolveSpecBaseUrl(spec, { spec: config, key, where: '', unlisted: false });
  return { ...base, source: config.baseUrl !== undefined ? 'svc.yaml' : 'spec' };
}

/** Same origin, and a path at or under the base's path (segment by segment: `/api` does not cover `/apiary`). */
export function withinBase(url: URL, base: BaseUrl): boolean {
  if (url.origin !== base.origin) return false;
  // Stryker disable next-line Regex: a base URL ends in no slash (computeBaseUrl strips them), so only a root `/` is left to cut.
  const basePath = new URL(base.href).pathname.replace(/\/+$/, '');
  return url.pathname === basePath || url.pathname.startsWith(`${basePath}/`);
}
