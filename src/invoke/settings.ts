// The svc.yaml settings that apply to one spec, with the key path messages should name.
import { specDefaults } from '../config/index.ts';
import type { Config, SpecConfig } from '../config/types.ts';

export interface SpecSettings {
  readonly spec: SpecConfig;
  /** `specs[2]`: the svc.yaml key of this spec's entry, for messages that say what to set. */
  readonly key: string;
  /** Where that entry is, e.g. ` (svc.yaml line 12)`, or empty. */
  readonly where: string;
  /** True when svc.yaml does not list this spec (a spec served from a FILE argument). */
  readonly unlisted: boolean;
}

export function specSettings(config: Config, specName: string): SpecSettings {
  const index = config.specs.findIndex((s) => s.name === specName);
  const spec = config.specs[index];
  if (spec !== undefined) {
    return {
      spec,
      key: `specs[${index}]`,
      where: spec.line !== undefined ? ` (${config.file} line ${spec.line})` : ` (${config.file})`,
      unlisted: false,
    };
  }
  // Not listed: the safe defaults, and messages that tell the user to list it.
  return {
    spec: { ...specDefaults(''), name: specName, collection: 'default' },
    key: `specs[] (an entry with name: ${specName})`,
    where: ` (${config.file})`,
    unlisted: true,
  };
}
