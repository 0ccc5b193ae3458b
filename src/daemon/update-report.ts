// What an update reports over IPC: each spec's outcome with samples of the endpoint ids it added,
// removed or changed, its diagnostics in the protocol's plain form, and the config keys whose
// change waits for a restart.
import type { Config, SpecConfig } from '../config/types.ts';
import { ConfigError } from '../model/errors.ts';
import type { Diagnostic } from '../model/index.ts';
import { SAMPLE_IDS, type DiagnosticView, type IdChanges, type SpecUpdateReport, type SpecUpdateState } from '../ipc/protocol.ts';
import type { EndpointDiff } from './diff.ts';

function sample(ids: readonly string[]): IdChanges {
  return { count: ids.length, sample: ids.slice(0, SAMPLE_IDS) };
}

export function diagnosticView(d: Diagnostic): DiagnosticView {
  return {
    severity: d.severity,
    code: d.code,
    message: d.message,
    file: d.file,
    ...(d.pointer !== undefined ? { pointer: d.pointer } : {}),
    ...(d.line !== undefined ? { line: d.line } : {}),
    ...(d.column !== undefined ? { column: d.column } : {}),
    ...(d.hint !== undefined ? { hint: d.hint } : {}),
  };
}

export function report(
  sc: SpecConfig,
  state: SpecUpdateState,
  diff: EndpointDiff,
  warnings: readonly Diagnostic[],
  errors: readonly Diagnostic[],
  keptPrevious: boolean,
  ms: number,
): SpecUpdateReport {
  return {
    name: sc.name,
    file: sc.path,
    state,
    added: sample(diff.added),
    removed: sample(diff.removed),
    changed: sample(diff.changed),
    warnings: warnings.map(diagnosticView),
    errors: errors.map(diagnosticView),
    keptPrevious,
    ms,
  };
}

export function configErrorViews(error: unknown): DiagnosticView[] {
  if (error instanceof ConfigError) {
    return error.problems.map((p) => ({
      severity: 'error' as const,
      code: 'config-invalid',
      message: p.key ? `${p.key}: ${p.message}` : p.message,
      file: error.file,
      ...(p.line !== undefined ? { line: p.line } : {}),
    }));
  }
  const message = error instanceof Error ? error.message : String(error);
  return [{ severity: 'error', code: 'config-unreadable', message, file: '' }];
}

/**
 * The svc.yaml keys that say how the daemon listens (`serve.*`, `socket`): a running daemon keeps
 * its transport and socket, so a change there waits for a restart, and the report says so.
 */
export function listenKeysChanged(before: Config, after: Config): string[] {
  const changed: string[] = [];
  for (const key of Object.keys({ ...before.serve, ...after.serve }) as (keyof Config['serve'])[]) {
    if (JSON.stringify(before.serve[key]) !== JSON.stringify(after.serve[key])) changed.push(`serve.${key}`);
  }
  if (before.socket !== after.socket) changed.push('socket');
  return changed;
}
