// JSON pointers (RFC 6901) as used in `$ref` fragments and in diagnostics.

/** `/paths/~1users/get` from tokens. */
export function joinPointer(base: string, ...tokens: readonly (string | number)[]): string {
  let out = base;
  for (const t of tokens) out += '/' + escapeToken(String(t));
  return out;
}

export function escapeToken(token: string): string {
  // Every path key has a `/`: string replaceAll is several times cheaper than a RegExp here.
  if (token.indexOf('/') === -1) return token.indexOf('~') === -1 ? token : token.replaceAll('~', '~0');
  return (token.indexOf('~') === -1 ? token : token.replaceAll('~', '~0')).replaceAll('/', '~1');
}

function unescapeToken(token: string): string {
  if (token.indexOf('~') === -1) return token;
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** A lookup's outcome: the value and its pointer in canonical form (decoded, RFC 6901-escaped), or how far it got. */
export type PointerLookup = { found: true; value: unknown; pointer: string } | { found: false; at: string };

/**
 * Walks `pointer` (the part after `#`, URI-encoded as in a `$ref`) inside `doc`. The pointer found
 * comes back in one spelling (`~1users~1{id}` for `~1users~1%7Bid%7D`), so one place has one name.
 */
export function lookupPointer(doc: unknown, pointer: string): PointerLookup {
  if (pointer === '' || pointer === '/') return pointer === '' ? { found: true, value: doc, pointer: '' } : lookupTokens(doc, ['']);
  if (pointer[0] !== '/') return { found: false, at: '' };
  const raw = pointer.slice(1).split('/');
  const tokens = raw.map((t) => {
    let s = t;
    if (s.indexOf('%') !== -1) {
      try {
        s = decodeURIComponent(s);
      } catch {
        // keep as written
      }
    }
    return unescapeToken(s);
  });
  return lookupTokens(doc, tokens);
}

function lookupTokens(doc: unknown, tokens: readonly string[]): PointerLookup {
  let cur: unknown = doc;
  let at = '';
  for (const token of tokens) {
    if (cur === null || typeof cur !== 'object') return { found: false, at };
    if (!Object.hasOwn(cur as object, token)) return { found: false, at };
    cur = (cur as Record<string, unknown>)[token];
    at += '/' + escapeToken(token);
  }
  return { found: true, value: cur, pointer: at };
}
