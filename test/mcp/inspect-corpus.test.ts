// inspect's fixed rules over every endpoint of the real-world corpus (../shared/specs, 71
// descriptions written by others): `METHOD /path` first; a deprecated endpoint's notice next;
// the summary and the description as the source has them; the parameters, one line each as
// `name (location, type[, required]...)`, as many as the endpoint has; the responses last, one
// line each, a status code and a short label. Skipped as a whole when the corpus folder is absent.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { importSpec } from '../../src/import/index.ts';
import type { Endpoint, ImportedSpec } from '../../src/model/index.ts';
import { safeLine } from '../../src/model/safe-text.ts';
import { renderInspect } from '../../src/tools/inspect-text.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const corpus = path.resolve(repoRoot, '../shared/specs');
const manifest = path.join(corpus, 'MANIFEST.tsv');
const present = existsSync(manifest);

/** Endpoints checked per description at most (spread over it): the rules are per endpoint. */
const PER_DESCRIPTION = 150;
const LOCATIONS = new Set(['path', 'query', 'header', 'cookie', 'body', 'formData']);

function documents(): string[] {
  const [header, ...lines] = readFileSync(manifest, 'utf8').trim().split('\n');
  const at = header!.split('\t').indexOf('path');
  return lines.map((line) => line.split('\t')[at]!);
}

function spread<T>(xs: readonly T[], n: number): T[] {
  if (xs.length <= n) return [...xs];
  return Array.from({ length: n }, (_, i) => xs[Math.floor((i * xs.length) / n)]!);
}

/**
 * A parameter line's type and whether it says `required`, for a line that starts with `start`
 * (`  name (location, `); undefined for another line. The type is svc's own label, read up to the
 * comma or bracket that ends it outside brackets (`integer(int64)`, `(a|b)[]`); what follows it
 * (`required`, an example cut short, a description) is read only for its first flag.
 */
function typeAndRequired(line: string, start: string): { type: string; required: boolean } | undefined {
  if (!line.startsWith(start)) return undefined;
  const rest = line.slice(start.length);
  let depth = 0;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i];
    if (depth === 0 && (c === ',' || c === ')')) return { type: rest.slice(0, i), required: /^, required[,)]/.test(rest.slice(i)) };
    if (c === '(' || c === '[') depth++;
    if (c === ')' || c === ']') depth--;
  }
  return undefined;
}

/** The problems of one endpoint's inspect text with the fixed rules, or none. */
function problems(endpoint: Endpoint, spec: ImportedSpec): string[] {
  const text = renderInspect(endpoint, spec);
  const out: string[] = [];
  const head = [safeLine(`${endpoint.method} ${endpoint.path}`)];
  if (endpoint.deprecated) head.push('Deprecated: yes, prefer another endpoint for new work');
  if (endpoint.summary !== undefined) head.push(`Summary: ${endpoint.summary.trimEnd()}`);
  if (endpoint.description !== undefined) head.push(`Description: ${endpoint.description.trimEnd()}`);
  const prefix = `${head.join('\n')}\n`;
  if (!text.startsWith(prefix)) return [`does not start with the method and path, the notice, the summary and the description as the source has them`];
  const rest = text.slice(prefix.length).split('\n');
  if (endpoint.parameters.length === 0) {
    if (rest[0] !== 'Parameters: none') out.push(`parameters: ${JSON.stringify(rest[0])} where none are`);
  } else {
    if (rest[0] !== 'Parameters:') out.push(`no "Parameters:" line after the description`);
    endpoint.parameters.forEach((p, i) => {
      const line = rest[1 + i] ?? '';
      const read = typeAndRequired(line, `  ${safeLine(p.name)} (${p.in}, `);
      if (!read || !LOCATIONS.has(p.in) || read.type === '') out.push(`parameter line ${i + 1} is ${JSON.stringify(line)} for ${p.name} in ${p.in}`);
      else if (read.required !== Boolean(p.required)) out.push(`parameter ${p.name}: required is ${Boolean(p.required)}, the line says otherwise`);
    });
  }
  const at = rest.findIndex((l) => l === 'Responses:' || l === 'Responses: none documented');
  if (at < 0) return [...out, 'no "Responses:" line'];
  if (endpoint.responses.length === 0) {
    if (rest[at] !== 'Responses: none documented' || at !== rest.length - 1) out.push('responses: none are documented, the text says otherwise');
    return out;
  }
  // One line each at two spaces (the success response's fields stand under its line, deeper).
  const lines = rest.slice(at + 1).filter((l) => /^ {2}\S/.test(l));
  if (lines.length !== endpoint.responses.length) out.push(`${lines.length} response lines for ${endpoint.responses.length} responses`);
  endpoint.responses.forEach((r, i) => {
    const line = lines[i] ?? '';
    if (!line.startsWith(`  ${safeLine(r.status)}`)) out.push(`response line ${i + 1} is ${JSON.stringify(line)} for ${r.status}`);
    // A short label: the status, a space and at most 80 characters.
    if (line.length > 2 + safeLine(r.status).length + 1 + 80) out.push(`response ${r.status}: a label of ${line.length} characters`);
  });
  return out;
}

describe('inspect over the real-world corpus', { skip: present ? false : `corpus not found at ${corpus} (../shared/specs): skipping` }, () => {
  for (const rel of present ? documents() : []) {
    it(`keeps the fixed order and one line per parameter and response: ${rel}`, async () => {
      const outcome = await importSpec(path.join(corpus, rel), { name: 'corpus', collection: 'corpus' });
      assert.ok(outcome.ok, `${rel} imports`);
      const found: string[] = [];
      for (const endpoint of spread(outcome.spec.endpoints, PER_DESCRIPTION)) {
        for (const p of problems(endpoint, outcome.spec)) found.push(`${endpoint.method} ${endpoint.path}: ${p}`);
      }
      assert.deepEqual(found.slice(0, 10), [], `${found.length} problem(s)`);
    });
  }
});
