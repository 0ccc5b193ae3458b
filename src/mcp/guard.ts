// Request guards for the HTTP transports: Host/Origin (the DNS-rebinding defence the MCP spec
// asks for) and the bearer token. The SDK's own allowedHosts options are deprecated; these are ours.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { bareHost } from '../model/host.ts';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);

export function isLoopbackHost(host: string): boolean {
  const h = bareHost(host.toLowerCase());
  return LOOPBACK_NAMES.has(h) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h.endsWith('.localhost');
}

function isWildcard(host: string): boolean {
  const h = bareHost(host);
  return h === '0.0.0.0' || h === '::' || h === '';
}


/** `example.com:8080` -> `example.com`; `[::1]:80` -> `::1`. */
export function hostnameOf(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    // Stryker disable next-line EqualityOperator: h starts with `[`, so `]` is never at 0
    return end > 0 ? h.slice(1, end) : h;
  }
  const colon = h.indexOf(':');
  return colon >= 0 ? h.slice(0, colon) : h;
}

export interface GuardPolicy {
  /** The address the server is bound to. */
  readonly bindHost: string;
  /** Extra origins (`https://app.example`) allowed besides local ones. */
  readonly allowedOrigins: readonly string[];
}

/** `undefined` when the request may proceed, else why it is refused (403). */
export function checkHostAndOrigin(req: IncomingMessage, policy: GuardPolicy): string | undefined {
  const hostHeader = req.headers.host;
  if (!hostHeader) return 'missing Host header';
  const hostname = hostnameOf(hostHeader);
  const bind = bareHost(policy.bindHost.toLowerCase());
  // An origin that does not parse allows no host (not even an empty one, as `Host: :80` gives).
  const extraHosts = policy.allowedOrigins.flatMap((o) => {
    try {
      return [new URL(o).hostname.toLowerCase()];
    } catch {
      // Stryker disable next-line ArrayDeclaration: a made-up entry matches no lower-cased host name either
      return [];
    }
  });
  // On loopback only local names are accepted: a page whose DNS name was rebound to 127.0.0.1
  // still sends its own name as Host. Other binds need a token anyway (see checkToken).
  const hostOk = isLoopbackHost(hostname) || hostname === bind || extraHosts.includes(bareHost(hostname)) || (!isLoopbackHost(bind) && isWildcard(bind));
  if (!hostOk) return `Host "${hostHeader}" is not allowed`;

  const origin = req.headers.origin;
  if (origin === undefined) return undefined; // not a browser: no cross-site risk from this header
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return `Origin "${origin}" is not allowed`;
  }
  if (isLoopbackHost(url.hostname)) return undefined;
  if (policy.allowedOrigins.some((o) => o.replace(/\/+$/, '').toLowerCase() === url.origin.toLowerCase())) return undefined;
  if (!isLoopbackHost(bind) && bareHost(url.hostname.toLowerCase()) === bind) return undefined;
  return `Origin "${origin}" is not allowed`;
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** A bearer-token check in constant time (both sides hashed to equal length first). */
export function tokenChecker(token: string): (req: IncomingMessage) => boolean {
  const expected = digest(token);
  return (req) => {
    // Stryker disable next-line StringLiteral: any text without "Bearer " is refused the same way
    const header = req.headers.authorization ?? '';
    // `.+` runs to the end: a header value holds no line break.
    const match = /^Bearer\s+(.+)/i.exec(header.trim());
    // Stryker disable next-line StringLiteral: without a match the result is false whatever is hashed
    const given = digest(match ? match[1]! : '');
    return timingSafeEqual(given, expected) && match !== null;
  };
}
