// Parameter serialization at its edges, from serializeParams' contract:
// - an empty path value is refused in every style (`''`, null, `[]`, `{}`, or a list of nothing but
//   empty items), naming the parameter in the problems, and a missing one is listed as required;
// - a `.` or `..` segment is refused, saying which;
// - query arrays default to exploded only in form style, send nothing when empty, and
//   spaceDelimited and pipeDelimited objects are one pair whatever `explode` says;
// - deepObject writes arrays as `a[]=` (indexes once an item is an object or array), and nests at
//   most 16 levels (deeper values are written as JSON text);
// - a line break or NUL anywhere in a header or cookie value, keys included, within 17 levels of
//   objects, is refused with a message naming the header or cookie; deeper the value is JSON text,
//   where it is escaped;
// - a fixed query in the path template is kept as query, wherever the `?` is.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { InvalidArgumentsError, InvokeError } from '../../src/invoke/errors.ts';
import { serializeParams } from '../../src/invoke/serialize.ts';
import type { Parameter } from '../../src/model/index.ts';

function param(p: Partial<Parameter> & Pick<Parameter, 'in'>): Parameter {
  return { name: 'id', required: true, type: 'any', ...p };
}

const STYLES = [undefined, 'simple', 'label', 'matrix'] as const;
const EMPTY: unknown[] = ['', null, undefined, [], {}, ['']];

/** A value nested `depth` levels deep in objects, with `leaf` at the bottom. */
function nested(depth: number, leaf: unknown): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = { k: v };
  return v;
}

function refusal(run: () => unknown): InvokeError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof InvokeError, String(error));
    return error;
  }
  assert.fail('expected a refusal');
}

describe('path values', () => {
  test('an empty value is refused in every style, explode or not, naming the parameter', () => {
    for (const style of STYLES) {
      for (const explode of [undefined, false, true]) {
        for (const value of EMPTY) {
          const p = param({ in: 'path', ...(style ? { style } : {}), ...(explode !== undefined ? { explode } : {}) });
          const e = refusal(() => serializeParams('/pets/{id}', [{ param: p, value }]));
          const where = JSON.stringify({ style, explode, value });
          assert.ok(e instanceof InvalidArgumentsError, where);
          assert.deepEqual(e.problems, ['id: empty'], where);
          assert.equal(e.message, "Path parameter 'id' of /pets/{id} is empty; it must be a non-empty value.", where);
        }
      }
    }
  });

  test('a list of nothing but empty items is refused in every style, whatever its length', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('', null, undefined), { minLength: 1, maxLength: 5 }), fc.constantFrom(...STYLES), fc.boolean(), (value, style, explode) => {
        const p = param({ in: 'path', ...(style ? { style } : {}), explode });
        const e = refusal(() => serializeParams('/pets/{id}', [{ param: p, value }]));
        assert.ok(e instanceof InvalidArgumentsError);
        assert.deepEqual(e.problems, ['id: empty']);
      }),
    );
  });

  test('a list with one item that says something is sent', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('', null), { maxLength: 3 }), fc.stringMatching(/^[a-z0-9]{1,8}$/), (blanks, word) => {
        const { path } = serializeParams('/pets/{id}', [{ param: param({ in: 'path' }), value: [...blanks, word] }]);
        assert.ok(path.startsWith('/pets/') && path.includes(word), path);
      }),
    );
  });

  test('missing path values are each listed as required', () => {
    const e = refusal(() => serializeParams('/a/{x}/b/{y}/{z}', [{ param: param({ in: 'path', name: 'y' }), value: 1 }]));
    assert.ok(e instanceof InvalidArgumentsError);
    assert.deepEqual(e.problems, ['x (path): required', 'z (path): required']);
    assert.equal(e.message, "Path /a/{x}/b/{y}/{z} needs 'x', 'z' in params.");
  });

  test('a value that makes a dot segment is refused, saying which segment', () => {
    for (const dots of ['.', '..']) {
      const e = refusal(() => serializeParams('/a/{id}/b', [{ param: param({ in: 'path' }), value: dots }]));
      assert.equal(e.code, 'invoke-unsafe-value');
      assert.equal(e.message, `A path parameter of /a/{id}/b makes the segment '${dots}', which would change the path; svc refuses it.`);
    }
  });

  test('a fixed query in the template is kept as query, wherever the ? is', () => {
    assert.deepEqual(serializeParams('/s?type=user', []), { path: '/s', query: 'type=user', headers: [], cookies: [] });
    assert.deepEqual(serializeParams('?type=user', []), { path: '', query: 'type=user', headers: [], cookies: [] });
    assert.equal(serializeParams('/s', []).query, '');
  });
});

describe('query values', () => {
  const q = (p: Partial<Parameter>, value: unknown): string => serializeParams('', [{ param: param({ in: 'query', name: 'ids', ...p }), value }]).query;

  test('only form style explodes by default', () => {
    assert.equal(q({}, [1, 2]), 'ids=1&ids=2');
    assert.equal(q({ style: 'form' }, [1, 2]), 'ids=1&ids=2');
    assert.equal(q({ style: 'spaceDelimited' }, [1, 2]), 'ids=1%202');
    assert.equal(q({ style: 'pipeDelimited' }, [1, 2]), 'ids=1|2');
  });

  test('an empty array sends no pair, in any style, exploded or not', () => {
    for (const style of [undefined, 'form', 'spaceDelimited', 'pipeDelimited']) {
      for (const explode of [undefined, false, true]) {
        assert.equal(q({ ...(style ? { style } : {}), ...(explode !== undefined ? { explode } : {}) }, []), '', `${style} ${explode}`);
      }
    }
  });

  test('spaceDelimited and pipeDelimited objects are one pair, whatever explode says', () => {
    for (const explode of [undefined, false, true]) {
      assert.equal(q({ style: 'spaceDelimited', ...(explode !== undefined ? { explode } : {}) }, { a: 1, b: 2 }), 'ids=a%201%20b%202');
      assert.equal(q({ style: 'pipeDelimited', ...(explode !== undefined ? { explode } : {}) }, { a: 1, b: 2 }), 'ids=a|1|b|2');
    }
  });

  test('numbers, booleans and null as plain text; other values as JSON text', () => {
    assert.equal(q({}, 0), 'ids=0');
    assert.equal(q({}, Number.POSITIVE_INFINITY), 'ids=Infinity');
    assert.equal(q({}, 12345678901234567890n), 'ids=12345678901234567890');
    assert.equal(q({}, { a: [1], b: true }), 'a=%5B1%5D&b=true');
    assert.equal(q({}, -1.5), 'ids=-1.5');
    assert.equal(q({}, false), 'ids=false');
    assert.equal(q({}, null), 'ids=');
    assert.equal(q({ explode: false }, [1, true, null]), 'ids=1,true,');
  });

  test('deepObject: scalars as a plain pair, arrays of scalars without indexes, indexes once an item is an object or array', () => {
    const deep = (value: unknown) => decodeURIComponent(q({ style: 'deepObject', explode: true }, value));
    assert.equal(deep(5), 'ids=5');
    assert.equal(deep('x y'), 'ids=x y');
    assert.equal(deep([1, 2]), 'ids[]=1&ids[]=2');
    assert.equal(deep([null, 1]), 'ids[]=&ids[]=1');
    assert.equal(deep([1, { a: 2 }]), 'ids[0]=1&ids[1][a]=2');
    assert.equal(deep([[1], 2]), 'ids[0][]=1&ids[1]=2');
    assert.equal(deep({ a: { b: [1] } }), 'ids[a][b][]=1');
  });

  test('deepObject nests at most 16 levels, objects or arrays; deeper values are JSON text', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 24 }), fc.boolean(), (depth, arrays) => {
        let value: unknown = 'v';
        for (let i = 0; i < depth; i++) value = arrays ? [value, 'w'] : { k: value };
        const out = decodeURIComponent(q({ style: 'deepObject', explode: true }, value)).split('&')[0]!;
        const brackets = out.slice(0, out.indexOf('=')).match(/\[[^\]]*\]/g) ?? [];
        assert.equal(brackets.length, Math.min(depth, 16), out);
        const rest = out.slice(out.indexOf('=') + 1);
        if (depth > 16) assert.ok(rest.startsWith(arrays ? '[' : '{'), out);
        else assert.equal(rest, 'v', out);
      }),
    );
  });
});

describe('header and cookie values', () => {
  const header = (value: unknown) => serializeParams('', [{ param: param({ in: 'header', name: 'X-Trace' }), value }]);
  const cookie = (value: unknown) => serializeParams('', [{ param: param({ in: 'cookie', name: 'sid' }), value }]);

  test('a line break or NUL in a value or key, within 17 levels of objects, is refused, naming the header or cookie', () => {
    for (const bad of ['a\nb', 'a\rb', 'a\u0000b']) {
      for (let depth = 0; depth <= 17; depth++) {
        for (const inKey of [false, true]) {
          if (inKey && depth === 0) continue;
          const value = inKey ? nested(depth - 1, { [bad]: 'v' }) : nested(depth, bad);
          const h = refusal(() => header(value));
          assert.equal(h.code, 'invoke-unsafe-value');
          assert.equal(h.message, "Header 'X-Trace' contains a line break (CR or LF) or NUL; svc refuses it, since it could inject headers.", `${depth} ${inKey}`);
          const c = refusal(() => cookie(value));
          assert.equal(c.message, "Header 'Cookie 'sid'' contains a line break (CR or LF) or NUL; svc refuses it, since it could inject headers.", `${depth} ${inKey}`);
        }
      }
    }
  });

  test('deeper than that the value is JSON text, where a line break is escaped', () => {
    for (let depth = 18; depth <= 21; depth++) {
      const [, value] = header(nested(depth, 'a\nb')).headers[0]!;
      assert.ok(!/[\r\n\0]/.test(value), value);
      assert.ok(value.includes('a\\nb'), value);
    }
  });

  test('null inside an object value is an empty text, not a failure', () => {
    assert.deepEqual(header({ a: null, b: 1 }).headers, [['X-Trace', 'a,,b,1']]);
    assert.deepEqual(header(null).headers, [['X-Trace', '']]);
    assert.deepEqual(cookie({ a: null }).cookies, ['sid=a,']);
  });
});
