// SIGTERM and SIGINT end the daemon within a second or two, whatever it is doing.
//
// A JavaScript signal listener runs only when the event loop turns, and an import of a large spec
// (or the index build after it) holds the thread for seconds to minutes: a daemon with a listener
// would ignore SIGTERM all that time. So:
// - while the loop is free, a signal starts a graceful close (sessions, watcher, socket file) and a
//   deadline: if that close has not finished in time, the socket file is removed and the process exits;
// - around heavy synchronous work (`whileHeavy`), the listeners are taken off, so the operating
//   system's default action applies and the signal ends the process at once (the socket file left
//   behind is a stale one, which the next daemon or `svc` command removes).

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/** How long a graceful close may take after a signal before the process exits anyway. */
export const SHUTDOWN_DEADLINE_MS = 1000;

export interface ShutdownOptions {
  /** The graceful close; the process exits when it resolves or at the deadline, whichever is first. */
  readonly close: () => Promise<void>;
  /** Synchronous last words before a forced exit (remove the socket file). */
  readonly onForcedExit?: () => void;
  readonly deadlineMs?: number;
}

let installed: { readonly listener: (signal: NodeJS.Signals) => void } | undefined;
let heavy = 0;
let signalled = false;

function attach(): void {
  if (!installed || heavy > 0) return;
  // Stryker disable next-line ConditionalExpression: every attach follows a detach (the check guards against a second listener all the same)
  for (const s of SIGNALS) if (!process.listeners(s).includes(installed.listener)) process.on(s, installed.listener);
}

function detach(): void {
  if (!installed) return;
  for (const s of SIGNALS) process.off(s, installed.listener);
}

/**
 * Installs the daemon's SIGTERM/SIGINT handling. Returns a function that removes it (after a close
 * that ended for another reason, say stdin closing).
 */
export function handleShutdownSignals(options: ShutdownOptions): () => void {
  const deadline = options.deadlineMs ?? SHUTDOWN_DEADLINE_MS;
  const listener = (): void => {
    if (signalled) return;
    signalled = true;
    const timer = setTimeout(() => {
      try {
        options.onForcedExit?.();
      } finally {
        process.exit(process.exitCode ?? 0);
      }
    }, deadline);
    timer.unref();
    void options.close().finally(() => clearTimeout(timer));
  };
  detach();
  installed = { listener };
  attach();
  return () => {
    // A handling already replaced by a newer one has nothing of its own to take off.
    if (installed?.listener !== listener) return;
    detach();
    installed = undefined;
  };
}

/**
 * Runs `work` (an import, an index build) with the signal listeners off: a signal meanwhile ends the
 * process at once instead of waiting for the thread. Nested and concurrent calls are counted.
 */
export async function whileHeavy<T>(work: () => Promise<T> | T): Promise<T> {
  heavy++;
  detach();
  try {
    return await work();
  } finally {
    heavy--;
    // A signal that arrived between two heavy steps has already ended the process; from here on
    // the graceful path applies again.
    attach();
  }
}
