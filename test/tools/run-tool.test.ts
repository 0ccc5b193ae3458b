// runTool, the one way every front end calls a handler: an answer passes through, a tool error
// becomes an isError result with its hint, anything else says which tool failed (or was
// cancelled); and the seven tools as the front ends find them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { SvcError } from '../../src/model/errors.ts';
import { defineTool, readOnly } from '../../src/tools/define.ts';
import { ToolInputError } from '../../src/tools/errors.ts';
import { INSTRUCTIONS, TOOLS, runTool, toolByName, type ToolResult } from '../../src/tools/index.ts';
import { benchOfSpecs } from './support.ts';

const throwing = (thrown: () => unknown) =>
  defineTool({
    name: 'probe',
    description: 'throws what the test says',
    inputShape: { x: z.string().optional() },
    annotations: readOnly('Probe'),
    async handler() {
      throw thrown();
    },
  });

describe('runTool', () => {
  it('passes an answer through unchanged', async () => {
    const { ctx } = await benchOfSpecs([]);
    const answer: ToolResult = { text: 'fine', structured: { a: 1 } };
    const tool = defineTool({ name: 'ok', description: '', inputShape: {}, annotations: readOnly('Ok'), handler: async () => answer });
    assert.equal(await runTool(tool, {}, ctx), answer);
  });

  it('hands the handler the input and the context', async () => {
    const { ctx } = await benchOfSpecs([]);
    let seen: unknown[] = [];
    const tool = defineTool({
      name: 'echo',
      description: '',
      inputShape: { x: z.string() },
      annotations: readOnly('Echo'),
      handler: async (input, c) => {
        seen = [input, c];
        return { text: input.x };
      },
    });
    const input = { x: 'hello' };
    assert.deepEqual(await runTool(tool, input, ctx), { text: 'hello' });
    assert.equal(seen[0], input);
    assert.equal(seen[1], ctx);
  });

  it('turns a tool error into an isError result: the message, then its hint on a line of its own', async () => {
    const { ctx } = await benchOfSpecs([]);
    assert.deepEqual(await runTool(throwing(() => new ToolInputError('bad', 'x is wrong', 'pass y')), {}, ctx), { isError: true, text: 'x is wrong\nhint: pass y' });
    assert.deepEqual(await runTool(throwing(() => new ToolInputError('bad', 'x is wrong')), {}, ctx), { isError: true, text: 'x is wrong' });
    assert.deepEqual(await runTool(throwing(() => new SvcError('other', 'svc said no', { hint: '' })), {}, ctx), { isError: true, text: 'svc said no' });
    // A tool error says what was wrong even when the call was cancelled meanwhile.
    const cancelled = { ...ctx, signal: AbortSignal.abort() };
    assert.deepEqual(await runTool(throwing(() => new ToolInputError('bad', 'x is wrong', 'pass y')), {}, cancelled), { isError: true, text: 'x is wrong\nhint: pass y' });
  });

  it('a tool error without a hint carries none', () => {
    const error = new ToolInputError('code-1', 'message 1');
    assert.equal(error.code, 'code-1');
    assert.equal(error.message, 'message 1');
    assert.equal(error.hint, undefined);
    assert.equal(new ToolInputError('c', 'm', 'h').hint, 'h');
    assert.ok(error instanceof SvcError);
  });

  it('names the tool that failed on any other throw, and says cancelled when the call was', async () => {
    const { ctx } = await benchOfSpecs([]);
    assert.deepEqual(await runTool(throwing(() => new Error('disk on fire')), {}, ctx), { isError: true, text: 'probe failed: disk on fire' });
    assert.deepEqual(await runTool(throwing(() => 'a bare string'), {}, ctx), { isError: true, text: 'probe failed: a bare string' });
    assert.deepEqual(await runTool(throwing(() => new Error('aborted')), {}, { ...ctx, signal: AbortSignal.abort() }), { isError: true, text: 'probe was cancelled' });
    assert.deepEqual(await runTool(throwing(() => new Error('late')), {}, { ...ctx, signal: new AbortController().signal }), { isError: true, text: 'probe failed: late' });
  });
});

describe('the seven tools', () => {
  it('are listed in this order, each found by its name', () => {
    const names = ['search', 'endpoint_by_spec', 'endpoint_by_collection', 'endpoint_by_tag', 'endpoint_by_id', 'inspect', 'invoke'];
    assert.deepEqual(TOOLS.map((t) => t.name), names);
    for (const t of TOOLS) assert.equal(toolByName(t.name), t);
    assert.equal(toolByName('list_endpoints'), undefined);
    assert.equal(toolByName(''), undefined);
  });

  it('are read-only and closed-world, with a title, all but invoke; invoke may write and reaches out', () => {
    for (const t of TOOLS) {
      if (t.name === 'invoke') {
        assert.deepEqual(t.annotations, { title: 'Invoke endpoint', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true });
      } else {
        assert.deepEqual(Object.keys(t.annotations).sort(), ['openWorldHint', 'readOnlyHint', 'title']);
        assert.equal(t.annotations.readOnlyHint, true);
        assert.equal(t.annotations.openWorldHint, false);
      }
    }
    assert.deepEqual(
      TOOLS.map((t) => t.annotations.title),
      ['Search endpoints', 'Endpoints by spec', 'Endpoints by collection', 'Endpoints by tag', 'Endpoint summary', 'Inspect endpoint', 'Invoke endpoint'],
    );
    assert.deepEqual(readOnly('T'), { title: 'T', readOnlyHint: true, openWorldHint: false });
  });

  it('wait for the documents of a spec only where they follow schema links: inspect and invoke', () => {
    assert.deepEqual(TOOLS.filter((t) => t.readsDetail === true).map((t) => t.name), ['inspect', 'invoke']);
  });

  it('are explained to the model in five lines: the three steps and the id format', () => {
    assert.deepEqual(INSTRUCTIONS.split('\n'), [
      'svc serves a catalogue of HTTP API endpoints. Work in three steps:',
      '1. Find: search with keywords, or browse with endpoint_by_spec, endpoint_by_collection or endpoint_by_tag (without arguments they give an overview).',
      '2. inspect the endpoint for its parameters, body fields and responses.',
      '3. invoke it with params by name and a JSON body.',
      'An endpoint id is spec:METHOD:/path, e.g. github:POST:/repos/{owner}/{repo}/issues; copy it exactly. Long lists are paged: pass nextCursor back as cursor.',
    ]);
  });
});
