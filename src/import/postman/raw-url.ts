// Parses a Postman raw URL (`{{baseUrl}}/users/:id?x=1`, `localhost:4041`, `https://u:p@h:8080/p`)
// into the same parts the object form of `url` has. Postman URLs are not WHATWG URLs: the host
// may be a variable, the scheme may be missing, and variables may hold `/`, `?`, `#` or `:`, so
// the delimiters are searched for outside `{{...}}` only. Nothing is decoded or normalized.

export interface UrlParts {
  readonly protocol?: string;
  readonly host?: string;
  readonly port?: string;
  readonly segments: readonly string[];
  readonly query: readonly { key: string | undefined; value: string | undefined }[];
}

/** Index of the first of `chars` at or after `from`, skipping `{{...}}` variables; -1 if none. */
function indexOutsideVariables(s: string, chars: string, from = 0): number {
  for (let i = from; i < s.length; i++) {
    if (s.startsWith('{{', i)) {
      const close = s.indexOf('}}', i + 2);
      if (close >= 0) {
        i = close + 1;
        continue;
      }
    }
    if (chars.includes(s[i] as string)) return i;
  }
  return -1;
}

function lastIndexOutsideVariables(s: string, chars: string): number {
  let found = -1;
  for (let i = indexOutsideVariables(s, chars); i >= 0; i = indexOutsideVariables(s, chars, i + 1)) found = i;
  return found;
}

function splitOutsideVariables(s: string, separator: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = indexOutsideVariables(s, separator); i >= 0; i = indexOutsideVariables(s, separator, i + 1)) {
    out.push(s.slice(start, i));
    start = i + 1;
  }
  out.push(s.slice(start));
  return out;
}

const PROTOCOL = /^([A-Za-z][A-Za-z0-9+.-]*|\{\{[^{}]+\}\}):(?:\/\/|\\\\)/;
const PORT = /^(?:\d+|\{\{[^{}]+\}\})$/;

export function parseRawUrl(raw: string): UrlParts {
  let rest = raw.trim();
  const hash = indexOutsideVariables(rest, '#');
  if (hash >= 0) rest = rest.slice(0, hash);

  let queryText: string | undefined;
  const question = indexOutsideVariables(rest, '?');
  if (question >= 0) {
    queryText = rest.slice(question + 1);
    rest = rest.slice(0, question);
  }

  let protocol: string | undefined;
  const scheme = PROTOCOL.exec(rest);
  if (scheme) {
    protocol = scheme[1];
    rest = rest.slice(scheme[0].length);
  }

  const slash = indexOutsideVariables(rest, '/');
  let authority = slash >= 0 ? rest.slice(0, slash) : rest;
  const pathText = slash >= 0 ? rest.slice(slash + 1) : undefined;

  // Credentials in the URL are never carried over.
  const at = lastIndexOutsideVariables(authority, '@');
  if (at >= 0) authority = authority.slice(at + 1);

  let host: string | undefined = authority;
  let port: string | undefined;
  const bracket = authority.startsWith('[') ? authority.indexOf(']') : -1; // IPv6 literal
  const colon = lastIndexOutsideVariables(authority, ':');
  if (colon > bracket && PORT.test(authority.slice(colon + 1))) {
    host = authority.slice(0, colon);
    port = authority.slice(colon + 1);
  }
  if (host === '') host = undefined;

  const segments = pathText === undefined ? [] : splitOutsideVariables(pathText, '/');
  const query =
    queryText === undefined
      ? []
      : splitOutsideVariables(queryText, '&').map((pair) => {
          const eq = indexOutsideVariables(pair, '=');
          return eq >= 0 ? { key: pair.slice(0, eq), value: pair.slice(eq + 1) } : { key: pair, value: undefined };
        });
  return { ...addressParts(protocol, host, port), segments, query };
}

/** Scheme, host and port of a URL's parts, each present only when the URL gives it. */
export function addressParts(
  protocol: string | undefined,
  host: string | undefined,
  port: string | undefined,
): Pick<UrlParts, 'protocol' | 'host' | 'port'> {
  return {
    ...(protocol !== undefined ? { protocol } : {}),
    ...(host !== undefined ? { host } : {}),
    ...(port !== undefined ? { port } : {}),
  };
}
