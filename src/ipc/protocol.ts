// The IPC protocol between the `svc` CLI and running daemons: newline-delimited JSON, one
// request per line, one reply per request (progress lines may come first). Plain data only:
// this module is loaded by the CLI, so it imports nothing heavier than types.

import type { Diagnostic } from '../model/diagnostic.ts';

/** Bumped on any incompatible change; a daemon answers other versions with `unsupported-version`. */
export const PROTOCOL_VERSION = 1;

/** One message (request or reply) may not exceed this many bytes, newline included. */
export const MAX_MESSAGE_BYTES = 1024 * 1024;
/** Replies can carry listings and status of big catalogues: the client accepts more than it sends. */
export const MAX_REPLY_BYTES = 32 * 1024 * 1024;

export const METHODS = ['ping', 'status', 'update', 'search', 'inspect', 'list'] as const;
export type Method = (typeof METHODS)[number];

export interface Request {
  readonly v: number;
  readonly id: number | string;
  readonly method: string;
  readonly params?: Record<string, unknown>;
}

export interface ErrorBody {
  /** `bad-json`, `bad-request`, `too-large`, `unknown-method`, `unsupported-version`, `bad-params`, `internal`, ... */
  readonly code: string;
  readonly message: string;
  readonly hint?: string;
}

export type Reply =
  | { readonly v: number; readonly id: number | string | null; readonly ok: true; readonly result: unknown }
  | { readonly v: number; readonly id: number | string | null; readonly ok: false; readonly error: ErrorBody };

/** Sent before the reply to a long request (update), so a terminal can show how far it got. */
export interface ProgressMessage {
  readonly v: number;
  readonly id: number | string;
  readonly progress: UpdateProgress;
}

export interface UpdateProgress {
  readonly done: number;
  readonly total: number;
  /** The spec being imported now (absolute root file). */
  readonly file?: string;
  readonly spec?: string;
}

// ---- results ---------------------------------------------------------------------------------

export interface PingResult {
  readonly pid: number;
  readonly version: string;
  readonly protocol: number;
  readonly config: string;
}

/** A diagnostic as it travels: the model's own plain-data shape. */
export type DiagnosticView = Diagnostic;

/** How many ids per change kind a reply lists; counts are always complete. */
export const SAMPLE_IDS = 5;

export interface IdChanges {
  readonly count: number;
  /** The first few ids (at most SAMPLE_IDS). */
  readonly sample: readonly string[];
}

export type SpecUpdateState = 'unchanged' | 'added' | 'changed' | 'removed' | 'failed';

export interface SpecUpdateReport {
  readonly name: string;
  readonly file: string;
  readonly state: SpecUpdateState;
  readonly added: IdChanges;
  readonly removed: IdChanges;
  readonly changed: IdChanges;
  readonly warnings: readonly DiagnosticView[];
  readonly errors: readonly DiagnosticView[];
  /** True when the spec failed and an earlier version keeps serving. */
  readonly keptPrevious: boolean;
  readonly ms: number;
}

export interface UpdateResult {
  /** True when every configured spec imported (or was unchanged). */
  readonly ok: boolean;
  /** True when the served catalogue (or config) differs from before. */
  readonly changed: boolean;
  readonly specs: readonly SpecUpdateReport[];
  /** A config file that could not be read: nothing else was touched. */
  readonly configErrors: readonly DiagnosticView[];
  /** Changed svc.yaml keys an update cannot apply (how the daemon listens): they wait for a restart. */
  readonly restartNeeded?: readonly string[];
  readonly generation: number;
  readonly startedAt: number;
  readonly ms: number;
  /** Where the time went (ms): reading svc.yaml, checking files, importing, diffing, re-indexing. */
  readonly phases?: { readonly config: number; readonly check: number; readonly import: number; readonly diff: number; readonly index: number };
}

/** `loading`: the daemon's first import is still running. */
export type SpecHealth = 'ok' | 'failed' | 'pending' | 'loading';

export interface SpecStatus {
  readonly name: string;
  readonly file: string;
  readonly format?: string;
  readonly formatVersion?: string;
  readonly version?: string;
  readonly title?: string;
  readonly collection: string;
  readonly endpoints: number;
  readonly deprecated: number;
  /** ms since epoch of the import now serving; absent when it never imported. */
  readonly indexedAt?: number;
  readonly state: SpecHealth;
  /** The last import's errors (state `failed`). */
  readonly errors: readonly DiagnosticView[];
  /** Files changed on disk since the last update (state may still be `ok`/`failed`). */
  readonly pending: readonly string[];
  /** Where the version serving came from: `loaded from snapshot`, `rebuilt: files changed since the snapshot; snapshot saved`... */
  readonly snapshot?: string;
}

export interface LatencySummary {
  readonly count: number;
  readonly errors: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export interface StatusResult {
  readonly protocol: number;
  readonly pid: number;
  readonly version: string;
  readonly startedAt: number;
  readonly uptimeMs: number;
  readonly transport: string;
  /** Where MCP clients reach this daemon over HTTP; absent for stdio. */
  readonly url?: string;
  /** HTTP only: how clients authenticate and where the token is (never the token itself). */
  readonly auth?: string;
  readonly socket: string;
  readonly config: string;
  readonly specs: readonly SpecStatus[];
  readonly totals: { readonly specs: number; readonly endpoints: number; readonly deprecated: number; readonly failed: number; readonly pending: number };
  readonly memory: { readonly rss: number; readonly heapUsed: number; readonly heapTotal: number };
  readonly sessions: number;
  readonly toolCalls: LatencySummary & { readonly byTool: Readonly<Record<string, LatencySummary>> };
  readonly lastUpdate?: UpdateResult;
  /** Files changed on disk that belong to no spec (svc.yaml itself). */
  readonly pendingConfig: boolean;
  /** True while the first import runs (specs show state `loading`). */
  readonly loading: boolean;
  /** Event-loop delay since the daemon started (how long any caller may have waited for the thread); `updates`: while updates ran, with the most CPU time this thread spent between two turns of its loop. */
  readonly eventLoop?: { readonly p99Ms: number; readonly maxMs: number; readonly updates?: { readonly p99Ms: number; readonly maxMs: number; readonly maxCpuMs: number } };
  /** An update running now: when it started, and its progress once it knows what to import. */
  readonly updating?: { readonly startedAt: number; readonly done: number; readonly total: number; readonly spec?: string; readonly waiting: number };
}

/** search / inspect / list replies: the same text and JSON the MCP tool would return. */
export interface ToolMirrorResult {
  readonly text: string;
  readonly structured?: Record<string, unknown>;
  readonly isError?: boolean;
}

export interface ResultByMethod {
  ping: PingResult;
  status: StatusResult;
  update: UpdateResult;
  search: ToolMirrorResult;
  inspect: ToolMirrorResult;
  list: ToolMirrorResult;
}

export function isMethod(name: string): name is Method {
  return (METHODS as readonly string[]).includes(name);
}
