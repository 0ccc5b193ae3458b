// A host as listen() and address comparisons take it: an IPv6 address written in brackets, as in a
// URL (`[::1]`), without them (`::1`); any other host, `[]` among them, as it is (`[]` names no
// address: bare, it would be the empty host, which binds every interface).
export function bareHost(host: string): string {
  return host.length > 2 && host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}
