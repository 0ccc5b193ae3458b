// `svc serve` over HTTP checks its port before it loads or imports anything: a port already in use
// is said at once, with the process holding it when the system tells (Linux: /proc), and the flag
// that changes it. The real bind still reports its own errors; this only moves the common one first.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename } from 'node:path';
import { SvcError } from '../model/errors.ts';

export interface PortHolder {
  readonly pid: number;
  /** The holder's process name (not its arguments); absent when it cannot be read. */
  readonly command?: string;
}

/** Processes and descriptors looked at, at most, when looking for the holder (best effort, bounded work). */
const MAX_PROCESSES = 4096;
const MAX_FDS_PER_PROCESS = 4096;
const MAX_COMMAND_CHARS = 64;

/** Resolves when `port` can be bound on `host`; rejects with the bind error (EADDRINUSE, EACCES, ...). */
function tryBind(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    // Stryker disable next-line BooleanLiteral: exclusive changes a bind only in a cluster worker, which svc never is
    server.listen({ host, port, exclusive: true }, () => server.close(() => resolve()));
  });
}

/** Socket inodes listening on `port`, from /proc/net/tcp and tcp6 (state 0A is LISTEN). */
function listeningInodes(port: number, procRoot: string): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['tcp', 'tcp6']) {
    let text: string;
    try {
      text = readFileSync(`${procRoot}/net/${table}`, 'utf8');
    } catch {
      continue;
    }
    // Stryker disable next-line MethodExpression: the header line's fourth field is `st`, never the LISTEN state
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      if (local === undefined || fields[3] !== '0A') continue;
      if (local.slice(local.lastIndexOf(':') + 1) === hexPort && fields[9] !== undefined && fields[9] !== '0') inodes.add(fields[9]);
    }
  }
  return inodes;
}

/**
 * The process listening on `port`, when it can be found: Linux only, and only among processes this
 * user may look into. Undefined everywhere else; never throws.
 */
export function findPortHolder(port: number, procRoot = '/proc'): PortHolder | undefined {
  // Stryker disable next-line ConditionalExpression: elsewhere there is no /proc/net/tcp, and the look-up below finds nothing all the same
  if (process.platform !== 'linux') return undefined;
  try {
    const inodes = listeningInodes(port, procRoot);
    // Stryker disable next-line ConditionalExpression: speed only (no socket wanted, no descriptor matches)
    if (inodes.size === 0) return undefined;
    const wanted = new Set([...inodes].map((inode) => `socket:[${inode}]`));
    const pids = readdirSync(procRoot).filter((name) => /^\d+$/.test(name)).slice(0, MAX_PROCESSES);
    for (const pid of pids) {
      let fds: string[];
      try {
        fds = readdirSync(`${procRoot}/${pid}/fd`).slice(0, MAX_FDS_PER_PROCESS);
      } catch {
        continue; // another user's process, or gone
      }
      for (const fd of fds) {
        let target: string;
        try {
          target = readlinkSync(`${procRoot}/${pid}/fd/${fd}`);
        } catch {
          continue;
        }
        if (wanted.has(target)) return { pid: Number(pid), ...commandOf(pid, procRoot) };
      }
    }
  } catch {
    // /proc unreadable: say what we know without the holder.
  }
  return undefined;
}

/**
 * The holder's program name (the file name of /proc/PID/exe, else /proc/PID/comm), never its
 * arguments: another program's arguments may carry its own secrets, and this message may be logged.
 */
function commandOf(pid: string, procRoot: string): { command?: string } {
  let name = '';
  try {
    name = basename(readlinkSync(`${procRoot}/${pid}/exe`)).replace(/ \(deleted\)$/, '');
  } catch {
    try {
      name = readFileSync(`${procRoot}/${pid}/comm`, 'utf8').trim();
    } catch {
      // neither readable
    }
  }
  name = name.slice(0, MAX_COMMAND_CHARS);
  return name === '' ? {} : { command: name };
}

/**
 * Throws an SvcError naming the port, the holder (when found) and the flag to change it when
 * `port` cannot be bound on `host`. Port 0 (any free port) is never checked.
 */
export async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  try {
    await tryBind(host, port);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const change = 'start with another port: --port N (or serve.port in svc.yaml), or --port 0 for any free port';
    if (code === 'EADDRINUSE') {
      const holder = findPortHolder(port);
      const by = holder ? ` by pid ${holder.pid}${holder.command ? ` (${holder.command})` : ''}` : '';
      throw new SvcError('port-in-use', `port ${port} on ${host} is already in use${by}`, {
        hint: holder ? `stop pid ${holder.pid}, or ${change}` : change,
      });
    }
    if (code === 'EACCES') {
      throw new SvcError('port-denied', `port ${port} on ${host} needs privileges this user does not have`, { hint: `${change}; ports below 1024 usually need root` });
    }
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      throw new SvcError('host-unavailable', `cannot listen on ${host}: no such address on this machine`, { hint: 'use --host 127.0.0.1, 0.0.0.0, or an address of this machine (or serve.host in svc.yaml)' });
    }
    // Anything else is for the real bind to report, with its own message.
  }
}
