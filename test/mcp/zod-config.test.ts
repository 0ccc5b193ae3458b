// The MCP front's zod settings (src/mcp/zod-config.ts): once the front is loaded, zod parses with
// its generic code and compiles no parser of its own (no `new Function`), in the SDK's schemas and
// ours alike, and what a parse gives is what it gave with the compiled parsers.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import '../../src/mcp/stdio.ts';

/** Runs `body` counting the functions made with `new Function` meanwhile. */
function functionsMade(body: () => void): number {
  const original = globalThis.Function;
  let made = 0;
  globalThis.Function = new Proxy(original, {
    construct(target, args) {
      made++;
      return Reflect.construct(target, args) as object;
    },
  });
  try {
    body();
  } finally {
    globalThis.Function = original;
  }
  return made;
}

describe('zod settings of the MCP front', () => {
  it('leave zod in jitless mode once the front is loaded', () => {
    assert.equal(z.config().jitless, true);
  });

  it('parse objects without compiling a parser, and with the same results', () => {
    const schema = z.object({ query: z.string(), limit: z.number().int().optional(), filters: z.object({ method: z.enum(['GET', 'POST']) }).optional() });
    const strict = z.strictObject({ query: z.string() });
    let results: unknown[] = [];
    const made = functionsMade(() => {
      results = [
        schema.safeParse({ query: 'create issue', limit: 3, filters: { method: 'POST' }, extra: 1 }),
        schema.safeParse({ query: 7 }),
        strict.safeParse({ query: 'x', extra: 1 }),
      ];
    });
    assert.equal(made, 0);
    const [ok, bad, unknown] = results as z.ZodSafeParseResult<unknown>[];
    assert.deepEqual(ok!.data, { query: 'create issue', limit: 3, filters: { method: 'POST' } });
    assert.equal(bad!.success, false);
    assert.deepEqual(
      bad!.error!.issues.map((i) => [i.code, i.path]),
      [['invalid_type', ['query']]],
    );
    assert.equal(unknown!.success, false);
    assert.deepEqual(
      unknown!.error!.issues.map((i) => i.code),
      ['unrecognized_keys'],
    );
  });
});
