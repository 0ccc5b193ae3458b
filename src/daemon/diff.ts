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
export function prepareDiff(spec: ImportedSpec): void {
  // Fingerprints that came with the spec are ready already (and cheaper kept as bytes until used).
  if (!PRESET.has(spec)) fingerprints(spec);
}

/** Fingerprints of `spec`'s endpoints in endpoint order (computed where the documents are: a worker). */
export function fingerprintList(spec: ImportedSpec): string[] {
  const prints = fingerprints(spec);
  return spec.endpoints.map((e) => prints.get(e.id) ?? '');
}

/** Fingerprints computed elsewhere (`fingerprintList`, as JSON bytes) for a spec rebuilt without its documents; read on the first diff. */
export function presetFingerprints(spec: ImportedSpec, prints: Uint8Array): void {
  PRESET.set(spec, prints);
}

const PRESET = new WeakMap<ImportedSpec, Uint8Array>();

function fingerprints(spec: ImportedSpec): Map<string, string> {
  const known = FINGERPRINTS.get(spec);
  if (known) return known;
  const preset = PRESET.get(spec);
  if (preset) {
    const prints = JSON.parse(Buffer.from(preset).toString('utf8')) as string[];
    const out = new Map<string, string>();
    spec.endpoints.forEach((e, i) => out.set(e.id, prints[i] ?? ''));
    FINGERPRINTS.set(spec, out);
    PRESET.delete(spec);
    return out;
  }
  const refs = new RefDigests(spec);
  const out = new Map<string, string>();
  for (const e of spec.endpoints) out.set(e.id, endpointPrint(e, refs));
  FINGERPRINTS.set(spec, out);
  return out;
}

function endpointPrint(e: Endpoint, refs: RefDigests): string {
  const h = createHash('sha1');
  try {
    const { source: _source, ...content } = e;
    // Schema nodes are left out here and hashed one by one below, each serialized once.
    h.update(JSON.stringify(content, withoutSchemaNodes));
    for (const link of schemaLinks(e)) {
      const text = JSON.stringify(link.node) ?? 'undefined';
      h.update(text);
      if (text.includes('"$ref"')) for (const ref of refsIn(text)) h.update(refs.digest(link.file, ref));
    }
  } catch {
    // A document too deep to serialize (hostile input): call it changed rather than fail the update.
    h.update(`unprintable:${Math.random()}`);
  }
  return h.digest('base64');
}

// A schema link ({file, node}) is hashed on its own; the absolute file is where, not what.
function withoutSchemaNodes(this: unknown, key: string, value: unknown): unknown {
  return (key === 'file' || key === 'node') && this !== null && typeof this === 'object' && 'node' in this && 'file' in this ? undefined : value;
}

function schemaLinks(e: Endpoint): SchemaLink[] {
  const links: SchemaLink[] = [];
  for (const p of e.parameters) if (p.schema) links.push(p.schema);
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
  const out: string[] = [];
  for (const m of json.matchAll(REF)) {
    const ref = JSON.parse(m[1]!) as unknown;
    if (typeof ref === 'string') out.push(ref);
  }
  return out;
}

/** A digest of what a `$ref` leads to, following nested refs; each target is read once per version. */
class RefDigests {
  readonly #spec: ImportedSpec;
  readonly #done = new Map<string, string>();
  readonly #active = new Set<string>();

  constructor(spec: ImportedSpec) {
    this.#spec = spec;
  }

  digest(file: string, ref: string): string {
    const key = `${file}|${ref}`;
    const known = this.#done.get(key);
    if (known !== undefined) return known;
    if (this.#active.has(key)) return `cycle:${ref}`;
    this.#active.add(key);
    let target: SchemaLink;
    try {
      target = this.#spec.schemas.shallow({ file, node: { $ref: ref } });
    } catch {
      target = { file, node: { $unresolved: ref } };
    }
    const h = createHash('sha1');
    const text = JSON.stringify(target.node) ?? 'undefined';
    h.update(text);
    if (text.includes('"$ref"')) for (const inner of refsIn(text)) h.update(this.digest(target.file, inner));
    this.#active.delete(key);
    const d = h.digest('base64');
    this.#done.set(key, d);
    return d;
  }
}
