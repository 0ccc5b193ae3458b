// YAML descriptions read fast: js-yaml, several times faster than `yaml`, for the documents both
// read alike (the common case: no aliases, directives or standard tags). Everything else is left
// to read.ts's `yaml` reading, with its line:column errors, warnings and alias bounds.
import { CORE_SCHEMA, defineMappingTag, load as loadYaml, mergeTag } from 'js-yaml';

/**
 * Mappings as `yaml` makes them: a plain object, its keys as strings, a null key as "" (js-yaml's
 * own mapping says "null"), `__proto__` an own key like any other; a key that is a collection is
 * refused (the document then goes the careful way).
 */
const stringKeyedMap = defineMappingTag<Record<string, unknown>>('tag:yaml.org,2002:map', {
  create: () => ({}),
  // Stryker disable next-line all: for dumping, which svc never does with this schema
  identify: () => false,
  addPair: (map, key, value) => {
    if (key !== null && typeof key === 'object') return 'a key that is a collection';
    const name = keyString(key);
    // An own property named `__proto__`, not the object's prototype.
    // Stryker disable next-line ConditionalExpression: defining every key makes the same object, only more slowly
    if (name === '__proto__') Object.defineProperty(map, name, { value, enumerable: true, configurable: true, writable: true });
    else map[name] = value;
    return '';
  },
  has: (map, key) => Object.hasOwn(map, keyString(key)),
  keys: (map) => Object.keys(map),
  get: (map, key) => (Object.hasOwn(map, keyString(key)) ? map[keyString(key)] : null),
});

function keyString(key: unknown): string {
  return key === null ? '' : String(key);
}

/** js-yaml's YAML 1.2 core schema with merge keys and `yaml`'s mappings: scalars and keys resolve as `yaml`'s core schema (read.ts `parseYaml`) resolves them. */
const FAST_SCHEMA = CORE_SCHEMA.withTags(mergeTag, stringKeyedMap);

/**
 * Whether the text may hold what `yaml` reads with a warning or under other rules: a directive
 * (`%YAML 1.1`, `%TAG`), a standard tag (`!!float 1` is a number to js-yaml, a string and a warning
 * to `yaml`), an anchor whose name ends in a colon (`&a: 1`), a lone carriage return. A match in prose is harmless: that
 * document is only read the slower way.
 */
function readsDifferently(text: string): boolean {
  if (text.charCodeAt(0) === 0x25 /* % */ || text.includes('\n%')) return true;
  // A line break that is a carriage return alone: `yaml` does not end a comment there, js-yaml does.
  for (let i = text.indexOf('\r'); i !== -1; i = text.indexOf('\r', i + 1)) if (text.charCodeAt(i + 1) !== 10) return true;
  for (const tag of ['!!', '!<']) {
    for (let i = text.indexOf(tag); i !== -1; i = text.indexOf(tag, i + 2)) if (startsToken(text, i)) return true;
  }
  for (let i = text.indexOf('&'); i !== -1; i = text.indexOf('&', i + 1)) {
    if (!startsToken(text, i)) continue;
    let end = i + 1;
    // Stryker disable next-line EqualityOperator: one step past the end reads undefined and stops there, with the same last character
    while (end < text.length && !' \t\r\n{}[],'.includes(text[end]!)) end++;
    if (text.charCodeAt(end - 1) === 0x3a /* : */) return true;
  }
  return false;
}

/**
 * Whether `text[i]` may begin a tag or an anchor: first in the text, or after a space, a line feed
 * or a flow indicator (not "Hi!</Say>", "AT&T"). A carriage return comes before a line feed here.
 */
function startsToken(text: string, i: number): boolean {
  if (i === 0) return true;
  const c = text.charCodeAt(i - 1);
  return c === 32 || c === 9 || c === 10 || c === 0x7b /* { */ || c === 0x2c /* , */ || c === 0x5b /* [ */;
}

/**
 * The common YAML description read by js-yaml, several times faster than `yaml` (Stripe's 4 MB:
 * 0.1 s against 0.8 s), with the same value: the same core schema, merge keys, no aliases at all.
 * Undefined for anything else, which `parseYaml` reads with its line:column errors, warnings and
 * alias bounds as before: a directive, a standard tag, any alias (js-yaml would share the aliased
 * node; `yaml` bounds their expansion), a duplicate key (`yaml` keeps the last), an unknown tag, a
 * collection as a key, nesting over 100 deep, several documents or none: whatever js-yaml refuses.
 */
export function fastYaml(text: string): { value: unknown } | undefined {
  if (readsDifferently(text)) return undefined;
  let value: unknown;
  try {
    value = loadYaml(text, { schema: FAST_SCHEMA, maxAliases: 0 });
  } catch {
    return undefined;
  }
  return { value };
}
