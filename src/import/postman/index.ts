// Postman collection v2.0 / v2.1 -> endpoints. See README.md in this folder for the mapping.
//
// Folders are walked with an explicit stack, not recursion: a collection nested thousands of
// folders deep imports like a flat one instead of overflowing the call stack.
import type { FormatContext, FormatResult } from '../format.ts';
import { EndpointIds } from '../ids.ts';
import { SecuritySchemes, type AuthDecision } from './auth.ts';
import { importRequest, type ImportState } from './request.ts';
import { Servers } from './servers.ts';
import { isRecord, text } from './shapes.ts';
import { readCollectionVariables } from './variables.ts';

/** Joins folder names into the tag of the requests inside (`Users/Admin`). */
export const TAG_SEPARATOR = '/';

interface Frame {
  readonly items: readonly unknown[];
  next: number;
  readonly pointer: string;
  readonly tag: string | undefined;
  readonly auth: AuthDecision;
}

export function importPostman(doc: Record<string, unknown>, format: 'postman-2.0' | 'postman-2.1', ctx: FormatContext): FormatResult {
  void format; // both versions are read the same way; every field accepts both shapes
  const variables = readCollectionVariables(doc);
  const state: ImportState = {
    ctx,
    variables,
    schemes: new SecuritySchemes(),
    servers: new Servers(variables),
    ids: new EndpointIds(),
    endpoints: [],
    skipped: [],
  };

  const rootAuth = state.schemes.decide(doc['auth'], (message) =>
    ctx.warn({ code: 'postman-auth-invalid', message: `collection: ${message}`, pointer: '/auth' }),
  );
  if (!Array.isArray(doc['item'])) {
    ctx.warn({
      code: 'postman-items-missing',
      message: 'the collection has no `item` list, so it has no requests',
      pointer: '/item',
      hint: 'Export the collection from Postman as Collection v2.1.',
    });
  }
  const stack: Frame[] = [
    { items: Array.isArray(doc['item']) ? doc['item'] : [], next: 0, pointer: '/item', tag: undefined, auth: rootAuth },
  ];

  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.next >= frame.items.length) {
      stack.pop();
      continue;
    }
    const index = frame.next++;
    const item = frame.items[index];
    const pointer = `${frame.pointer}/${index}`;
    if (!isRecord(item)) {
      ctx.warn({ code: 'postman-item-invalid', message: `item ${pointer} is not an object; it is ignored`, pointer });
      continue;
    }
    const isRequest = item['request'] !== undefined;
    const children = item['item'];
    if (isRequest) importRequest(item, { pointer, tag: frame.tag, auth: frame.auth }, state);
    if (Array.isArray(children)) {
      const name = text(item['name']) ?? `(folder ${index + 1})`;
      const own = state.schemes.decide(item['auth'], (message) =>
        ctx.warn({ code: 'postman-auth-invalid', message: `folder ${JSON.stringify(name)}: ${message}`, pointer: `${pointer}/auth` }),
      );
      stack.push({
        items: children,
        next: 0,
        pointer: `${pointer}/item`,
        tag: frame.tag === undefined ? name : `${frame.tag}${TAG_SEPARATOR}${name}`,
        auth: own.kind === 'inherit' ? frame.auth : own,
      });
    } else if (!isRequest) {
      ctx.warn({
        code: 'postman-item-invalid',
        message: `item ${JSON.stringify(text(item['name']) ?? pointer)} has neither a request nor an item list; it is ignored`,
        pointer,
      });
    }
  }

  const info = isRecord(doc['info']) ? doc['info'] : {};
  const title = text(info['name']);
  const version = versionOf(info['version']);
  const formatVersion = /\/(v\d+(?:\.\d+)*)\//.exec(text(info['schema']) ?? '')?.[1];
  return {
    endpoints: state.endpoints,
    skipped: state.skipped,
    webhooks: 0,
    ...(title !== undefined ? { title } : {}),
    ...(version !== undefined ? { version } : {}),
    ...(formatVersion !== undefined ? { formatVersion } : {}),
    servers: state.servers.list,
    securitySchemes: state.schemes.schemes,
  };
}

/** `info.version` is a string, or in the v2 schema `{ major, minor, patch, identifier }`. */
function versionOf(value: unknown): string | undefined {
  if (!isRecord(value)) return text(value);
  const { major, minor, patch, identifier } = value;
  if (major === undefined) return undefined;
  const core = `${String(major)}.${String(minor ?? 0)}.${String(patch ?? 0)}`;
  return typeof identifier === 'string' && identifier !== '' ? `${core}-${identifier}` : core;
}

