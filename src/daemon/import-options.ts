// What of a config's spec entry shapes its import (and so its snapshot's key): shared by the start,
// the loader's callers and `svc update`, which compares it to tell a changed entry.
import type { Config, SpecConfig } from '../config/types.ts';
import type { ImportOptions } from '../import/index.ts';

export function importOptions(sc: SpecConfig, config: Config): ImportOptions {
  return {
    name: sc.name,
    collection: sc.collection,
    allowRemoteRefs: sc.allowRemoteRefs,
    allowRefsFrom: sc.allowRefsFrom,
    maxSpecBytes: config.limits.maxSpecBytes,
  };
}

/** The entry's import settings with its file, as text: equal keys import alike. */
export function importKeyOf(sc: SpecConfig, config: Config): string {
  return JSON.stringify([sc.path, importOptions(sc, config)]);
}
