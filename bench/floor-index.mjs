// The least an import can do before a first search (see floor.mjs): parse the description, walk
// its operations (no $ref resolved) and index each one's summary, description (600 characters),
// path, operationId, tags and inline parameter names with MiniSearch's defaults.
import MiniSearch from 'minisearch';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Parses and indexes a JSON description's text: the index, and the operations by document id. */
export function buildIndex(text) {
  const doc = JSON.parse(text);
  const docs = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item ?? {})) {
      if (!METHODS.has(method) || typeof op !== 'object' || op === null) continue;
      docs.push({
        id: docs.length,
        method: method.toUpperCase(),
        path,
        summary: op.summary ?? '',
        description: String(op.description ?? '').slice(0, 600),
        operationId: op.operationId ?? '',
        tags: (op.tags ?? []).join(' '),
        params: (op.parameters ?? []).map((p) => p?.name ?? '').join(' '),
      });
    }
  }
  const index = new MiniSearch({ fields: ['summary', 'description', 'path', 'operationId', 'tags', 'params'] });
  index.addAll(docs);
  return { index, docs };
}

/** buildIndex's work alone: how many operations it indexed. */
export function parseAndIndex(text) {
  return buildIndex(text).index.documentCount;
}
