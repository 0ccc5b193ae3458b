// diffSpecs from its contract, on real imports of generated specs: every id of the new version that
// the old lacks is added, every id the old had and the new lacks is removed, every id in both whose
// visible content differs is changed, each exactly once and in document order; nothing else.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { diffSpecs, NO_DIFF, prepareDiff } from '../../src/daemon/diff.ts';
import { specImporter } from './support.ts';
import type { ImportedSpec } from '../../src/model/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-diffprop-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const imported = specImporter(dir);

interface Op {
  readonly path: string;
  readonly method: 'get' | 'post' | 'delete';
  /** Visible content that may change: the summary and the type of a parameter. */
  readonly summary: string;
  readonly type: 'string' | 'integer';
}

const idOf = (op: Op): string => `s:${op.method.toUpperCase()}:${op.path}`;

function yamlOf(ops: readonly Op[], filler = 0): string {
  const lines = ['openapi: 3.0.3', "info: { title: T, version: '1' }", 'paths:'];
  // Blank operations-free paths first move every operation down without changing it.
  for (let i = 0; i < filler; i++) lines.push(`  /filler${i}: {}`);
  const byPath = new Map<string, Op[]>();
  for (const op of ops) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  for (const [path, list] of byPath) {
    lines.push(`  ${path}:`);
    for (const op of list) {
      lines.push(
        `    ${op.method}:`,
        `      summary: ${JSON.stringify(op.summary)}`,
        `      parameters: [{ name: q, in: query, schema: { type: ${op.type} } }]`,
        "      responses: { '200': { description: OK } }",
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

const op = fc.record({
  path: fc.constantFrom('/a', '/b', '/c/{id}', '/d'),
  method: fc.constantFrom('get' as const, 'post' as const, 'delete' as const),
  summary: fc.constantFrom('one', 'two'),
  type: fc.constantFrom('string' as const, 'integer' as const),
});
const ops = fc.uniqueArray(op, { maxLength: 8, selector: (o) => `${o.method} ${o.path}` });

describe('diffSpecs', () => {
  test('added, removed and changed are exactly the set differences and the content changes, in order', async () => {
    await fc.assert(
      fc.asyncProperty(ops, ops, fc.integer({ min: 0, max: 2 }), async (before, afterOps, filler) => {
        const a = await imported(yamlOf(before));
        const b = await imported(yamlOf(afterOps, filler));
        const old = new Map(before.map((o) => [idOf(o), o]));
        const now = new Map(afterOps.map((o) => [idOf(o), o]));
        const inOrder = (spec: ImportedSpec, keep: (id: string) => boolean): string[] => spec.endpoints.map((e) => e.id).filter(keep);
        const expected = {
          added: inOrder(b, (id) => !old.has(id)),
          removed: inOrder(a, (id) => !now.has(id)),
          changed: inOrder(b, (id) => {
            const x = old.get(id);
            const y = now.get(id);
            return x !== undefined && y !== undefined && (x.summary !== y.summary || x.type !== y.type);
          }),
        };
        if (Math.random() < 0.5) prepareDiff(a);
        assert.deepEqual(diffSpecs(a, b), expected);
        // Asked again (fingerprints cached), and the other way round.
        assert.deepEqual(diffSpecs(a, b), expected);
        assert.deepEqual(diffSpecs(b, a), { added: expected.removed.length ? inOrder(a, (id) => !now.has(id)) : [], removed: inOrder(b, (id) => !old.has(id)), changed: inOrder(a, (id) => expected.changed.includes(id)) });
      }),
      { numRuns: 40 },
    );
  });

  test('a version against itself, a new spec and a removed spec', async () => {
    const spec = await imported(yamlOf([{ path: '/a', method: 'get', summary: 'one', type: 'string' }, { path: '/b', method: 'post', summary: 'two', type: 'integer' }]));
    assert.equal(diffSpecs(spec, spec), NO_DIFF);
    assert.deepEqual(diffSpecs(undefined, spec), { added: ['s:GET:/a', 's:POST:/b'], removed: [], changed: [] });
    assert.deepEqual(diffSpecs(spec, undefined), { added: [], removed: ['s:GET:/a', 's:POST:/b'], changed: [] });
    assert.deepEqual(diffSpecs(undefined, undefined), NO_DIFF);
  });
});

describe('what counts as content', () => {
  const withSchemas = (pet: string, tag: string, extra = ''): string => `openapi: 3.0.3
info: { title: T, version: '1' }
paths:
  /pets:
    get:
      responses:
        '200':
          description: OK
          content: { application/json: { schema: { $ref: '#/components/schemas/Pet' } } }
  /tags:
    post:
      requestBody:
        content: { application/json: { schema: { $ref: '#/components/schemas/Tag' } } }
      responses: { '204': { description: done } }
  /plain:
    get:
      parameters: [{ name: p, in: query, schema: { type: string } }]
      responses: { '200': { description: OK } }
components:
  schemas:
    Pet: { type: object, properties: { name: { type: ${pet} }, tag: { $ref: '#/components/schemas/Tag' }, self: { $ref: '#/components/schemas/Pet' } } }
    Tag: { type: object, properties: { label: { type: ${tag} }, back: { $ref: '#/components/schemas/Pet' } } }
${extra}`;

  test('a change behind a $ref marks every endpoint that reaches it, through nested and circular refs, and no other', async () => {
    const base = await imported(withSchemas('string', 'string'));
    const tag = await imported(withSchemas('string', 'integer'));
    const pet = await imported(withSchemas('integer', 'string'));
    const unused = await imported(withSchemas('string', 'string', '    Unused: { type: integer }\n'));
    assert.deepEqual(diffSpecs(base, tag).changed, ['s:GET:/pets', 's:POST:/tags']);
    assert.deepEqual(diffSpecs(base, pet).changed, ['s:GET:/pets', 's:POST:/tags']);
    assert.deepEqual(diffSpecs(base, unused), { added: [], removed: [], changed: [] }, 'an unused component changes no endpoint');
  });

  test('a $ref that no longer resolves is a change, and one that never resolved is stable', async () => {
    const base = await imported(withSchemas('string', 'string'));
    const broken = withSchemas('string', 'string').replace("tag: { $ref: '#/components/schemas/Tag' }", "tag: { $ref: '#/components/schemas/Gone' }");
    const a = await imported(broken);
    const b = await imported(broken);
    // Both reach Pet (GET /pets directly, POST /tags through Tag.back).
    assert.deepEqual(diffSpecs(base, a).changed, ['s:GET:/pets', 's:POST:/tags']);
    assert.deepEqual(diffSpecs(a, b).changed, []);
  });

  test('an inline schema detail the type label does not show is content; parameters and bodies without a schema are stable', async () => {
    const text = (max: number): string => `openapi: 3.0.3
info: { title: T, version: '1' }
paths:
  /a:
    post:
      parameters:
        - { name: q, in: query, schema: { type: string, maxLength: ${max} } }
        - { name: free, in: header }
      requestBody:
        content:
          text/plain: {}
          application/json: { schema: { type: object } }
      responses: { '200': { description: OK } }
  /b:
    get:
      parameters: [{ name: only, in: query }]
      responses: { '200': { description: OK, content: { text/plain: {} } } }
`;
    const a = await imported(text(5));
    const same = await imported(text(5));
    const other = await imported(text(6));
    assert.deepEqual(diffSpecs(a, same), { added: [], removed: [], changed: [] });
    assert.deepEqual(diffSpecs(a, other), { added: [], removed: [], changed: ['s:POST:/a'] });
  });

  test('where an operation sits in its file is not content', async () => {
    const one = [{ path: '/a', method: 'get', summary: 'one', type: 'string' }] as const;
    assert.deepEqual(diffSpecs(await imported(yamlOf(one)), await imported(yamlOf(one, 3))), { added: [], removed: [], changed: [] });
  });

  test('on any graph of schemas, a change to one marks exactly the endpoints that reach it, whatever the walk order', async () => {
    const N = 5;
    // edges[i]: the schemas schema i refers to; roots[j]: the schema endpoint j returns.
    const graph = fc.record({
      edges: fc.array(fc.uniqueArray(fc.integer({ min: 0, max: N - 1 }), { maxLength: 3 }), { minLength: N, maxLength: N }),
      roots: fc.array(fc.integer({ min: 0, max: N - 1 }), { minLength: 1, maxLength: 4 }),
      changed: fc.integer({ min: 0, max: N - 1 }),
    });
    const text = (edges: number[][], roots: number[], changed: number | undefined): string => {
      const lines = ['openapi: 3.0.3', "info: { title: T, version: '1' }", 'paths:'];
      roots.forEach((r, j) => {
        lines.push(`  /e${j}:`, '    get:', "      responses: { '200': { description: OK, content: { application/json: { schema: { $ref: '#/components/schemas/S" + r + "' } } } } }");
      });
      lines.push('components:', '  schemas:');
      edges.forEach((to, i) => {
        const props = [`v: { type: ${i === changed ? 'integer' : 'string'} }`, ...to.map((t, k) => `r${k}: { $ref: '#/components/schemas/S${t}' }`)];
        lines.push(`    S${i}: { type: object, properties: { ${props.join(', ')} } }`);
      });
      return `${lines.join('\n')}\n`;
    };
    const reaches = (edges: number[][], from: number, target: number): boolean => {
      const seen = new Set<number>();
      const stack = [from];
      while (stack.length > 0) {
        const n = stack.pop()!;
        if (n === target) return true;
        if (seen.has(n)) continue;
        seen.add(n);
        stack.push(...edges[n]!);
      }
      return false;
    };
    await fc.assert(
      fc.asyncProperty(graph, async ({ edges, roots, changed }) => {
        const a = await imported(text(edges, roots, undefined));
        const b = await imported(text(edges, roots, changed));
        const expected = roots.flatMap((r, j) => (reaches(edges, r, changed) ? [`s:GET:/e${j}`] : []));
        assert.deepEqual(diffSpecs(a, b), { added: [], removed: [], changed: expected });
      }),
      { numRuns: 60 },
    );
  });
});
