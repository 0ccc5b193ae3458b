#!/usr/bin/env node
// Entry point: only wires. Node >= 22.18 runs the TypeScript sources directly (type stripping);
// older Node 22 releases load them through tsx.
if (!process.features?.typescript) {
  const { register } = await import('tsx/esm/api');
  register();
}
await import('../src/cli/main.ts');
