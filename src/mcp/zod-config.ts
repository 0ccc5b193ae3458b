// Zod's settings for the MCP front, set before the SDK's modules build their schemas (stdio.ts and
// http.ts import this first). `jitless`: an object schema parses with zod's generic code rather than
// a parser zod writes for it as text and compiles with `new Function` on its first parse. Those
// compiled parsers are made again on every start (eval'd code is in no code cache), one per object
// schema a start parses with (the JSON-RPC envelope, initialize, tools/call and its result, a
// tool's arguments), plus the `new Function` probe that tells whether eval is allowed: about 2 ms
// of a warm start's main thread before the first answer, for parses of a few small messages each.
// The results are the same either way. Zod reads the setting when a schema is built, and keeps it
// on globalThis: the SDK's copy of zod and ours share it.
import { config } from 'zod';

config({ jitless: true });
