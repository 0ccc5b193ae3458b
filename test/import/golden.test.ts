// Every scenario folder under test/fixtures/import/ imports to exactly its expected.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readExpected, runScenario, scenarios } from './golden.ts';

for (const name of scenarios()) {
  test(`import scenario ${name} matches its golden file`, async () => {
    const { actual, expectedFile } = await runScenario(name);
    const expected = readExpected(expectedFile, actual);
    assert.deepEqual(actual, expected);
  });
}
