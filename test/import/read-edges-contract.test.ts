// Edges of reading one document (src/import/read.ts): leading whitespace of any kind before `{`
// still means JSON, an unresolved YAML alias is placed at that alias (not an earlier good one), and
// the external-$ref pre-scan allows tabs before the colon and tells a nested mapping from a file
// name under CRLF line ends.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hasExternalRefs, parseText } from '../../src/import/read.ts';

describe('parsing', () => {
  test('tabs, carriage returns and newlines before { still take the JSON path', () => {
    const good = parseText('\t\r\n {"a": 1}');
    assert.ok(good.ok);
    assert.deepEqual(good.value, { a: 1 });
    const bad = parseText('\r\n\t{"a": }');
    assert.ok(!bad.ok);
    assert.equal(bad.problem.code, 'json-syntax');
    assert.deepEqual([bad.problem.line, bad.problem.column], [2, 8]);
  });

  test('an unresolved alias is placed at itself, after aliases that resolve', () => {
    const r = parseText('a: &x 1\nb: *x\nc: *y\n');
    assert.ok(!r.ok);
    assert.equal(r.problem.code, 'yaml-invalid');
    assert.deepEqual([r.problem.line, r.problem.column], [3, 4]);
    assert.equal(r.problem.hint, 'Define the anchor &y before the alias *y that uses it.');
  });
});

describe('the external-$ref pre-scan', () => {
  test('a tab before the colon still makes a reference', () => {
    assert.equal(hasExternalRefs('schema:\n  $ref\t: other.yaml\n'), true);
    assert.equal(hasExternalRefs('{"$ref"\t: "other.json"}'), true);
  });

  test('under CRLF line ends a $ref key holding a nested mapping is no reference; a file name is', () => {
    assert.equal(hasExternalRefs('properties:\r\n  $ref:\r\n    nested:\r\n      type: string\r\n'), false);
    assert.equal(hasExternalRefs('schema:\r\n  $ref: other.yaml\r\n'), true);
  });
});
