// Public surface of snapshots: a spec's built state as bytes (codec), rebuilt with lazy schemas
// (detail), and the private cache files that keep it between starts (store).
export { buildFingerprint } from './build.ts';
export { CODEC_VERSION, decodeCore, encodeCore, encodeLate, encodeSpec, type CoreData, type DetailPart, type Encoded, type Late } from './codec.ts';
export { settleDetail, specFromCore, specFromCoreInSteps, type DetailSource } from './detail.ts';
export { ensurePrivateDir, pruneSnapshots, readSnapshot, touchSnapshot, snapshotDir, snapshotFile, snapshotKey, writeSnapshot, type KeyMaterial, type ReadResult, type Written } from './store.ts';
