// svc's errors (src/model/errors.ts): a code, the message, the cause and a hint kept when given
// and absent when not, the subclass's name; a ConfigError's message counts its problems in words
// ("1 problem", "2 problems") and gives each on its own line with its line number, when known, and
// its key ("(top)" for the document itself).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ConfigError, SvcError, type ConfigProblem } from '../../src/model/errors.ts';

test('an SvcError keeps its code, message, cause and hint, and has no cause (nor hint) when given none', () => {
  const cause = new Error('root');
  const e = new SvcError('spec-missing', 'no such spec', { cause, hint: 'run svc list' });
  assert.equal(e.code, 'spec-missing');
  assert.equal(e.message, 'no such spec');
  assert.equal(e.cause, cause);
  assert.equal(e.hint, 'run svc list');
  assert.equal(e.name, 'SvcError');
  assert.ok(e instanceof Error);
  // A falsy cause is still a cause.
  assert.equal(new SvcError('c', 'm', { cause: 0 }).cause, 0);
  assert.equal(new SvcError('c', 'm', { hint: '' }).hint, '');
  for (const bare of [new SvcError('c', 'm'), new SvcError('c', 'm', {}), new SvcError('c', 'm', { cause: undefined, hint: undefined })]) {
    assert.equal('cause' in bare, false);
    assert.equal(bare.hint, undefined);
  }
  class SpecError extends SvcError {}
  assert.equal(new SpecError('c', 'm').name, 'SpecError');
});

test('a ConfigError names the file, counts its problems and lists each with its line and key', () => {
  const one = new ConfigError('/p/svc.yaml', [{ key: 'specs.0.path', line: 4, message: 'is required' }]);
  assert.equal(one.message, '/p/svc.yaml: 1 problem in the config:\n  line 4, specs.0.path: is required');
  assert.equal(one.code, 'config-invalid');
  assert.equal(one.name, 'ConfigError');
  assert.equal(one.file, '/p/svc.yaml');
  const two = new ConfigError('/p/svc.yaml', [
    { key: '', message: 'must be a mapping' },
    { key: 'serve.port', line: 0, message: 'must be a number' },
  ]);
  assert.equal(two.message, '/p/svc.yaml: 2 problems in the config:\n  (top): must be a mapping\n  line 0, serve.port: must be a number');
  assert.equal(two.problems.length, 2);
  const oneLine = fc.string({ maxLength: 12 }).filter((t) => !t.includes('\n'));
  const problem = fc.record({ key: oneLine, message: oneLine, line: fc.option(fc.nat(999), { nil: undefined }) });
  fc.assert(
    fc.property(fc.array(problem, { maxLength: 4 }), (problems) => {
      const list: ConfigProblem[] = problems.map((p) => (p.line === undefined ? { key: p.key, message: p.message } : p));
      const e = new ConfigError('f', list);
      assert.deepEqual(e.message.split('\n'), [
        `f: ${list.length} ${list.length === 1 ? 'problem' : 'problems'} in the config:`,
        ...(list.length === 0 ? [''] : list.map((p) => `  ${p.line === undefined ? '' : `line ${p.line}, `}${p.key === '' ? '(top)' : p.key}: ${p.message}`)),
      ]);
      assert.deepEqual(e.problems, list);
    }),
  );
});
