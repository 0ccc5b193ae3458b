// The import worker: reads, parses, imports and indexes one spec per job off the daemon's main
// thread, and hands back the spec's built state as bytes (src/snapshot's codec), transferred, not
// copied. When a snapshot folder is given it writes the snapshot too, so the main thread never
// touches the documents. Protocol: see `ImportJob` / `JobReply` in import-pool.ts.
import { isAbsolute } from 'node:path';
import { parentPort } from 'node:worker_threads';
import { indexImage } from '../catalog/catalog.ts';
import { importSpec } from '../import/index.ts';
import { DocumentSchemaResolver } from '../import/schemas.ts';
import type { ImportedSpec } from '../model/index.ts';
import { encodeSpec } from '../snapshot/codec.ts';
import { writeSnapshot } from '../snapshot/store.ts';
import { fingerprintList } from './diff.ts';
import type { ImportJob, JobReply } from './import-pool.ts';
import { traceStep } from './start-trace.ts';

traceStep('worker modules loaded');

/**
 * sha256 hex per file, as the importer read it (no second read: the next start compares these with
 * the files as they are then). A file with no local path (a remote `$ref`) gets '': such specs are
 * not snapshotted, since a start could not check that file.
 */
function fileDigests(spec: ImportedSpec, documents: DocumentSchemaResolver['documents']): string[] {
  return spec.files.map((f) => (isAbsolute(f) ? (documents.digest(f) ?? '') : ''));
}

/** Makes a transferable copy when `bytes` shares its memory (Node's small-buffer pool) with others. */
function own(bytes: Uint8Array): ArrayBuffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer) return bytes.buffer;
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return copy.buffer;
}

async function run(job: ImportJob): Promise<{ reply: JobReply; transfer: ArrayBuffer[] }> {
  traceStep('job received');
  const outcome = await importSpec(job.file, job.options);
  traceStep('imported');
  if (!outcome.ok) return { reply: { id: job.id, kind: 'failed', outcome }, transfer: [] };
  const spec = outcome.spec;
  const schemas = spec.schemas;
  if (!(schemas instanceof DocumentSchemaResolver)) return { reply: { id: job.id, kind: 'inline', reason: 'no documents to encode' }, transfer: [] };
  const digests = fileDigests(spec, schemas.documents);
  let encoded;
  try {
    const image = indexImage(spec);
    traceStep('index built');
    const prints = fingerprintList(spec);
    traceStep('fingerprints');
    encoded = encodeSpec(spec, (f) => schemas.documents.doc(f), image, prints, digests);
    traceStep('encoded');
  } catch (error) {
    return { reply: { id: job.id, kind: 'inline', reason: `cannot encode: ${(error as Error).message}` }, transfer: [] };
  }
  let written: { file: string; detailOffset: number } | undefined;
  let writeError: string | undefined;
  if (job.snapshot && digests.every((d) => d !== '')) {
    try {
      written = await writeSnapshot(job.snapshot.dir, job.snapshot.key, encoded.core, encoded.detail);
    } catch (error) {
      writeError = (error as Error).message;
    }
  } else if (job.snapshot) {
    writeError = 'one of its files is remote';
  }
  traceStep('snapshot written');
  const core = own(encoded.core);
  if (written !== undefined) {
    return { reply: { id: job.id, kind: 'built', core, snapshot: written.file, detailOffset: written.detailOffset }, transfer: [core] };
  }
  const detail = own(encoded.detail);
  return { reply: { id: job.id, kind: 'built', core, detail, ...(writeError !== undefined ? { writeError } : {}) }, transfer: [core, detail] };
}

const port = parentPort;
if (port) {
  port.on('message', (job: ImportJob) => {
    run(job).then(
      ({ reply, transfer }) => port.postMessage(reply, transfer),
      (error: unknown) => port.postMessage({ id: job.id, kind: 'inline', reason: `worker error: ${(error as Error)?.message ?? String(error)}` } satisfies JobReply),
    );
  });
}
