// svc.yaml -> Config. See README.md ("Configuration reference") for every key.
export { loadConfig, parseConfig, configFromFiles, collectionFromFolder } from './load.ts';
export { specDefaults } from './spec-entry.ts';
export { defaultSpecName, safeName, NAME_PATTERN } from './names.ts';
export type * from './types.ts';
export { DEFAULTS } from './types.ts';
