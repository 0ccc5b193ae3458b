// The base URL a spec's requests go to: svc.yaml `baseUrl`, else the endpoint's (or document's)
// first server with its variables filled from svc.yaml `serverVariables` or their defaults.
import type { Endpoint, ImportedSpec, Server } from '../model/index.ts';
import { InvokeError } from './errors.ts';
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
  let perOwner = cache.get(servers);
  if (perOwner === undefined) cache.set(servers, (perOwner = new WeakMap()));
  const hit = perOwner.get(settings.spec);
  if (hit !== undefined) return hit;
  const result = computeBaseUrl(servers[0], spec, settings);
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
  const variables = server?.variables ?? {};
  const missing: string[] = [];
  const filled = source.replace(PLACEHOLDER, (_m, postman: string | undefined, openapi: string | undefined) => {
    const name = (postman ?? openapi ?? '').trim();
    const value = settings.spec.serverVariables[name] ?? variables[name]?.default;
    if (value === undefined || value === '') {
      missing.push(name);
      return '';
    }
    return value;
  });
  if (missing.length > 0) {
    throw new InvokeError(
      'invoke-base-url',
      `Server URL '${source}' of spec '${spec.name}' uses variable${missing.length > 1 ? 's' : ''} ${missing.map((m) => `'${m}'`).join(', ')} without a default.`,
      { hint: `set ${missing.map((m) => `${settings.key}.serverVariables.${m}`).join(', ')} (or ${settings.key}.baseUrl) in svc.yaml${settings.where}` },
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
