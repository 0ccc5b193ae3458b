// What an update changed in one spec: endpoints added, removed, and changed (same id, different
// content). Content is everything an LLM can see of the endpoint, including the schemas its
// `$ref`s lead to: editing `components/schemas/Pet` changes every endpoint that uses Pet.
// Where an endpoint sits in its file (`source`) is not content: inserting a line above an
// operation moves it without changing it.
import { createHash } from 'node:crypto';
import type { Endpoint, SchemaLink } from '../model/endpoint.ts';
import type { ImportedSpec } from '../model/spec.ts';

export interface EndpointDiff {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
}

export const NO_DIFF: EndpointDiff = { added: [], removed: [], changed: [] };

/** Fingerprints per spec version, computed once: the next update compares against them again. */
const FINGERPRINTS = new WeakMap<ImportedSpec, Map<string, string>>();

export function diffSpecs(before: ImportedSpec | undefined, after: ImportedSpec | undefined): EndpointDiff {
  if (before === after) return NO_DIFF;
  const old = before ? fingerprints(before) : new Map<string, string>();
  const now = after ? fingerprints(after) : new Map<string, string>();
  const added: string[] = [];
  const changed: string[] = [];
  for (const [id, print] of now) {
    const prev = old.get(id);
    if (prev === undefined) added.push(id);
    else if (prev !== print) changed.push(id);
  }
  const removed = [...old.keys()].filter((id) => !now.has(id));
  return { added, removed, changed };
}

/**
 * Computes a version's fingerprints ahead of time (the daemon does this for the specs it started
 * with, while idle), so the first update after start only fingerprints the new version.
 */
// Stryker disable next-line BlockStatement: a cache warm-up; diffSpecs computes the same prints when it is skipped
export function prepareDiff(spec: ImportedSpec): void {
  // Fingerprints that came with the spec are ready already (and cheaper kept as bytes until used).
  // Stryker disable next-line BooleanLiteral,ConditionalExpression,CallExpression: a cache warm-up, as above (preset prints are read the same way now or at the first diff)
  if (!PRESET.has(spec)) fingerprints(spec);
}

/** Fingerprints of `spec`'s endpoints in endpoint order (computed where the documents are: a worker). */
export function fingerprintList(spec: ImportedSpec): string[] {
  const prints = fingerprints(spec);
  // Stryker disable next-line StringLiteral: every endpoint has a print (fingerprints covers them all)
  return spec.endpoints.map((e) => prints.get(e.id) ?? '');
}

/** Fingerprints computed elsewhere (`fingerprintList`, as JSON bytes) for a spec rebuilt without its documents; read on the first diff. */
export function presetFingerprints(spec: ImportedSpec, prints: Uint8Array): void {
  PRESET.set(spec, prints);
}

const PRESET = new WeakMap<ImportedSpec, Uint8Array>();

function fingerprints(spec: ImportedSpec): Map<string, string> {
  const known = FINGERPRINTS.get(spec);
  // Stryker disable next-line ConditionalExpression: the cache; prints are computed again the same way without it
  if (known) return known;
  const preset = PRESET.get(spec);
  if (preset) {
    const prints = JSON.parse(Buffer.from(preset).toString('utf8')) as string[];
    const out = new Map<string, string>();
    // Stryker disable next-line StringLiteral: a missing print only has to differ from every real one (a base64 digest), which any fixed text does
    spec.endpoints.forEach((e, i) => out.set(e.id, prints[i] ?? ''));
    FINGERPRINTS.set(spec, out);
    // Stryker disable next-line CallExpression: frees the bytes only; FINGERPRINTS answers first from now on
    PRESET.delete(spec);
    return out;
  }
  const refs = new RefDigests(spec);
  const out = new Map<string, string>();
  for (const e of spec.endpoints) out.set(e.id, endpointPrint(e, refs));
  // Stryker disable next-line CallExpression: the cache, as above
  FINGERPRINTS.set(spec, out);
  return out;
}

function endpointPrint(e: Endpoint, refs: RefDigests): string {
  // The texts are hashed as one string (the same digest as one update each): every update crosses
  // into the hash's native code and encodes its string apart, which cost more than the hashing.
  // Stryker disable next-line ArrayDeclaration: a fixed first part is the same in every print
  const parts: string[] = [];
  try {
    const { source: _source, ...content } = e;
    // Schema nodes are left out here and hashed one by one below, each serialized once.
    parts.push(JSON.stringify(content, withoutSchemaNodes));
    for (const link of schemaLinks(e)) {
      // Stryker disable next-line StringLiteral: a node that does not serialize only needs the same text every time
      const text = JSON.stringify(link.node) ?? 'undefined';
      parts.push(text);
      // Stryker disable next-line ConditionalExpression,StringLiteral: a shortcut; refsIn finds no $ref in text without one
      if (text.includes('"$ref"')) for (const ref of refsIn(text)) parts.push(refs.digest(link.file, ref));
    }
  } catch {
    // A document too deep to serialize (hostile input): call it changed rather than fail the update.
    return createHash('sha1').update(`unprintable:${Math.random()}`).digest('base64');
  }
  // Stryker disable next-line StringLiteral: the parts are JSON texts and fixed-length digests, which a separator does not make tell apart better
  return createHash('sha1').update(parts.join('')).digest('base64');
}

// A schema link ({file, node}) is hashed on its own; the absolute file is where, not what.
// `this` is the object holding `key` (JSON.stringify calls replacers on their holder).
function withoutSchemaNodes(this: object, key: string, value: unknown): unknown {
  if (key === 'file') return 'node' in this ? undefined : value;
  // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,StringLiteral: keeping a link's node only hashes it twice (it is hashed on its own); dropping it is for speed
  return key === 'node' && 'file' in this ? undefined : value;
}

function schemaLinks(e: Endpoint): SchemaLink[] {
  // Stryker disable next-line ArrayDeclaration: a made-up item has no node, so it adds the same text to every print
  const links: SchemaLink[] = [];
  for (const p of e.parameters) if (p.schema) links.push(p.schema);
  // Stryker disable next-line ArrayDeclaration: iterating a made-up string item finds no schema either
  for (const c of e.requestBody?.contents ?? []) if (c.schema) links.push(c.schema);
  for (const r of e.responses) if (r.schema) links.push(r.schema);
  return links;
}

const REF = /"\$ref":("(?:[^"\\]|\\.)*")/g;

/**
 * Every `$ref` string inside a node's JSON text, in document order. Scanning the text that is
 * hashed anyway is several times cheaper than walking the object tree again.
 */
function refsIn(json: string): string[] {
  // Stryker disable next-line ArrayDeclaration: a made-up ref resolves to nothing, the same in every print
  const out: string[] = [];
  // The regex captures a JSON string literal: it parses to a string.
  for (const m of json.matchAll(REF)) out.push(JSON.parse(m[1]!) as string);
  return out;
}

/**
 * A digest of what a `$ref` leads to, following nested refs; each target is read once per version.
 * Schemas that reach each other (Pet -> Tag -> Pet) form one strongly connected group: a digest
 * taken inside the group, where the walk cut the cycle, depends on where the walk came in, so
 * every member gets the group's digest, taken at its first member once the whole group is walked
 * (Tarjan's algorithm). Caching a member's partial digest instead would hide a change in Pet from
 * an endpoint that reaches Tag first.
 */
class RefDigests {
  readonly #spec: ImportedSpec;
  readonly #done = new Map<string, string>();
  /** Keys being walked or waiting for their group's root, in walk order; value: position. */
  readonly #open = new Map<string, number>();
  // Stryker disable next-line ArrayDeclaration: a made-up first entry only shifts every position by one
  readonly #order: string[] = [];

  constructor(spec: ImportedSpec) {
    this.#spec = spec;
  }

  digest(file: string, ref: string): string {
    return this.#visit(file, ref).digest;
  }

  /** `low`: the earliest open position this walk reached (a cycle back into an open group). */
  #visit(file: string, ref: string): { digest: string; low: number } {
    const key = `${file}|${ref}`;
    const known = this.#done.get(key);
    // Stryker disable next-line ConditionalExpression: the cache; walking a finished group again gives a digest over the same schemas
    if (known !== undefined) return { digest: known, low: Infinity };
    const open = this.#open.get(key);
    // Stryker disable next-line StringLiteral: the placeholder's text is the same for every walk; the group's digest covers the target
    if (open !== undefined) return { digest: `cycle:${ref}`, low: open };
    const position = this.#order.length;
    this.#open.set(key, position);
    this.#order.push(key);
    let target: SchemaLink;
    try {
      target = this.#spec.schemas.shallow({ file, node: { $ref: ref } });
    } catch {
      // Stryker disable next-line ObjectLiteral: the placeholder is the same for every walk; the endpoint's own text names the ref
      target = { file, node: { $unresolved: ref } };
    }
    const h = createHash('sha1');
    // Stryker disable next-line StringLiteral: as in endpointPrint
    const text = JSON.stringify(target.node) ?? 'undefined';
    h.update(text);
    let low = Infinity;
    // Stryker disable next-line ConditionalExpression,StringLiteral: a shortcut; refsIn finds no $ref in text without one
    if (text.includes('"$ref"')) {
      for (const inner of refsIn(text)) {
        const sub = this.#visit(target.file, inner);
        h.update(sub.digest);
        low = Math.min(low, sub.low);
      }
    }
    // Stryker disable next-line StringLiteral: without an encoding the digest is a Buffer, hashed the same way
    const digest = h.digest('base64');
    if (low < position) return { digest, low };
    // The first member of its group: everything opened since belongs to the group.
    for (const member of this.#order.splice(position)) {
      // Stryker disable next-line CallExpression: a finished member is found in #done first
      this.#open.delete(member);
      // Stryker disable next-line CallExpression: the cache; see above
      this.#done.set(member, digest);
    }
    return { digest, low: Infinity };
  }
}
