// The snapshot format's version, part of every snapshot's key: a snapshot written in another format
// is never read. Its own module so that the key can be computed (store.ts, a start's first move)
// without loading the codec, which brings in the catalogue.
export const CODEC_VERSION = 12;
