// The SDK bridge (src/mcp/server.ts, tool-list.ts, confirm.ts) from its contract, with tools of the
// test's own making behind a real SDK server and a real 1.x client in memory: what tools/list shows
// (trimmed schemas, annotations only where they differ from the spec's defaults), what a tool's
// result becomes, how bad arguments read, what the hooks hear, and when a person is asked.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema, ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { SERVER_NAME, SERVER_VERSION, createMcpServer, toCallToolResult, type CatalogChangeNotice, type McpHooks, type SessionContext } from '../../src/mcp/server.ts';
import { describeTools, listedTools } from '../../src/mcp/tool-list.ts';
import { TOOLS } from '../../src/tools/index.ts';
import type { ToolContext, ToolDefinition, ToolResult } from '../../src/tools/types.ts';

/**
 * A test here takes a second or two; one that hangs (an answer that never comes) fails here instead
 * of stalling the run. Suites get the same limit: node reports a suite's tests only when it ends.
 */
const HANG_MS = 15_000;

/** The tools here use nothing of the session context. */
const CONTEXT = {} as SessionContext;

function tool(name: string, over: Partial<ToolDefinition> = {}): ToolDefinition {
  return {
    name,
    description: `${name} does a thing`,
    inputShape: { q: z.string() },
    annotations: { title: `The ${name}`, readOnlyHint: true, openWorldHint: false },
    handler: async (input) => ({ text: `${name}: ${JSON.stringify(input)}` }),
    ...over,
  };
}

async function connect(tools: readonly ToolDefinition[], options: { hooks?: McpHooks; capabilities?: Record<string, unknown>; connection?: boolean } = {}): Promise<Client> {
  const server = createMcpServer({ context: () => CONTEXT, tools, ...(options.hooks ? { hooks: options.hooks } : {}) }, { connection: options.connection ?? true });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide as unknown as Parameters<typeof server.connect>[0]);
  const client = new Client({ name: 'contract', version: '1' }, { capabilities: options.capabilities ?? {} });
  await client.connect(clientSide);
  return client;
}

const call = async (client: Client, name: string, args?: Record<string, unknown>): Promise<CallToolResult> =>
  (await client.callTool({ name, ...(args ? { arguments: args } : {}) })) as CallToolResult;

/** Every key anywhere in a JSON value. */
function keysDeep(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) keysDeep(v, out);
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(k), keysDeep(v, out);
  return out;
}

describe('tools/list', { timeout: HANG_MS }, () => {
  it('gives hints beyond readOnly and openWorld only where they differ from the defaults, and only for writes', { timeout: HANG_MS }, () => {
    const hints = (a: Partial<ToolDefinition['annotations']>) => describeTools([tool('t', { annotations: { title: 'T', readOnlyHint: false, openWorldHint: true, ...a } })])[0]!.annotations;
    assert.deepEqual(hints({}), { readOnlyHint: false, openWorldHint: true });
    assert.deepEqual(hints({ destructiveHint: false, idempotentHint: true }), { readOnlyHint: false, openWorldHint: true, destructiveHint: false, idempotentHint: true });
    assert.deepEqual(hints({ destructiveHint: true, idempotentHint: false }), { readOnlyHint: false, openWorldHint: true });
    assert.deepEqual(hints({ readOnlyHint: true, destructiveHint: false, idempotentHint: true }), { readOnlyHint: true, openWorldHint: true });
  });

  it('trims the schemas: no $schema, no empty or false additionalProperties, no string propertyNames; nested required kept for inputs only', { timeout: HANG_MS }, () => {
    const nested = z.object({ a: z.string(), b: z.number().optional() });
    const [listed] = describeTools([
      tool('t', {
        inputShape: { item: nested, map: z.record(z.string(), z.number()), strict: z.strictObject({ x: z.string() }), word: z.string().optional() },
        outputShape: { item: nested, count: z.number() },
      }),
    ]);
    const input = listed!.inputSchema as Record<string, unknown>;
    const output = listed!.outputSchema as Record<string, unknown>;
    for (const schema of [input, output]) {
      const keys = keysDeep(schema);
      assert.ok(!keys.includes('$schema'));
      assert.ok(!keys.includes('propertyNames'));
    }
    assert.deepEqual(input['required'], ['item', 'map', 'strict']);
    const props = input['properties'] as Record<string, Record<string, unknown>>;
    assert.deepEqual(props['item']!['required'], ['a'], 'an input\'s nested required stays: the model must know what to send');
    assert.deepEqual(props['map']!['additionalProperties'], { type: 'number' }, 'a meaningful additionalProperties stays');
    assert.equal('additionalProperties' in props['strict']!, false);
    assert.equal('additionalProperties' in input, false);
    assert.deepEqual(output['required'], ['item', 'count'], 'the output keeps its top-level required');
    assert.equal('required' in (output['properties'] as Record<string, Record<string, unknown>>)['item']!, false);
    assert.equal(listed!.title, 'The t');
    assert.equal(listed!.description, 't does a thing');
    assert.equal('outputSchema' in describeTools([tool('plain')])[0]!, false);
  });

  it('keeps propertyNames that say more than "a string", and null values in schemas', { timeout: HANG_MS }, () => {
    const [listed] = describeTools([tool('t', { inputShape: { e: z.record(z.enum(['x', 'y']), z.number()), m: z.record(z.string().min(2), z.number()), n: z.literal(null), d: z.string().nullable().default(null) } })]);
    const props = (listed!.inputSchema as { properties: Record<string, Record<string, unknown>> }).properties;
    assert.deepEqual(props['e']!['propertyNames'], { type: 'string', enum: ['x', 'y'] });
    assert.deepEqual(props['m']!['propertyNames'], { type: 'string', minLength: 2 });
    assert.deepEqual(props['n'], { type: 'null', const: null });
    assert.equal(props['d']!['default'], null);
  });

  it('answers with the list the build made only for the very array it described, parsed once; any other array is described', () => {
    const built = [tool('a'), tool('b')];
    const premade = JSON.stringify([{ name: 'made at build time', inputSchema: { type: 'object' } }]);
    const first = listedTools(built, built, premade);
    assert.deepEqual(first.map((t) => t.name), ['made at build time']);
    assert.equal(listedTools(built, built, premade), first, 'parsed once');
    const other = [tool('c')];
    assert.deepEqual(listedTools(other, built, premade).map((t) => t.name), ['c']);
    const fromSources = [tool('d')];
    assert.deepEqual(listedTools(fromSources, fromSources, undefined).map((t) => t.name), ['d']);
    assert.deepEqual(listedTools(fromSources, fromSources).map((t) => t.name), ['d'], 'the sources define no pre-made list');
  });

  it('lists the same objects for the same tool array, fresh ones for another', { timeout: HANG_MS }, () => {
    const tools = [tool('a')];
    assert.equal(describeTools(tools), describeTools(tools));
    assert.notEqual(describeTools([tool('a')]), describeTools(tools));
  });

  it('serves exactly the given tools over MCP, and says the list can change and it sends log lines', { timeout: HANG_MS }, async () => {
    const client = await connect([tool('alpha'), tool('beta')]);
    try {
      const caps = client.getServerCapabilities();
      assert.deepEqual(caps?.tools, { listChanged: true });
      assert.deepEqual(caps?.logging, {});
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name), ['alpha', 'beta']);
    } finally {
      await client.close();
    }
  });
});

describe('identity', { timeout: HANG_MS }, () => {
  it('introduces itself as svc with the version of its package', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    assert.equal(SERVER_NAME, 'svc');
    assert.equal(SERVER_VERSION, pkg.version);
    const client = await connect([tool('a')]);
    try {
      assert.deepEqual(client.getServerVersion(), { name: 'svc', version: pkg.version });
    } finally {
      await client.close();
    }
  });
});

describe('tools/call', { timeout: HANG_MS }, () => {
  it('turns a result into content: text first, then images; structured only on success; isError only when true', { timeout: HANG_MS }, () => {
    const image = { type: 'image' as const, data: 'AAAA', mimeType: 'image/png' };
    assert.deepEqual(toCallToolResult({ text: 't', structured: { a: 1 }, images: [image, { ...image, data: 'BBBB' }] }), {
      content: [{ type: 'text', text: 't' }, image, { ...image, data: 'BBBB' }],
      structuredContent: { a: 1 },
    });
    assert.deepEqual(toCallToolResult({ text: 'bad', structured: { a: 1 }, isError: true }), { content: [{ type: 'text', text: 'bad' }], isError: true });
    assert.deepEqual(toCallToolResult({ text: 'ok', isError: false }), { content: [{ type: 'text', text: 'ok' }] });
  });

  it('answers bad arguments with a tool error in plain words naming each problem', { timeout: HANG_MS }, async () => {
    const client = await connect([tool('find', { inputShape: { q: z.string(), limit: z.number().int().max(5).optional() } })]);
    try {
      const unknownOne = await call(client, 'find', { q: 'x', extra: 1 });
      assert.deepEqual(unknownOne, { content: [{ type: 'text', text: 'Invalid arguments for find: unknown argument "extra"; find takes q, limit' }], isError: true });
      const unknownTwo = await call(client, 'find', { q: 'x', a: 1, b: 2 });
      assert.equal((unknownTwo.content[0] as { text: string }).text, 'Invalid arguments for find: unknown arguments "a", "b"; find takes q, limit');
      const tooBig = await call(client, 'find', { q: 'x', limit: 9 });
      assert.match((tooBig.content[0] as { text: string }).text, /^Invalid arguments for find: limit: /);
      const two = await call(client, 'find', { limit: 9 });
      assert.match((two.content[0] as { text: string }).text, /^Invalid arguments for find: q: .+; limit: .+$/);
      const nested = await connect([tool('deep', { inputShape: { opts: z.object({ n: z.number() }) } })]);
      try {
        const deep = await call(nested, 'deep', { opts: { n: 'x' } });
        assert.match((deep.content[0] as { text: string }).text, /^Invalid arguments for deep: opts\.n: /);
      } finally {
        await nested.close();
      }
      const none = await call(client, 'find');
      assert.match((none.content[0] as { text: string }).text, /^Invalid arguments for find: q: /, 'no arguments at all reads as {}');
    } finally {
      await client.close();
    }
  });

  it('answers an unknown tool with the JSON-RPC error -32602 listing the tools', { timeout: HANG_MS }, async () => {
    const client = await connect([tool('alpha'), tool('beta')]);
    try {
      await assert.rejects(call(client, 'gamma', {}), (e: { code?: number; message?: string }) => e.code === -32602 && /Unknown tool "gamma"; the tools are alpha, beta/.test(e.message ?? ''));
    } finally {
      await client.close();
    }
  });

  it('tells the hooks about each call (name, time, ok), the session opening and closing, and catalogue changes', { timeout: HANG_MS }, async () => {
    const calls: [string, number, boolean][] = [];
    let opened = 0;
    let closed = 0;
    const listeners = new Set<(c: CatalogChangeNotice) => void>();
    const hooks: McpHooks = {
      toolCall: (name, ms, ok) => void calls.push([name, ms, ok]),
      sessionOpened: () => void opened++,
      sessionClosed: () => void closed++,
      onCatalogChanged: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    };
    const slow = tool('slow', { handler: async () => (await new Promise((r) => setTimeout(r, 25)), { text: 'done' }) });
    const failing = tool('failing', { handler: async (): Promise<ToolResult> => ({ text: 'no', isError: true }) });
    const client = await connect([slow, failing], { hooks });
    const heard: string[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard.push('list_changed'));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void heard.push(`log:${n.params.logger}:${n.params.level}:${String(n.params.data)}`));
    try {
      assert.equal(opened, 1);
      await call(client, 'slow', { q: 'a' });
      await call(client, 'failing', { q: 'a' });
      await call(client, 'slow', { q: 1 }); // bad arguments: no tool ran, nothing timed
      assert.deepEqual(calls.map(([n, , ok]) => [n, ok]), [['slow', true], ['failing', false]]);
      assert.ok(calls[0]![1] >= 20 && calls[0]![1] < 60_000, `timed ${calls[0]![1]} ms`);
      assert.equal(listeners.size, 1);
      for (const l of listeners) l({ message: 'svc update: pets +1', endpointsChanged: true, specsChanged: false });
      const deadline = Date.now() + 5000;
      while (heard.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      assert.deepEqual(heard.sort(), ['list_changed', 'log:svc:info:svc update: pets +1']);
    } finally {
      await client.close();
    }
    const deadline = Date.now() + 5000;
    while (closed === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.equal(closed, 1);
    assert.equal(listeners.size, 0, 'unsubscribed on close');
  });

  it('tells the context whether the tool follows schema links, so a start can hold such calls until the documents are made', { timeout: HANG_MS }, async () => {
    const asked: boolean[] = [];
    const server = createMcpServer(
      {
        context: (c) => (asked.push(c.readsDetail), CONTEXT),
        tools: [tool('plain'), tool('deep', { readsDetail: true }), tool('shallow', { readsDetail: false })],
      },
      { connection: true },
    );
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide as unknown as Parameters<typeof server.connect>[0]);
    const client = new Client({ name: 'contract', version: '1' }, { capabilities: {} });
    await client.connect(clientSide);
    try {
      for (const name of ['plain', 'deep', 'shallow', 'deep']) await call(client, name, { q: 'x' });
      assert.deepEqual(asked, [false, true, false, true]);
    } finally {
      await client.close();
    }
  });

  it('of the built-in tools, exactly inspect and invoke follow schema links', () => {
    assert.deepEqual(TOOLS.filter((t) => t.readsDetail === true).map((t) => t.name).sort(), ['inspect', 'invoke']);
  });

  it('a per-request instance counts no session and subscribes to nothing', { timeout: HANG_MS }, async () => {
    let opened = 0;
    let subscribed = 0;
    const client = await connect([tool('a')], { connection: false, hooks: { sessionOpened: () => void opened++, onCatalogChanged: () => (subscribed++, () => {}) } });
    try {
      await call(client, 'a', { q: 'x' });
      assert.deepEqual([opened, subscribed], [0, 0]);
    } finally {
      await client.close();
    }
  });
});

describe('confirmation', { timeout: HANG_MS }, () => {
  /** A tool that asks before it acts and reports what it was told. */
  const asking = (): ToolDefinition =>
    tool('write', {
      handler: async (input, ctx: ToolContext) => {
        if (!ctx.confirm) return { text: 'cannot ask', isError: true };
        return (await ctx.confirm(`Send ${String(input['q'])}?`)) ? { text: 'sent' } : { text: 'declined', isError: true };
      },
    });

  async function ask(capabilities: Record<string, unknown>, answer?: { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> }): Promise<{ text: string; asked: string[] }> {
    const client = await connect([asking()], { capabilities });
    const asked: string[] = [];
    if (answer) {
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params.message);
        const schema = (request.params as { requestedSchema?: { properties?: Record<string, unknown>; required?: string[] } }).requestedSchema;
        assert.deepEqual(schema?.required, ['confirm']);
        assert.deepEqual(schema?.properties?.['confirm'], { type: 'boolean', title: 'Send this request?' });
        return answer;
      });
    }
    try {
      const result = await call(client, 'write', { q: 'X' });
      return { text: (result.content[0] as { text: string }).text, asked };
    } finally {
      await client.close();
    }
  }

  it('asks a client that declared form elicitation, with the tool\'s own question, and acts only on a yes', { timeout: HANG_MS }, async () => {
    assert.deepEqual(await ask({ elicitation: {} }, { action: 'accept', content: { confirm: true } }), { text: 'sent', asked: ['Send X?'] });
    assert.deepEqual(await ask({ elicitation: { form: {} } }, { action: 'accept', content: { confirm: false } }), { text: 'declined', asked: ['Send X?'] });
    assert.deepEqual(await ask({ elicitation: { form: {}, url: {} } }, { action: 'decline' }), { text: 'declined', asked: ['Send X?'] });
    assert.deepEqual(await ask({ elicitation: {} }, { action: 'cancel' }), { text: 'declined', asked: ['Send X?'] });
  });

  it('does not offer to ask a client without elicitation, or one that can only open URLs', { timeout: HANG_MS }, async () => {
    assert.deepEqual(await ask({}), { text: 'cannot ask', asked: [] });
    assert.deepEqual(await ask({ elicitation: { url: {} } }), { text: 'cannot ask', asked: [] });
  });
});
