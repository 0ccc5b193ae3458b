// The context a tool call runs in, as the daemon hands it to the MCP transports. Every call waits
// for the first import (tools/list answers before it). A call whose tool follows schema links
// (inspect, invoke: `readsDetail`) also waits until the specs served fresh from the import worker
// have their documents (src/daemon/loader.ts `settled`, a few hundred ms at start only) rather
// than parse the source files on this thread meanwhile; a late part that failed leaves the source
// files to read, so a failure there lets the call go on.
import type { SessionContext } from '../mcp/server.ts';
import { traceStep } from './start-trace.ts';

export interface CallContextSources {
  /** Resolves when the first import finished, successful or not. */
  readonly ready: Promise<unknown>;
  /** The spec loader once made (its `settled` resolves when every late part is applied). */
  readonly loading: Promise<{ settled(): Promise<void> }>;
  /** The session context now: an svc.yaml change swaps it, and a call takes the one current when it may run. */
  readonly session: () => SessionContext;
}

export function callContext(sources: CallContextSources): (call: { readonly readsDetail: boolean }) => Promise<SessionContext> {
  return async (call) => {
    traceStep('tool call waits for the catalogue');
    await sources.ready;
    if (call.readsDetail) await sources.loading.then((l) => l.settled()).catch(() => {});
    return sources.session();
  };
}
