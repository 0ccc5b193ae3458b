// Entry of the installed package's one-script build (scripts/build.mjs; bin/script-cache.js runs it
// with V8's code cache): the program, without main.ts's top-level await, which a script cannot hold.
export { runCli } from './program.ts';
