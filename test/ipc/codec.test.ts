import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineDecoder, encodeLine, type Frame } from '../../src/ipc/codec.ts';

test('decodes lines split across chunks and several lines in one chunk', () => {
  const d = new LineDecoder(1024);
  assert.deepEqual(d.push(Buffer.from('{"a":')), []);
  assert.deepEqual(d.push(Buffer.from('1}\n{"b":2}\n{"c"')), [
    { kind: 'message', value: { a: 1 } },
    { kind: 'message', value: { b: 2 } },
  ]);
  assert.deepEqual(d.push(Buffer.from(':3}\n')), [{ kind: 'message', value: { c: 3 } }]);
  assert.equal(d.pending, 0);
});

test('a multi-byte character split between chunks survives', () => {
  const d = new LineDecoder(1024);
  const bytes = Buffer.from(encodeLine({ t: 'größe ✓' }));
  const cut = bytes.indexOf(0xc3) + 1; // inside the two-byte ö
  assert.deepEqual([...d.push(bytes.subarray(0, cut)), ...d.push(bytes.subarray(cut))], [{ kind: 'message', value: { t: 'größe ✓' } }]);
});

test('garbage becomes a bad-json frame and the next line still decodes', () => {
  const d = new LineDecoder(1024);
  const frames = d.push(Buffer.from('not json at all\n{"ok":true}\n'));
  assert.equal(frames[0]?.kind, 'bad-json');
  assert.deepEqual(frames[1], { kind: 'message', value: { ok: true } });
});

test('blank lines are ignored', () => {
  const d = new LineDecoder(1024);
  assert.deepEqual(d.push(Buffer.from('\n\r\n  \n')), []);
});

test('an oversized line is reported as soon as it passes the cap, dropped without buffering, and decoding resumes after its newline', () => {
  const d = new LineDecoder(100);
  const big = 'x'.repeat(1000);
  const frames: Frame[] = [];
  for (let i = 0; i < 10; i++) {
    frames.push(...d.push(Buffer.from(big)));
    assert.ok(d.pending <= 100);
    if (i === 0) assert.deepEqual(frames, [{ kind: 'too-large', bytes: 1000 }], 'reported before its newline');
  }
  frames.push(...d.push(Buffer.from('\n{"after":1}\n')));
  assert.deepEqual(frames, [
    { kind: 'too-large', bytes: 1000 },
    { kind: 'message', value: { after: 1 } },
  ]);
});

test('a line of exactly the cap (newline included) is accepted, one byte more is not', () => {
  const d = new LineDecoder(10);
  const nine = '"1234567"'; // 9 bytes + newline = 10
  assert.deepEqual(d.push(Buffer.from(`${nine}\n`)), [{ kind: 'message', value: '1234567' }]);
  assert.equal(d.push(Buffer.from('"12345678"\n'))[0]?.kind, 'too-large');
});

test('encodeLine writes one line even for strings holding newlines', () => {
  const line = encodeLine({ text: 'a\nb' });
  assert.equal(line.indexOf('\n'), line.length - 1);
});
