// svc's version (package.json), part of every snapshot's key and of `svc status`. Its own module
// so that the start's first move (start-early.ts) need not load the daemon's services to know it.
import { readFileSync } from 'node:fs';

export const SVC_VERSION: string = (() => {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
})();
