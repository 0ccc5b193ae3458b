// Where a spec's settings say they come from, for messages that tell the user what to change: a
// listed entry read from svc.yaml names its line; one without a line (a configuration built in
// code, not read from a file) names the file alone.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { parseConfig } from '../../src/config/index.ts';
import type { Config } from '../../src/config/types.ts';
import { specSettings } from '../../src/invoke/settings.ts';
import { FIXTURES } from './helpers.ts';

test('a listed entry without a line names the file alone, still by its key', async () => {
  const file = path.join(FIXTURES, 'svc.yaml');
  const read = await parseConfig('specs:\n  - path: petstore.yaml\n    name: alpha\n', file);
  const { line: _line, ...entry } = read.specs[0]!;
  const config: Config = { ...read, specs: [entry] };
  const s = specSettings(config, 'alpha');
  assert.equal(s.where, ` (${file})`);
  assert.equal(s.key, 'specs[0]');
  assert.equal(s.unlisted, false);
  assert.equal(specSettings(read, 'alpha').where, ` (${file} line 2)`);
});
