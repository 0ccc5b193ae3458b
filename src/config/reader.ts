// A small typed reader over the YAML syntax tree: every value read remembers its key path and line,
// and every problem is collected (never thrown) so the user sees all of them at once.
import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter, type Node, type Pair } from 'yaml';
import type { ConfigProblem } from '../model/errors.ts';
import { MIN_SECRET_LENGTH, type SecretRef } from './types.ts';
import { closestKey } from './suggest.ts';

/** A value in svc.yaml with where it stands. */
export interface Located {
  readonly node: Node | null;
  /** Dotted key path: `specs[1].auth.token`. */
  readonly key: string;
  readonly line?: number;
}

/** Keys that would add, remove, rename or change endpoints: svc.yaml may not carry them. */
export const ENDPOINT_KEYS: ReadonlySet<string> = new Set([
  'endpoint', 'endpoints', 'operation', 'operations', 'operationid', 'paths',
  'summary', 'description', 'parameters', 'params', 'requestbody', 'responses',
  'method', 'methods', 'rename', 'renames', 'alias', 'aliases',
  'exclude', 'excludes', 'include', 'includes', 'only', 'skip', 'hide', 'hidden', 'filter', 'filters',
  'override', 'overrides', 'patch', 'patches', 'tags', 'tag', 'deprecated', 'webhooks', 'servers',
]);

/** Keys people plausibly write that mean something else here. */
const KEY_HINTS: Readonly<Record<string, string>> = {
  file: 'path',
  url: 'path (a local file) or baseUrl (where requests go)',
  server: 'baseUrl',
  token: 'auth: { type: bearer, token: ${ENV_VAR} }',
  apikey: 'auth: { type: apiKey, name: ..., value: ${ENV_VAR} }',
  timeout: 'timeoutMs',
};

const SECRET_REF = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

export class Reader {
  readonly problems: ConfigProblem[] = [];
  readonly #lines: LineCounter;
  readonly #doc: Document;

  constructor(doc: Document, lines: LineCounter) {
    this.#doc = doc;
    this.#lines = lines;
  }

  lineOf(node: unknown): number | undefined {
    const range = (node as { range?: [number, number, number] } | null)?.range;
    if (!range) return undefined;
    const { line } = this.#lines.linePos(range[0]);
    // Stryker disable next-line EqualityOperator,ConditionalExpression: a LineCounter fed by the parser numbers lines from 1; 0 would mean it saw no text
    return line > 0 ? line : undefined;
  }

  problem(at: Pick<Located, 'key' | 'line'>, message: string): undefined {
    this.problems.push(at.line !== undefined ? { key: at.key, line: at.line, message } : { key: at.key, message });
    return undefined;
  }

  /** Follows an alias; an empty value (`key:` or `key: ~`) is `null`, as if the key had no node. */
  #deref(node: unknown): Node | null {
    const target = isAlias(node) ? ((node.resolve(this.#doc) as Node | undefined) ?? null) : ((node as Node | null) ?? null);
    return isScalar(target) && target.value === null ? null : target;
  }

  root(): Located {
    const node = this.#deref(this.#doc.contents);
    return { node, key: '', line: this.lineOf(node) };
  }

  /**
   * Reads a mapping and returns its entries by key. Unknown keys are problems (with the closest known key);
   * keys that would change endpoints are problems citing that rule when `endpointRule` names the scope.
   */
  map(at: Located, known: readonly string[], endpointRule?: string): Map<string, Located> | undefined {
    if (!isMap(at.node)) return this.problem(at, `must be a mapping (key: value lines), not ${describe(at.node)}`);
    const out = new Map<string, Located>();
    for (const pair of at.node.items as Pair<unknown, unknown>[]) {
      const keyNode = pair.key;
      const keyText = isScalar(keyNode) ? String(keyNode.value) : undefined;
      const keyLine = this.lineOf(keyNode);
      if (keyText === undefined) {
        this.problem({ key: at.key, line: keyLine }, 'keys must be plain words');
        continue;
      }
      const key = at.key ? `${at.key}.${keyText}` : keyText;
      if (known.includes(keyText)) {
        const value = this.#deref(pair.value);
        out.set(keyText, { node: value, key, line: this.lineOf(value) ?? keyLine });
        continue;
      }
      if (endpointRule !== undefined && ENDPOINT_KEYS.has(keyText.toLowerCase())) {
        this.problem(
          { key, line: keyLine },
          `svc.yaml cannot change endpoints: \`${keyText}\` would add, remove, rename or modify ${endpointRule}. ` +
            'Endpoints come from the API description unchanged; edit that file (or list another one) instead.',
        );
        continue;
      }
      const hinted = KEY_HINTS[keyText.toLowerCase()];
      const suggestion = closestKey(keyText, known);
      const advice = suggestion ? `did you mean \`${suggestion}\`?` : hinted ? `use ${hinted}` : `known keys: ${known.join(', ')}`;
      this.problem({ key, line: keyLine }, `unknown key \`${keyText}\`; ${advice}`);
    }
    return out;
  }

  /** A mapping with free keys (headers, server variables). */
  mapAny(at: Located): Map<string, Located> | undefined {
    if (!isMap(at.node)) return this.problem(at, `must be a mapping (key: value lines), not ${describe(at.node)}`);
    const out = new Map<string, Located>();
    for (const pair of at.node.items as Pair<unknown, unknown>[]) {
      const keyText = isScalar(pair.key) ? String(pair.key.value) : undefined;
      const keyLine = this.lineOf(pair.key);
      if (keyText === undefined) {
        this.problem({ key: at.key, line: keyLine }, 'keys must be plain words');
        continue;
      }
      const value = this.#deref(pair.value);
      out.set(keyText, { node: value, key: `${at.key}.${keyText}`, line: this.lineOf(value) ?? keyLine });
    }
    return out;
  }

  isMap(at: Located): boolean {
    return isMap(at.node);
  }

  list(at: Located): Located[] | undefined {
    if (!isSeq(at.node)) return this.problem(at, `must be a list (lines starting with \`- \`), not ${describe(at.node)}`);
    return at.node.items.map((item, index) => {
      const node = this.#deref(item);
      return { node, key: `${at.key}[${index}]`, line: this.lineOf(node) ?? at.line };
    });
  }

  /** The plain value of a scalar node (string, number, boolean, null). */
  scalar(at: Located): unknown {
    return isScalar(at.node) ? at.node.value : at.node === null ? null : undefined;
  }

  string(at: Located, what = 'text'): string | undefined {
    const value = this.scalar(at);
    if (typeof value === 'string' && value.trim() !== '') return value;
    return this.problem(at, `must be ${what}, not ${describe(at.node)}`);
  }

  boolean(at: Located): boolean | undefined {
    const value = this.scalar(at);
    if (typeof value === 'boolean') return value;
    return this.problem(at, `must be true or false, not ${describe(at.node)}`);
  }

  integer(at: Located, min: number, max: number): number | undefined {
    const value = this.scalar(at);
    if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
    return this.problem(at, `must be a whole number from ${min} to ${max}, not ${describe(at.node)}`);
  }

  oneOf<T extends string>(at: Located, choices: readonly T[]): T | undefined {
    const value = this.scalar(at);
    if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as T;
    return this.problem(at, `must be one of ${choices.join(', ')}, not ${describe(at.node)}`);
  }

  /** A byte size: a whole number, or text with a unit (`512kb`, `64MB`, `1 MiB`; units are powers of 1024). */
  size(at: Located): number | undefined {
    const value = this.scalar(at);
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
    if (typeof value === 'string') {
      const match = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|kib|k|mb|mib|m|gb|gib|g)?\s*$/i.exec(value);
      if (match) {
        const unit = (match[2] ?? 'b').toLowerCase()[0]!;
        const bytes = Math.floor(Number(match[1]) * (unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1));
        if (bytes > 0) return bytes;
      }
    }
    return this.problem(at, `must be a size in bytes (a number, or text like 512kb or 64MB), not ${describe(at.node)}`);
  }

  stringList(at: Located, what = 'text'): string[] | undefined {
    // A single string is accepted where a list is expected: `allowedOrigins: https://x.example`.
    if (isScalar(at.node) && typeof at.node.value === 'string') return [at.node.value];
    const items = this.list(at);
    if (!items) return undefined;
    const out: string[] = [];
    for (const item of items) {
      const value = this.string(item, what);
      if (value !== undefined) out.push(value);
    }
    return out;
  }

  /** `${ENV_VAR}` -> `{ env }`. A literal value is refused without echoing it: it is a secret in a file. */
  secret(at: Located): SecretRef | undefined {
    const value = this.scalar(at);
    if (typeof value === 'string') {
      const match = SECRET_REF.exec(value.trim());
      if (match) return this.envRef(at, match[1]!);
    }
    if (value === undefined || value === null || typeof value === 'object') {
      return this.problem(at, `must be an environment variable reference like \${MY_API_TOKEN}, not ${describe(at.node)}`);
    }
    return this.problem(
      at,
      'secrets are never written in svc.yaml: write an environment variable reference like ${MY_API_TOKEN} ' +
        'and set that variable where svc runs (the literal value was not shown)',
    );
  }

  /**
   * A secret too short to redact (it would blank ordinary text, or be left visible) is refused now,
   * not at the first request. An unset variable is fine here: it is reported when it is needed.
   */
  private envRef(at: Located, env: string): SecretRef | undefined {
    const value = process.env[env];
    if (value !== undefined && value !== '' && value.length < MIN_SECRET_LENGTH) {
      return this.problem(
        at,
        `the value of \${${env}} is shorter than ${MIN_SECRET_LENGTH} characters; svc refuses secrets that short because it cannot keep them out of its output ` +
          '(use the real credential, or unset the variable)',
      );
    }
    return { env };
  }

  /** A value that may be plain text or a secret reference. */
  textOrSecret(at: Located): SecretRef | string | undefined {
    const value = this.scalar(at);
    if (typeof value === 'string') {
      const match = SECRET_REF.exec(value.trim());
      if (match) return this.envRef(at, match[1]!);
      if (value.includes('${')) {
        return this.problem(at, 'an environment variable reference must be the whole value (`${NAME}`), not part of it');
      }
      return value;
    }
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    return this.problem(at, `must be text or \${ENV_VAR}, not ${describe(at.node)}`);
  }
}

/** A short description of what the user wrote, for "must be X, not Y". Never used on secret fields. */
export function describe(node: unknown): string {
  if (node === null || node === undefined) return 'empty';
  if (isMap(node)) return 'a mapping';
  if (isSeq(node)) return 'a list';
  if (isScalar(node)) {
    const value = node.value;
    if (value === null) return 'empty';
    if (typeof value === 'string') {
      if (value.trim() === '') return 'empty text';
      return `\`${value.length > 40 ? `${value.slice(0, 40)}...` : value}\``;
    }
    if (typeof value === 'number') return `the number ${value}`;
    if (typeof value === 'boolean') return `${value}`;
  }
  return 'something else';
}
