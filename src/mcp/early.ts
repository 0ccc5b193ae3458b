// The first answers of a stdio session (initialize, tools/list, ping), given before the MCP SDK,
// zod and the tool modules are loaded: a client that spawns `svc serve` reads the tool list in
// the time Node takes to start, not the half second loading those modules takes.
//
// The answers are what the real SDK server answered in an earlier run of the same build, kept in
// the user's cache folder (early-cache.ts; written by precompute.ts's computeEarlyAnswers). Anything
// unusual (bad params, other methods) is left to the SDK: the early path only answers requests
// whose SDK answer it knows.
import { SERVER_NAME, SERVER_VERSION } from './identity.ts';

/** The SDK's answers to initialize and tools/list, with serverInfo filled in at runtime. */
export interface EarlyAnswers {
  readonly protocolVersions: readonly string[];
  readonly latestProtocolVersion: string;
  readonly capabilities: Readonly<Record<string, unknown>>;
  readonly instructions?: string;
  readonly tools: readonly Readonly<Record<string, unknown>>[];
}

type Json = Record<string, unknown>;
export type RequestId = string | number;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is RequestId => typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));

/** initialize params the SDK's schema surely accepts: the common shape, nothing the early path would have to judge. */
function plainInitializeParams(params: unknown): params is { protocolVersion: string } {
  if (!isObject(params) || typeof params['protocolVersion'] !== 'string') return false;
  const info = params['clientInfo'];
  if (!isObject(info) || typeof info['name'] !== 'string' || typeof info['version'] !== 'string') return false;
  if (!Object.entries(info).every(([k, v]) => ['name', 'version', 'title'].includes(k) && typeof v === 'string')) return false;
  const caps = params['capabilities'];
  if (!isObject(caps) || !Object.values(caps).every(isObject)) return false;
  return Object.keys(params).every((k) => k === 'protocolVersion' || k === 'clientInfo' || k === 'capabilities');
}

/** The `initialize` result the SDK server gives for `requested` (same keys, same order). */
export function initializeResult(requested: string, answers: EarlyAnswers): Json {
  return {
    protocolVersion: answers.protocolVersions.includes(requested) ? requested : answers.latestProtocolVersion,
    capabilities: answers.capabilities,
    serverInfo: { name: SERVER_NAME, version: SERVER_VERSION },
    ...(answers.instructions ? { instructions: answers.instructions } : {}),
  };
}

/**
 * The answer to a JSON-RPC request the early path can give, or undefined to leave it to the SDK.
 * `message` is the parsed line as received.
 */
export function earlyResult(message: unknown, answers: EarlyAnswers): { id: RequestId; result: Json } | undefined {
  if (!isObject(message) || message['jsonrpc'] !== '2.0' || !isId(message['id'])) return undefined;
  const id = message['id'];
  const params = message['params'];
  switch (message['method']) {
    case 'initialize':
      return plainInitializeParams(params) ? { id, result: initializeResult(params.protocolVersion, answers) } : undefined;
    case 'tools/list': {
      const plain = params === undefined || (isObject(params) && Object.keys(params).every((k) => k === 'cursor' && typeof params[k] === 'string'));
      return plain ? { id, result: { tools: answers.tools } } : undefined;
    }
    case 'ping':
      return params === undefined || (isObject(params) && Object.keys(params).length === 0) ? { id, result: {} } : undefined;
    default:
      return undefined;
  }
}
