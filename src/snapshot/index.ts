// Public surface of snapshots: a spec's built state as bytes (codec), rebuilt with lazy schemas
// (detail), and the private cache files that keep it between starts (store).
export { buildFingerprint } from './build.ts';
export { CODEC_VERSION, decodeCore, encodeSpec, type CoreData, type Encoded } from './codec.ts';
export { specFromCore, type DetailSource } from './detail.ts';
export { ensurePrivateDir, pruneSnapshots, readSnapshot, touchSnapshot, snapshotDir, snapshotFile, snapshotKey, writeSnapshot, type KeyMaterial, type ReadResult } from './store.ts';
