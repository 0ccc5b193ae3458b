// YAML descriptions read fast: js-yaml, several times faster than `yaml`, for the documents both
// read alike (the common case: no aliases, directives or standard tags). Everything else is left
// to read.ts's `yaml` reading, with its line:column errors, warnings and alias bounds.
import { CORE_SCHEMA, defineMappingTag, defineScalarTag, floatCoreTag, intCoreTag, load as loadYaml, mergeTag, NOT_RESOLVED, type ScalarTagDefinition } from 'js-yaml';

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

/** Plain scalars written as a hex or octal integer, or as a float (decimal integers too), whatever their size. */
const INT_LIKE = /^(?:0x[0-9a-fA-F]+|0o[0-7]+)$/;
const FLOAT_LIKE = /^[-+]?(?=\.?[0-9])[0-9]*\.?[0-9]*(?:[eE][-+]?[0-9]+)?$/;

/** Thrown by the number tags: the document goes the careful way. */
class NumberBeyondDouble extends Error {}

/**
 * js-yaml's core number tag, except that a number too large for a double (`1e400`, 400 digits),
 * which js-yaml keeps as a string and `yaml` reads as Infinity, sends the document the careful way.
 */
function numberTag<T>(tag: ScalarTagDefinition<T>, written: RegExp): ScalarTagDefinition<T> {
  return defineScalarTag<T>(tag.tagName, {
    implicit: tag.implicit,
    implicitFirstChars: tag.implicitFirstChars,
    identify: tag.identify,
    represent: tag.represent,
    resolve: (source, explicit, name) => {
      const value = tag.resolve(source, explicit, name);
      if (value === NOT_RESOLVED && written.test(source)) throw new NumberBeyondDouble(source);
      return value;
    },
  });
}

/**
 * js-yaml's YAML 1.2 core schema with merge keys, `yaml`'s mappings and its large numbers: scalars
 * and keys resolve as `yaml`'s core schema (read.ts `parseYaml`) resolves them.
 */
const FAST_SCHEMA = CORE_SCHEMA.withTags(mergeTag, stringKeyedMap, numberTag(intCoreTag, INT_LIKE), numberTag(floatCoreTag, FLOAT_LIKE));

/**
 * Whether the text may hold what `yaml` reads with a warning or under other rules: a directive
 * (`%YAML 1.1`, `%TAG`), a standard tag (`!!float 1` is a number to js-yaml, a string and a warning
 * to `yaml`), an anchor whose name ends in a colon (`&a: 1`), a lone carriage return, an empty key,
 * a document end marker (`...`), a line that starts with a tab. A match in prose is harmless: that
 * document is only read the slower way.
 */
function readsDifferently(text: string): boolean {
  if (lineReadsDifferently(text, 0)) return true;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) if (lineReadsDifferently(text, i + 1)) return true;
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
 * Whether the line at `i` starts with what the readers take differently: a directive (`%`); a
 * document end marker (`...`: `yaml` refuses content after one without a new start, js-yaml reads
 * it); a tab (`yaml` takes it for indentation, `a:\n\t` is an error, js-yaml for a blank); an empty key.
 */
function lineReadsDifferently(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c === 0x25 /* % */ || c === 9 || text.startsWith('...', i) || startsWithEmptyKey(text, i);
}

/**
 * Whether the line at `i` starts with an empty key (`: value`, after its indentation and any `- `):
 * js-yaml reads `: a: b` as a mapping under the key "", `yaml` refuses it. Not the value of an
 * explicit key (`? key` on a line before, at the same indentation), which both read alike.
 */
function startsWithEmptyKey(text: string, i: number): boolean {
  let j = i;
  for (;;) {
    while (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9) j++;
    if (text.charCodeAt(j) !== 0x2d /* - */ || !isSpaceOrEnd(text.charCodeAt(j + 1))) break;
    j++;
  }
  if (text.charCodeAt(j) !== 0x3a /* : */ || !isSpaceOrEnd(text.charCodeAt(j + 1))) return false;
  return !explicitKeyBefore(text, i, j - i);
}

/** Whether the nearest line before the one at `i` that is indented `indent` or less is `? ...` indented `indent`. */
function explicitKeyBefore(text: string, i: number, indent: number): boolean {
  let end = i - 1;
  while (end > 0) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    let k = start;
    while (k < end && text.charCodeAt(k) === 32) k++;
    const c = text.charCodeAt(k);
    // Blank lines, comments, and lines indented deeper (the key's own text) are passed over.
    if (k < end && c !== 0x23 /* # */ && c !== 13 && k - start <= indent) return k - start === indent && c === 0x3f /* ? */ && isSpaceOrEnd(text.charCodeAt(k + 1));
    end = start - 1;
  }
  return false;
}

/** A space, a tab, a line end, or past the end of the text. */
function isSpaceOrEnd(c: number): boolean {
  return c !== c || c === 32 || c === 9 || c === 10 || c === 13;
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
