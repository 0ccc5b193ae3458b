// Saving the code cache of the installed package's script (bin/script-cache.js), which holds the
// functions compiled so far: called once the first answers are out, so the next start finds the code
// of start-up, snapshot decoding and search compiled. A no-op when svc runs otherwise (the sources,
// the ESM build, or with caching off): bin/script-cache.js sets the hook only when it runs the script.
const HOOK = Symbol.for('svc.codeCache');

interface CodeCacheHook {
  save(): void;
}

/** Writes the code cache when the script runner asks for one (at most once per process). */
export function saveCodeCache(): void {
  (globalThis as { [HOOK]?: CodeCacheHook })[HOOK]?.save();
}
