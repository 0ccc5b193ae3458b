// Pieces shared by the OpenAPI 3.x and Swagger 2.0 walkers: the path/operation walk with
// path-item parameter merging, type labels, response labels, servers and security schemes.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { HTTP_METHODS, type HttpMethod, type Server, type ServerVariable } from '../model/endpoint.ts';
import type { SkippedOperation } from '../model/diagnostic.ts';
import type { SecurityScheme } from '../model/spec.ts';
import type { FormatContext } from './format.ts';
import type { DocumentSet } from './documents.ts';
import { joinPointer } from './pointer.ts';
import { STATUS_PHRASES } from './status-codes.ts';

export type Obj = Record<string, unknown>;

/** A walk over endpoints lets the event loop turn after this much work (ms). */
const YIELD_EVERY_MS = 50;

/**
 * Long walks over a spec's endpoints hand the thread back every few milliseconds, so the daemon
 * answers `svc status`, early MCP requests and signals while it imports tens of thousands of them.
 */
export class Yielder {
  #last = performance.now();

  /** Resolves at once when little time has passed; otherwise after one turn of the event loop. */
  async turn(): Promise<void> {
    if (performance.now() - this.#last < YIELD_EVERY_MS) return;
    await nextTurn();
    this.#last = performance.now();
  }
}

export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export const EMPTY: readonly never[] = Object.freeze([]);

const METHOD_BY_KEY = new Map<string, HttpMethod>(HTTP_METHODS.map((m) => [m.toLowerCase(), m]));
/** Operation keys that are methods svc does not serve: reported in `skipped`. */
const OTHER_METHOD_KEYS = new Set(['trace', 'query']);

/** A node with the file and pointer it lives at (after following `$ref`s). */
export interface Located<T = unknown> {
  readonly node: T;
  readonly file: string;
  readonly pointer: string;
}

export interface OperationSite {
  readonly path: string;
  readonly method: HttpMethod;
  readonly op: Located<Obj>;
  readonly item: Located<Obj>;
  /** Path-item parameters merged with the operation's (same name+in: the operation's wins). */
  readonly params: readonly Located<Obj>[];
}

/**
 * Walks `paths` (and the other path sections given, e.g. `x-ms-paths`) in document order and calls
 * `visit` for each operation of the seven methods. Unreadable path items, operations and parameters
 * become warnings with their pointer; the rest of the spec goes on.
 */
export async function walkOperations(
  docs: DocumentSet,
  sections: readonly string[],
  ctx: FormatContext,
  visit: (site: OperationSite) => void,
): Promise<SkippedOperation[]> {
  const root = docs.doc(docs.root) as Obj;
  const skipped: SkippedOperation[] = [];
  const yielder = new Yielder();
  for (const section of sections) {
    const paths = root[section];
    if (paths === undefined) continue;
    if (!isObj(paths)) {
      ctx.warn({ code: 'paths-invalid', message: `"${section}" is not an object; no endpoints read from it`, pointer: `/${section}` });
      continue;
    }
    for (const path of Object.keys(paths)) {
      await yielder.turn();
      const itemPointer = joinPointer('', section, path);
      if (path.startsWith('x-')) continue;
      const item = docs.deref(paths[path], docs.root, itemPointer);
      if (!item.ok) {
        ctx.warn({ code: item.code, message: `path item ${path}: ${item.message}`, pointer: itemPointer, ...(item.hint ? { hint: item.hint } : {}) });
        continue;
      }
      if (!isObj(item.node)) {
        ctx.warn({ code: 'path-item-invalid', message: `path item ${path} is not an object (${kindOf(item.node)}); skipped`, pointer: itemPointer });
        continue;
      }
      // Pointer of the item in the file it lives in (an external path item has its own).
      const itemAt = item.node === paths[path] ? itemPointer : item.pointer;
      const located: Located<Obj> = { node: item.node, file: item.file, pointer: itemAt };
      const itemParams = readParams(docs, located, ctx);
      for (const key of Object.keys(item.node)) {
        const method = METHOD_BY_KEY.get(key);
        if (method === undefined) {
          if (OTHER_METHOD_KEYS.has(key)) {
            const opPointer = joinPointer(itemAt, key);
            skipped.push({ method: key.toUpperCase(), path, reason: `method ${key.toUpperCase()} is not one of ${HTTP_METHODS.join(', ')}`, pointer: opPointer });
            ctx.warn({ code: 'method-skipped', message: `${key.toUpperCase()} ${path} skipped: svc serves only ${HTTP_METHODS.join(', ')}`, pointer: opPointer, file: item.file });
          }
          continue;
        }
        const opPointer = joinPointer(itemAt, key);
        const op = docs.deref(item.node[key], item.file, opPointer);
        if (!op.ok) {
          ctx.warn({ code: op.code, message: `${method} ${path}: ${op.message}`, pointer: opPointer, file: item.file, ...(op.hint ? { hint: op.hint } : {}) });
          continue;
        }
        if (!isObj(op.node)) {
          ctx.warn({ code: 'operation-invalid', message: `${method} ${path}: operation is not an object (${kindOf(op.node)}); skipped`, pointer: opPointer, file: item.file });
          continue;
        }
        const opAt = op.node === item.node[key] ? opPointer : op.pointer;
        const opLocated: Located<Obj> = { node: op.node, file: op.file, pointer: opAt };
        const opParams = readParams(docs, opLocated, ctx);
        visit({ path, method, op: opLocated, item: located, params: mergeParams(itemParams, opParams) });
      }
    }
  }
  return skipped;
}

/**
 * Parameters are shared between endpoints when they come from the same source node (path-level
 * parameters, `$ref`ed components): GitHub and Kubernetes repeat a few hundred parameters
 * thousands of times, and one object per source node keeps retained memory near the document's.
 * Each importer gets its own cache (its own `build`); a node that builds nothing is remembered too,
 * so its warning is given once.
 */
export function builtOncePerNode<T>(
  build: (docs: DocumentSet, p: Located<Obj>, ctx: FormatContext) => T | undefined,
): (docs: DocumentSet, p: Located<Obj>, ctx: FormatContext) => T | undefined {
  const cache = new WeakMap<object, T | null>();
  return (docs, p, ctx) => {
    const cached = cache.get(p.node);
    if (cached !== undefined) return cached ?? undefined;
    const built = build(docs, p, ctx);
    cache.set(p.node, built ?? null);
    return built;
  };
}

/** The `parameters` of a path item or operation, `$ref`s followed; unreadable ones warned and dropped. */
function readParams(docs: DocumentSet, owner: Located<Obj>, ctx: FormatContext): Located<Obj>[] {
  const list = owner.node.parameters;
  if (list === undefined) return [];
  const listPointer = joinPointer(owner.pointer, 'parameters');
  if (!Array.isArray(list)) {
    ctx.warn({ code: 'parameters-invalid', message: '"parameters" is not an array; ignored', pointer: listPointer, file: owner.file });
    return [];
  }
  const out: Located<Obj>[] = [];
  for (let i = 0; i < list.length; i++) {
    const raw: unknown = list[i];
    // Fast path: an inline, well-formed parameter needs no lookup and no extra objects but its own.
    // Stryker disable next-line StringLiteral,BlockStatement: the fast path only saves the look-up; the path below gives the same result
    if (isObj(raw) && raw.$ref === undefined && typeof raw.name === 'string' && typeof raw.in === 'string') {
      out.push({ node: raw, file: owner.file, pointer: joinPointer(listPointer, i) });
      continue;
    }
    const pointer = joinPointer(listPointer, i);
    const p = docs.deref(raw, owner.file, pointer);
    if (!p.ok) {
      ctx.warn({ code: p.code, message: `parameter: ${p.message}`, pointer, file: owner.file, ...(p.hint ? { hint: p.hint } : {}) });
      continue;
    }
    const node = p.node;
    if (!isObj(node) || typeof node.name !== 'string' || typeof node.in !== 'string') {
      const what = !isObj(node) ? `is not an object (${kindOf(node)})` : typeof node.name !== 'string' ? 'has no "name"' : 'has no "in"';
      ctx.warn({ code: 'parameter-invalid', message: `parameter ${what}; ignored`, pointer, file: owner.file, hint: 'Every parameter needs a "name" and an "in" (path, query, header, cookie).' });
      continue;
    }
    out.push({ node, file: p.file, pointer: node === list[i] ? pointer : p.pointer });
  }
  return out;
}

function mergeParams(itemParams: readonly Located<Obj>[], opParams: readonly Located<Obj>[]): readonly Located<Obj>[] {
  if (itemParams.length === 0) return opParams;
  if (opParams.length === 0) return itemParams;
  // An operation parameter with the same name+in replaces the path-level one in its place,
  // so path-level parameters (usually the path's own) keep coming first. Lists are short:
  // plain loops beat building keyed maps for every operation.
  const merged: Located<Obj>[] = [];
  // Stryker disable next-line ArrayDeclaration: an unset slot reads as undefined, which counts as unused just as false does
  const used = new Array<boolean>(opParams.length).fill(false);
  for (const p of itemParams) {
    let chosen = p;
    for (let j = 0; j < opParams.length; j++) {
      const o = opParams[j]!;
      if (o.node.name === p.node.name && o.node.in === p.node.in) {
        chosen = o;
        used[j] = true;
        break;
      }
    }
    merged.push(chosen);
  }
  for (let j = 0; j < opParams.length; j++) if (!used[j]) merged.push(opParams[j]!);
  return merged;
}

export function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return `a ${typeof v}`;
}

/**
 * A compact type label for a schema: `string`, `integer`, `string[]`, `object`, `string|null`.
 * Follows `$ref`s at the top only (cheap) and looks a few levels into combinators.
 */
export function typeLabel(docs: DocumentSet, schema: unknown, file: string, depth = 0): string {
  if (schema === undefined) return 'any';
  const t = docs.deref(schema, file, '');
  if (!t.ok || !isObj(t.node)) return 'any';
  const s = t.node;
  let label: string;
  const type = s.type;
  if (typeof type === 'string') {
    label = type === 'array' ? arrayLabel(docs, s, t.file, depth) : type;
  } else if (Array.isArray(type) && type.length > 0) {
    label = type.map((x) => (x === 'array' ? arrayLabel(docs, s, t.file, depth) : String(x))).join('|');
  } else if (depth < 3 && (Array.isArray(s.oneOf) || Array.isArray(s.anyOf))) {
    const members = (Array.isArray(s.oneOf) ? s.oneOf : s.anyOf) as unknown[];
    label = [...new Set(members.map((m) => typeLabel(docs, m, t.file, depth + 1)))].join('|');
  } else if (depth < 3 && Array.isArray(s.allOf)) {
    label = (s.allOf as unknown[]).map((m) => typeLabel(docs, m, t.file, depth + 1)).find((l) => l !== 'any') ?? 'any';
  } else if (s.properties !== undefined || s.additionalProperties !== undefined) {
    label = 'object';
  } else if (Array.isArray(s.enum) && s.enum.length > 0) {
    label = s.enum[0] === null ? 'null' : typeof s.enum[0];
  } else if (s.items !== undefined) {
    label = arrayLabel(docs, s, t.file, depth);
  } else {
    label = 'any';
  }
  if (s.nullable === true && !label.split('|').includes('null')) label += '|null';
  return label;
}

function arrayLabel(docs: DocumentSet, s: Obj, file: string, depth: number): string {
  if (depth >= 3 || s.items === undefined) return 'array';
  const inner = typeLabel(docs, s.items, file, depth + 1);
  return inner.includes('|') ? `(${inner})[]` : `${inner}[]`;
}

const MAX_LABEL = 120;

/** A response's short label: its description's first line, else the standard reason phrase. */
export function responseLabel(status: string, description: unknown): string {
  if (typeof description === 'string') {
    const trimmed = description.trim();
    const nl = trimmed.indexOf('\n');
    let line = (nl === -1 ? trimmed : trimmed.slice(0, nl)).trim();
    if (line.length > MAX_LABEL) {
      const cut = line.lastIndexOf(' ', MAX_LABEL);
      line = line.slice(0, cut > MAX_LABEL / 2 ? cut : MAX_LABEL) + '…';
    }
    if (line !== '') return line;
  }
  return STATUS_PHRASES[Number(status)] ?? (status === 'default' ? 'Default response' : '');
}

const serverCache = new WeakMap<object, Server[]>();

/** OpenAPI `servers` as the model's Server list (shared per source array: endpoints point at one list). */
export function toServers(list: unknown): Server[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const cached = serverCache.get(list);
  if (cached) return cached;
  const out: Server[] = [];
  for (const s of list) {
    if (!isObj(s) || typeof s.url !== 'string') continue;
    const server: { url: string; description?: string; variables?: Record<string, ServerVariable> } = { url: s.url };
    if (typeof s.description === 'string') server.description = s.description;
    if (isObj(s.variables) && Object.keys(s.variables).length > 0) {
      const vars: Record<string, ServerVariable> = {};
      for (const [name, v] of Object.entries(s.variables)) {
        if (!isObj(v)) continue;
        const variable: { default: string; enum?: string[]; description?: string } = { default: v.default === undefined ? '' : String(v.default) };
        if (Array.isArray(v.enum)) variable.enum = v.enum.map(String);
        if (typeof v.description === 'string') variable.description = v.description;
        vars[name] = variable;
      }
      server.variables = vars;
    }
    out.push(server);
  }
  serverCache.set(list, out);
  return out;
}

/** OpenAPI security requirements, kept as written when well-formed. */
export function toSecurity(v: unknown): readonly Readonly<Record<string, readonly string[]>>[] | undefined {
  if (!Array.isArray(v)) return undefined;
  return v.every(isObj) ? (v as Record<string, string[]>[]) : (v.filter(isObj) as Record<string, string[]>[]);
}

/** OpenAPI `securitySchemes` / Swagger `securityDefinitions` entry, normalized. */
export function toSecurityScheme(s: Obj): SecurityScheme {
  const type = s.type;
  const description = typeof s.description === 'string' ? s.description : '';
  if (type === 'http' && typeof s.scheme === 'string') {
    return typeof s.bearerFormat === 'string'
      ? { type: 'http', scheme: s.scheme.toLowerCase(), bearerFormat: s.bearerFormat }
      : { type: 'http', scheme: s.scheme.toLowerCase() };
  }
  if (type === 'basic') return { type: 'http', scheme: 'basic' };
  if (type === 'apiKey' && typeof s.name === 'string' && (s.in === 'header' || s.in === 'query' || s.in === 'cookie')) {
    return { type: 'apiKey', in: s.in, name: s.name };
  }
  if (type === 'oauth2') {
    // 3.x: flows.<flow>.tokenUrl/scopes; 2.0: tokenUrl/scopes at the top.
    const flows = isObj(s.flows) ? Object.values(s.flows).filter(isObj) : [s];
    const tokenUrl = flows.map((f) => f.tokenUrl).find((u): u is string => typeof u === 'string');
    const scopes = [...new Set(flows.flatMap((f) => (isObj(f.scopes) ? Object.keys(f.scopes) : [])))];
    return { type: 'oauth2', ...(tokenUrl !== undefined ? { tokenUrl } : {}), ...(scopes.length > 0 ? { scopes } : {}) };
  }
  if (type === 'openIdConnect' && typeof s.openIdConnectUrl === 'string') return { type: 'openIdConnect', url: s.openIdConnectUrl };
  return { type: 'other', description: description || `security scheme of type ${String(type)}` };
}

export function stringArray(v: unknown): readonly string[] {
  if (!Array.isArray(v) || v.length === 0) return EMPTY;
  return v.every((x) => typeof x === 'string') ? (v as string[]) : v.filter((x): x is string => typeof x === 'string');
}

export function optionalString(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
