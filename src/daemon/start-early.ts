// The start's first move, made as soon as the config is read: the snapshot folder and key, and the
// cold start (cold-start.ts: the first specs without a snapshot sent to the import worker, the
// first snapshot files read). `svc serve` makes it before it loads the rest of the daemon (the
// catalogue, the MCP SDK, the IPC server: about 40 ms of compiling on a first start after an
// install), so the worker, started even earlier, gets its first job as soon as its modules are in.
// Only light modules here.
import type { Config } from '../config/types.ts';
import { buildFingerprint } from '../snapshot/build.ts';
import { snapshotDir } from '../snapshot/store.ts';
import { ColdStart } from './cold-start.ts';
import { importOptions } from './import-options.ts';
import { SVC_VERSION } from './version.ts';

export interface EarlyStart {
  /** The snapshot folder; undefined with snapshots off. */
  readonly snapshots: string | undefined;
  /** svc's version and build, as snapshot keys hold it. */
  readonly svcVersion: Promise<string>;
  readonly coldStart: ColdStart;
  /** Settles once the cold start has looked at the first specs (never rejects). */
  readonly warming: Promise<void>;
}

export interface EarlyStartOptions {
  /** A snapshot folder, or `false` for none; default from the environment (`SVC_SNAPSHOTS=0`: none). */
  readonly snapshots?: string | false;
  readonly env?: NodeJS.ProcessEnv;
}

export function beginStart(config: Config, options: EarlyStartOptions = {}): EarlyStart {
  const env = options.env ?? process.env;
  const snapshots = options.snapshots === false ? undefined : (options.snapshots ?? (env['SVC_SNAPSHOTS'] === '0' ? undefined : snapshotDir(env)));
  const coldStart = new ColdStart();
  // The version alone would let a snapshot made by other code of the same version serve.
  const svcVersion = buildFingerprint().then((build) => `${SVC_VERSION}+${build}`);
  // (Never rejects; a fingerprint that cannot be made is said when the specs load.)
  const warming = svcVersion.then(
    // Stryker disable next-line ArrowFunction,ObjectLiteral: the cold start only begins imports early; the loader imports every spec it did not begin
    (version) => coldStart.begin(snapshots, version, config.specs.map((sc) => ({ file: sc.path, options: importOptions(sc, config) }))),
    () => {},
  );
  return { snapshots, svcVersion, coldStart, warming };
}
