// Where each spec served came from (snapshot, import, why rebuilt), for `svc status`. Kept apart
// from the loader so status never loads the loader's heavy modules.
import type { ImportedSpec } from '../model/index.ts';

const NOTES = new WeakMap<ImportedSpec, string>();

export function setLoadNote(spec: ImportedSpec, note: string): void {
  NOTES.set(spec, note);
}

export function loadNote(spec: ImportedSpec): string | undefined {
  return NOTES.get(spec);
}
