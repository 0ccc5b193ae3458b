// The README's client snippets: every JSON block parses, each server entry is either a command to
// start (stdio) or a URL on svc's /mcp with a bearer-token placeholder (HTTP), and no snippet holds
// a token that looks real. (The stdio block is also run: see pack-install.test.ts.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const README = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'README.md'), 'utf8');

interface ServerEntry {
  readonly type?: string;
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly url?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** Every ```json fence, indented ones (inside list items) included. */
function jsonBlocks(): { text: string; value: unknown }[] {
  return [...README.matchAll(/^( *)```json\n([\s\S]*?)^\1```/gm)].map((m) => ({ text: m[2]!, value: JSON.parse(m[2]!) as unknown }));
}

test('every JSON block of the README parses, and the client section has several', () => {
  assert.ok(jsonBlocks().length >= 5);
});

test('each server entry starts svc over stdio or reaches /mcp over HTTP with a bearer placeholder', () => {
  let stdio = 0;
  let http = 0;
  for (const { value } of jsonBlocks()) {
    const root = value as { mcpServers?: Record<string, ServerEntry>; servers?: Record<string, ServerEntry> };
    for (const entry of Object.values({ ...root.mcpServers, ...root.servers })) {
      if (entry.url !== undefined) {
        http++;
        assert.equal(entry.url, 'http://127.0.0.1:7331/mcp');
        assert.match(entry.headers?.['Authorization'] ?? '', /^Bearer \$\{(env|input):[\w-]+\}$/);
      } else if (entry.command === 'npx' && entry.args?.includes('mcp-remote')) {
        http++;
        assert.ok(entry.args.includes('http://127.0.0.1:7331/mcp'));
        assert.ok(entry.args.some((a) => /^Authorization:\$\{\w+\}$/.test(a)));
      } else {
        stdio++;
        assert.ok(entry.command === 'svc' || entry.command === 'npx', `command ${entry.command}`);
        const args = entry.args ?? [];
        const serve = args.indexOf('serve');
        assert.ok(serve >= 0 && args[serve + 1] === '--config', `serve --config in ${args.join(' ')}`);
        if (entry.command === 'npx') assert.deepEqual(args.slice(0, 2), ['-y', 'svc-mcp']);
      }
    }
  }
  assert.ok(stdio >= 2 && http >= 3, `stdio ${stdio}, http ${http}`);
});

test('the shell snippets use the real flags and the token placeholder', () => {
  assert.match(README, /claude mcp add svc --env BOOKSHELF_TOKEN=\S+ -- svc serve --config \S+/);
  assert.match(README, /claude mcp add --transport http svc http:\/\/127\.0\.0\.1:7331\/mcp --header "Authorization: Bearer \$\{SVC_TOKEN\}"/);
  assert.match(README, /inspector --cli http:\/\/127\.0\.0\.1:7331\/mcp --transport http --header "Authorization: Bearer \$\{SVC_TOKEN\}" --method tools\/list/);
  // No snippet carries something shaped like a real secret.
  assert.doesNotMatch(README, /Bearer [A-Za-z0-9_-]{24,}/);
});
