// The open HTTP sessions of the 2025-era transports (sessionful Streamable HTTP and legacy SSE),
// bounded in two ways:
//   - idle expiry: a session nobody touched for `idleMs` is closed (clients that vanish without DELETE);
//   - a cap: past `maxSessions`, one session of the client that holds the most is closed, so a
//     client that opens sessions in a loop only pushes out its own (issue: another client could
//     evict a user's session by opening many). Within that client, one that never made a request
//     after its handshake goes first, then the one idle longest.
// A client is told apart by what it sends: its address, its User-Agent and the clientInfo name of
// its initialize. Clients behind one address and name share a quota; that is the most a bearer
// token's holders can be told apart without accounts.

export interface SessionEntry {
  /** Who opened it (see clientKey). */
  readonly client: string;
  lastSeen: number;
  /** Requests after the one that opened the session; the handshake's `initialized` notice is one. */
  requests: number;
  close(): Promise<void> | void;
}

export interface SessionTableOptions {
  readonly maxSessions: number;
  readonly idleMs: number;
  readonly log?: (line: string) => void;
  readonly now?: () => number;
}

export function clientKey(address: string | undefined, userAgent: string | undefined, clientName: string | undefined): string {
  return JSON.stringify([address ?? '', userAgent ?? '', clientName ?? '']);
}

export class SessionTable<T extends SessionEntry = SessionEntry> {
  readonly #sessions = new Map<string, T>();
  readonly #options: SessionTableOptions;
  readonly #sweep: NodeJS.Timeout;

  constructor(options: SessionTableOptions) {
    this.#options = options;
    // Often enough that a session never outlives its idle time by more than a quarter of it.
    // Stryker disable next-line MethodExpression: only how often expire() runs; it closes the same idle sessions whenever it runs
    this.#sweep = setInterval(() => this.expire(), Math.max(250, Math.min(60_000, Math.floor(options.idleMs / 4))));
    this.#sweep.unref();
  }

  get size(): number {
    return this.#sessions.size;
  }

  #now(): number {
    return this.#options.now?.() ?? Date.now();
  }

  get(id: string): T | undefined {
    return this.#sessions.get(id);
  }

  /** Marks a request on a session; returns it, or undefined when unknown (404). */
  touch(id: string): T | undefined {
    const s = this.#sessions.get(id);
    if (!s) return undefined;
    s.lastSeen = this.#now();
    s.requests++;
    return s;
  }

  /** Adds a session, first closing one of the busiest client's when the table is full. */
  admit(id: string, session: T): void {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: on an empty table #victim finds none and the break below ends the loop
    while (this.#sessions.size >= this.#options.maxSessions && this.#sessions.size > 0) {
      const victim = this.#victim(session.client);
      // Stryker disable next-line ConditionalExpression: with a session in the table #victim always finds one (the loop runs only then)
      if (victim === undefined) break;
      this.#options.log?.(`${this.#options.maxSessions} HTTP sessions open: closing an idle one of the client holding the most (serve.maxSessions)`);
      this.forget(victim);
    }
    this.#sessions.set(id, session);
  }

  /** The session to close: from the client holding the most (the newcomer counted), never-used first, then idle longest. */
  #victim(newcomer: string): string | undefined {
    const counts = new Map<string, number>([[newcomer, 1]]);
    for (const s of this.#sessions.values()) counts.set(s.client, (counts.get(s.client) ?? 0) + 1);
    // The newcomer is counted first, so on a tie it stays the busiest: a client never loses a
    // session to a newcomer that holds no more than it does.
    let busiest = newcomer;
    let most = 0;
    for (const [client, n] of counts) if (n > most) [busiest, most] = [client, n];
    return this.#oldest((s) => s.client === busiest) ?? this.#oldest(() => true);
  }

  /** Among the sessions `which` picks: one never used after its handshake first, then the one idle longest. */
  #oldest(which: (s: T) => boolean): string | undefined {
    let victim: string | undefined;
    let rank = Infinity;
    for (const [id, s] of this.#sessions) {
      if (!which(s)) continue;
      const r = (s.requests > 1 ? 1e15 : 0) + s.lastSeen;
      if (r < rank) [victim, rank] = [id, r];
    }
    return victim;
  }

  /** Removes and closes a session (idempotent). */
  forget(id: string): void {
    const s = this.#sessions.get(id);
    // Stryker disable next-line ConditionalExpression: for an unknown id the delete does nothing and closing undefined fails inside the caught promise
    if (!s) return;
    this.#sessions.delete(id);
    void Promise.resolve()
      .then(() => s.close())
      .catch(() => {});
  }

  /** Closes sessions idle longer than idleMs. */
  expire(): void {
    const cutoff = this.#now() - this.#options.idleMs;
    for (const [id, s] of this.#sessions) if (s.lastSeen < cutoff) this.forget(id);
  }

  async closeAll(): Promise<void> {
    clearInterval(this.#sweep);
    const all = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(all.map((s) => Promise.resolve().then(() => s.close()).catch(() => {})));
  }
}
