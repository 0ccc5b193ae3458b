// Hosts -> Server objects. `{{baseUrl}}` becomes the server `{baseUrl}` whose variable default
// is the collection variable's value; a literal host is the server as written. Equal servers are
// shared objects (a 450-request collection usually has one host).
import type { Server, ServerVariable } from '../../model/endpoint.ts';
import type { HostTemplate } from './url.ts';
import type { CollectionVariables } from './variables.ts';

export class Servers {
  /** Distinct servers in order of first use: the document-level list. */
  readonly list: Server[] = [];
  readonly #byUrl = new Map<string, Server>();
  readonly #undefinedReported = new Set<string>();
  readonly #variables: CollectionVariables;

  constructor(variables: CollectionVariables) {
    this.#variables = variables;
  }

  /** @param undefinedVariable called once per variable the collection gives no value */
  serverFor(host: HostTemplate, undefinedVariable: (name: string) => void): Server {
    const known = this.#byUrl.get(host.url);
    if (known) return known;
    let server: Server = { url: host.url };
    if (host.variables.length > 0) {
      const variables: Record<string, ServerVariable> = {};
      for (const name of host.variables) {
        let value = this.#variables.get(name);
        if (value === undefined && !this.#undefinedReported.has(name)) {
          this.#undefinedReported.add(name);
          undefinedVariable(name);
        }
        // A whole base URL kept in one variable (`https://api.stripe.com/`) is joined with paths
        // that start with `/`: drop its trailing slash so the two do not double up.
        if (value !== undefined && host.url === `{${name}}`) value = value.replace(/\/+$/, '');
        Object.defineProperty(variables, name, { value: { default: value ?? '' }, enumerable: true, writable: true, configurable: true });
      }
      server = { url: host.url, variables };
    }
    this.#byUrl.set(host.url, server);
    this.list.push(server);
    return server;
  }
}
