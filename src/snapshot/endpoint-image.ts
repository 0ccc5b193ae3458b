// An endpoint as a snapshot core stores it, and back: repeated strings and shared values (parameters,
// responses, bodies, tag lists) written once each and referred to by number, so that a spec's
// thousands of endpoints decode into objects that share what the description shares.
import { type Endpoint, type ImportedSpec, endpointId } from '../model/index.ts';
import { type ColdTexts, type HotFields, StoredEndpoint } from './stored.ts';

/** What `ImportedSpec` holds besides endpoints and schemas. */
export type SpecMeta = Omit<ImportedSpec, 'endpoints' | 'schemas'>;

/** Repeated strings and shared values, each written once and referred to by number. */
export class Table {
  readonly strings: string[] = [];
  readonly shared: string[] = [];
  readonly #strings = new Map<string, number>();
  readonly #shared = new Map<string, number>();
  /** Numbers of values already shrunk, by the object they were made from (see `once`). */
  readonly #made = new Map<object, number>();

  string(s: string): number {
    let n = this.#strings.get(s);
    if (n === undefined) {
      n = this.strings.length;
      this.strings.push(s);
      this.#strings.set(s, n);
    }
    return n;
  }

  /**
   * `make()`'s number, made once per `source`: the endpoints of a spec share their parameters,
   * responses and lists as the importer made them, and each would be written out as JSON again
   * to find the number it already has. `make` must give the same for the same source, and add
   * no string a first call did not (so numbering is as if it ran every time).
   */
  once(source: object, make: () => number): number {
    let n = this.#made.get(source);
    if (n === undefined) this.#made.set(source, (n = make()));
    return n;
  }

  value(v: unknown): number {
    const text = JSON.stringify(v);
    let n = this.#shared.get(text);
    if (n === undefined) {
      n = this.shared.length;
      this.shared.push(text);
      this.#shared.set(text, n);
    }
    return n;
  }
}

export type Loose = Record<string, unknown>;

/**
 * The endpoint with its repeated strings and shared values as numbers (see `Expander`). Parameters,
 * responses, request bodies and tag lists are shared values: a spec repeats them (`owner`, `page`,
 * a 404 that refers to one response), and each one decodes to one object all its endpoints hold.
 * Their strings are numbers too, so a text repeated in values that differ (a label, a
 * description) is one string once decoded.
 */
export function shrink(e: Endpoint, t: Table): unknown {
  const str = (v: string | undefined) => (v === undefined ? undefined : t.string(v));
  // The spec and collection are the spec's own (in the head); description and source pointer are cold fields (see stored.ts).
  // The id is made again from spec, method and path when it is just that (see StoredEndpoint).
  const id = e.id === endpointId(e.spec, e.method, e.path) ? undefined : e.id;
  const out: Loose = { ...e, id, spec: undefined, collection: undefined, description: undefined, tags: t.once(e.tags, () => t.value(e.tags.map((x) => t.string(x)))), servers: t.once(e.servers, () => t.value(e.servers)), source: t.string(e.source.file) };
  const security = e.security;
  if (security !== undefined) out['security'] = t.once(security, () => t.value(security));
  out['parameters'] = e.parameters.map((p) => t.once(p, () => t.value({ ...p, name: t.string(p.name), in: t.string(p.in), type: t.string(p.type), description: str(p.description) })));
  const body = e.requestBody;
  if (body) out['requestBody'] = t.once(body, () => t.value({ ...body, description: str(body.description), contents: body.contents.map((c) => ({ ...c, mediaType: t.string(c.mediaType) })) }));
  out['responses'] = e.responses.map((r) => t.once(r, () => t.value({ ...r, status: t.string(r.status), label: t.string(r.label), contentTypes: r.contentTypes?.map((x) => t.string(x)) })));
  return out;
}

/** `shrink` undone: numbers back to the strings and shared values they stand for, each shared value expanded once. */
export class Expander {
  readonly #strings: readonly string[];
  readonly #shared: readonly unknown[];
  /** Shared values already expanded (in place), by number. */
  readonly #done: Uint8Array;

  readonly #meta: SpecMeta;
  readonly #cold: ColdTexts;
  /** Lists already made, by kind and content: endpoints with equal lists share one array. */
  readonly #lists = new Map<string, readonly unknown[]>();
  /** Parameters, request body contents and responses expanded so far that hold a schema link. */
  readonly #holders: Loose[] = [];

  constructor(strings: readonly string[], shared: readonly unknown[], meta: SpecMeta, cold: ColdTexts) {
    if (!Array.isArray(strings) || !Array.isArray(shared)) throw new Error('spec image tables are not lists');
    this.#strings = strings;
    this.#shared = shared;
    this.#done = new Uint8Array(shared.length);
    this.#meta = meta;
    this.#cold = cold;
  }

  /** Endpoint `n` of the spec, from its item in an endpoint chunk. */
  endpoint(x: Loose, n: number): Endpoint {
    x['spec'] = this.#meta.name;
    x['collection'] = this.#meta.collection;
    x['tags'] = this.#value(x['tags'], (tags) => (tags as unknown as unknown[]).forEach((t, i, all) => (all[i] = this.#string(t))));
    x['servers'] = this.#value(x['servers']);
    if (x['security'] !== undefined) x['security'] = this.#value(x['security']);
    x['parameters'] = this.#list('p', x['parameters'], (n) =>
      this.#value(n, (p) => {
        for (const k of ['name', 'in', 'type', 'description']) if (p[k] !== undefined) p[k] = this.#string(p[k]);
        if (p['schema']) this.#holders.push(p);
      }),
    );
    if (x['requestBody'] !== undefined) {
      x['requestBody'] = this.#value(x['requestBody'], (b) => {
        if (b['description'] !== undefined) b['description'] = this.#string(b['description']);
        for (const c of b['contents'] as Loose[]) {
          c['mediaType'] = this.#string(c['mediaType']);
          if (c['schema']) this.#holders.push(c);
        }
      });
    }
    x['responses'] = this.#list('r', x['responses'], (n) =>
      this.#value(n, (r) => {
        r['status'] = this.#string(r['status']);
        r['label'] = this.#string(r['label']);
        if (r['contentTypes'] !== undefined) r['contentTypes'] = this.#list('c', r['contentTypes'], (t) => this.#string(t));
        if (r['schema']) this.#holders.push(r);
      }),
    );
    const id = x['id'];
    if (id !== undefined && typeof id !== 'string') throw new Error('spec image endpoint id is not text');
    return new StoredEndpoint(x as unknown as HotFields, id, this.#string(x['source']), this.#cold, n);
  }

  /**
   * Every parameter, request body content and response of the endpoints expanded so far that holds
   * a schema link (`{ $link: n }`), each once: they are shared values, expanded once each, so a
   * spec's links are swapped holder by holder (detail.ts) rather than endpoint by endpoint, where
   * the same parameter comes up again for every endpoint that has it.
   */
  get linkHolders(): readonly Loose[] {
    return this.#holders;
  }

  /** `numbers` mapped by `each`, one array per kind and content (the items are shared values or strings: equal numbers, equal items). */
  #list(kind: string, numbers: unknown, each: (n: unknown) => unknown): readonly unknown[] {
    if (!Array.isArray(numbers)) throw new Error('spec image list is not a list');
    const key = `${kind}${numbers.join(',')}`;
    let list = this.#lists.get(key);
    if (!list) this.#lists.set(key, (list = numbers.map(each)));
    return list;
  }

  #string(n: unknown): string {
    const s = typeof n === 'number' ? this.#strings[n] : undefined;
    if (s === undefined) throw new Error('spec image refers to a string it does not hold');
    return s;
  }

  #value(n: unknown, expand?: (value: Loose) => void): unknown {
    if (typeof n !== 'number' || !(n >= 0 && n < this.#shared.length)) throw new Error('spec image refers to a value it does not hold');
    const value = this.#shared[n];
    if (expand && this.#done[n] === 0) {
      if (value === null || typeof value !== 'object') throw new Error('spec image value is not shaped right');
      this.#done[n] = 1;
      expand(value as Loose);
    }
    return value;
  }
}
