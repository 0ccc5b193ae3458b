// `node seed-code-cache.js APP_DIR CACHE_DIR`: writes the first code cache of the installed daemon's
// script (see script-cache.js), in a process of its own so that the daemon that asked for it never
// spends the ~60 ms a compile of the whole script takes. Started with the daemon's Node and flags.
import { seedCodeCache } from './script-cache.js';

const [appDir, cacheDir] = process.argv.slice(2);
if (appDir && cacheDir) {
  // A cache that cannot be made or written: the next start loads the ES modules again and asks again.
  await seedCodeCache(appDir, cacheDir).catch(() => {});
}
