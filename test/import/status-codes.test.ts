// The importer's copy of the HTTP reason phrases must stay Node's (response labels fall back to them).
import assert from 'node:assert/strict';
import { STATUS_CODES } from 'node:http';
import { test } from 'node:test';
import { STATUS_PHRASES } from '../../src/import/status-codes.ts';

test('the reason phrases are exactly node:http STATUS_CODES', () => {
  assert.deepEqual({ ...STATUS_PHRASES }, { ...STATUS_CODES });
});
