// The one-pass index beside MiniSearch's own `addAll` over the same entries: what the index tests
// hold the build to (its scores must stay MiniSearch's).
import MiniSearch from 'minisearch';
import { documentsOf } from '../../src/catalog/document.ts';
import { type Doc, type Entry, MINI_OPTIONS, SearchIndex } from '../../src/catalog/search.ts';

/** `entries` indexed in one pass (`bulk`) and by MiniSearch's `addAll` (`added`), both serialized. */
export function builtAndAdded(entries: readonly Entry[]): { bulk: unknown; added: unknown } {
  const index = new SearchIndex();
  index.add(entries);
  const reference = new MiniSearch<Doc>(MINI_OPTIONS);
  reference.addAll(documentsOf(entries));
  return { bulk: index.toJSON(), added: reference.toJSON() };
}
