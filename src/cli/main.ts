// Executable entry of `svc` (bin/svc.js and `npm start` run this file): run the program, set the exit code.
// process.exit is not called, so pending output is flushed and long-running commands (serve) keep the loop alive.
import { runCli } from './program.ts';

process.exitCode = await runCli(process.argv);
