// The import worker: reads, parses, imports and indexes one spec per job off the daemon's main
// thread, and hands back the spec's built state as bytes (src/snapshot's codec), transferred, not
// copied: first the core, which is all the daemon needs to serve the spec, then what only a
// snapshot file and `svc update` need (the detail, the change fingerprints), made while the
// daemon already serves. When a snapshot folder is given it writes the snapshot too, so the main
// thread never touches the documents. Protocol: see `WorkerMessage` in import-pool.ts.
import { isAbsolute, resolve } from 'node:path';
import type { MessagePort } from 'node:worker_threads';
import { specImage } from '../catalog/catalog.ts';
import { importSpec } from '../import/index.ts';
import { DocumentSchemaResolver } from '../import/schemas.ts';
import { ConfigError, type ImportedSpec } from '../model/index.ts';
import { encodeCore, encodeLate, type Late } from '../snapshot/codec.ts';
import { writeSnapshot } from '../snapshot/store.ts';
import { statIdentity } from './digests.ts';
import { fingerprintList } from './diff.ts';
import type { ConfigAnswer, ConfigJob, ImportJob, LateReply, WorkerJob, WorkerMessage } from './import-pool.ts';
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

type Post = (message: WorkerMessage, transfer?: ArrayBuffer[]) => void;

/**
 * One job: the core first (all the daemon needs to serve the spec), then the rest (change
 * fingerprints, the detail, the snapshot file), made while the daemon already serves.
 */
async function run(job: ImportJob, post: Post): Promise<void> {
  traceStep('job received');
  // The root file's identity before its bytes are read: the daemon keeps the digest of what was
  // imported under it (FileDigests.remember), so it need not read the file again to know it later.
  const root = resolve(job.file);
  const identity = await statIdentity(root).catch(() => undefined);
  const outcome = await importSpec(job.file, job.options);
  traceStep('imported');
  if (!outcome.ok) return post({ id: job.id, kind: 'failed', outcome });
  const spec = outcome.spec;
  const schemas = spec.schemas;
  if (!(schemas instanceof DocumentSchemaResolver)) return post({ id: job.id, kind: 'inline', reason: 'no documents to encode' });
  const documents = (f: string) => schemas.documents.doc(f);
  const digests = fileDigests(spec, schemas.documents);
  let core: Buffer;
  try {
    // The index and the entry facts: a start from the core then need not work the facts out again.
    const { index, facts } = specImage(spec);
    traceStep('index built');
    core = encodeCore(spec, documents, index, digests, facts);
    traceStep('core encoded');
  } catch (error) {
    return post({ id: job.id, kind: 'inline', reason: `cannot encode: ${(error as Error).message}` });
  }
  const wanted = job.snapshot && digests.every((d) => d !== '') ? job.snapshot : undefined;
  // The snapshot file needs the core's bytes after they went to the daemon: a copy (a few MB at most).
  const kept = wanted ? Buffer.from(core) : undefined;
  const sent = own(core);
  // Stryker disable next-line ArrayDeclaration: without the transfer list the core is copied, not moved: the same bytes arrive
  post({ id: job.id, kind: 'built', core: sent }, [sent]);
  // Stryker disable next-line all: a memory measure only (collectGarbage); no answer differs
  const collect = (identity?.size ?? 0) >= COLLECT_AFTER_BYTES;
  const made = await late(spec, documents, kept, wanted, job.snapshot !== undefined, collect);
  const digest = schemas.documents.digest(root);
  const seen = identity && digest !== undefined && spec.files.includes(root) ? { seen: { file: root, identity, digest } } : {};
  post({ id: job.id, kind: 'late', late: { ...made.late, ...seen } });
}

/** The size of a description (its root file) from which its import's garbage is collected before its detail is encoded. */
const COLLECT_AFTER_BYTES = 4 * 1024 * 1024;
/** V8's full collection, once looked up (null: not to be had). */
let fullCollection: (() => void) | null | undefined;

/**
 * A full collection in the late part of a large description's import, before the detail is
 * encoded: the import's garbage (the file's text, the parse, the index made for the core) is freed
 * before the detail allocates, which would otherwise grow the heap on top of it. GitHub's
 * description (12.4 MB), cold start of the installed package: peak RSS of the process 184-200 ->
 * 175-179 MiB, first answer unchanged. Not as soon as the core is sent: the daemon is decoding it
 * and answering then, and V8's collector threads took the CPU from that (first answer +20 ms); the
 * change fingerprints come first. A smaller description skips it: a full collection of a worker
 * that holds more costs an update tens of ms (Xero's 0.9 MB YAML: 60 -> 110 ms) for little, and
 * most of a hub's 2,639 descriptions are small. V8 gives scripts `gc` only under --expose-gc,
 * which a worker's execArgv cannot carry; set at run time, the flag holds for contexts made
 * afterwards, so a new vm context has it.
 */
// Stryker disable all: a memory measure only; no answer differs
function collectGarbage(): void {
  if (fullCollection === undefined) {
    try {
      process.getBuiltinModule('node:v8').setFlagsFromString('--expose-gc');
      fullCollection = process.getBuiltinModule('node:vm').runInNewContext('gc') as () => void;
    } catch {
      fullCollection = null;
    }
  }
  fullCollection?.();
  traceStep('garbage collected');
}
// Stryker restore all

/** The late part of a job (see import-pool.ts): never throws, says why when it could not be made or saved. */
async function late(
  spec: ImportedSpec,
  documents: (file: string) => unknown,
  core: Buffer | undefined,
  snapshot: ImportJob['snapshot'],
  asked: boolean,
  collect: boolean,
): Promise<{ kind: 'late'; late: LateReply }> {
  let made: Late;
  let list: string[] | undefined;
  try {
    list = fingerprintList(spec);
    // Stryker disable next-line all: a memory measure only (collectGarbage); no answer differs
    if (collect) collectGarbage();
    made = encodeLate(spec, documents, list);
  } catch (error) {
    // The fingerprints still go when only the detail cannot be written: made from the spec the
    // daemon rebuilds from its core, they would differ, and the next update would see every
    // endpoint as changed.
    const prints = list ? { prints: own(Buffer.from(JSON.stringify(list))) } : {};
    return { kind: 'late', late: { ...prints, writeError: `cannot encode: ${(error as Error).message}` } };
  }
  traceStep('late encoded');
  const prints = own(made.prints);
  // Stryker disable next-line LogicalOperator: the core is kept exactly when a snapshot is wanted (run), so either both are there or neither
  if (snapshot && core) {
    try {
      const written = await writeSnapshot(snapshot.dir, snapshot.key, core, made);
      traceStep('snapshot written');
      return { kind: 'late', late: { prints, written } };
    } catch (error) {
      return { kind: 'late', late: { prints, detail: { bytes: own(made.detail), parts: made.parts }, writeError: (error as Error).message } };
    }
  }
  const detail = { bytes: own(made.detail), parts: made.parts };
  return { kind: 'late', late: { prints, detail, ...(asked ? { writeError: 'one of its files is remote' } : {}) } };
}

/** The buffers a late part carries, to transfer rather than copy. */
// Stryker disable all: a transfer list only moves the buffers instead of copying them: the same bytes arrive
function transferred(message: WorkerMessage): ArrayBuffer[] {
  if (message.kind !== 'late') return [];
  const { prints, detail } = message.late;
  return [...(prints ? [prints] : []), ...(detail ? [detail.bytes] : [])];
}
// Stryker restore all

/**
 * Reads svc.yaml as the main thread would (loadConfig), for a daemon whose config is large. The
 * config modules load on the first such job: most workers only import.
 */
async function readConfig(job: ConfigJob): Promise<ConfigAnswer> {
  try {
    const { loadConfig } = await import('../config/index.ts');
    return { id: job.id, kind: 'config', config: await loadConfig(job.file) };
  } catch (error) {
    const problems = error instanceof ConfigError ? { file: error.file, problems: error.problems } : {};
    return { id: job.id, kind: 'config-failed', message: error instanceof Error ? error.message : String(error), ...problems };
  }
}

/** The side of a message channel the jobs come in on (the worker's parentPort, or a MessagePort). */
export type JobPort = Pick<MessagePort, 'on' | 'postMessage'>;

/**
 * Answers every job that comes in on `port` (import-worker-boot.ts hands it the worker's
 * parentPort). A job that throws still gets its answer: `inline` with the reason, or, once its
 * core went, a late part that says why nothing more came.
 */
export function serveJobs(port: JobPort): void {
  port.on('message', (job: WorkerJob) => {
    if ('kind' in job) {
      void readConfig(job).then((reply) => port.postMessage(reply));
      return;
    }
    let built = false;
    const post: Post = (message, transfer) => {
      if (message.kind === 'built') built = true;
      // Stryker disable next-line LogicalOperator: a transfer list only moves the buffers instead of copying them
      port.postMessage(message, transfer ?? transferred(message));
    };
    run(job, post).catch((error: unknown) => {
      const reason = `worker error: ${(error as Error)?.message ?? String(error)}`;
      // After the core went, only the late part is still owed.
      post(built ? { id: job.id, kind: 'late', late: { writeError: reason } } : { id: job.id, kind: 'inline', reason });
    });
  });
}
