// A socket file left by a process killed with SIGKILL, for the IPC tests that take one over.
import { spawn } from 'node:child_process';

export async function killedSocketHolder(path: string): Promise<void> {
  // The child also ends when its stdin closes: a test process killed before the SIGKILL below
  // (a timeout, a mutation run) leaves no socket holder behind.
  const holder = `process.stdin.on('end', () => process.exit()).resume(); require('net').createServer().listen(${JSON.stringify(path)}, () => console.log('up'))`;
  const child = spawn(process.execPath, ['-e', holder], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
}
