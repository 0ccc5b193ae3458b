// A resolved JSON schema as inspect shows it: the compact type label, the value flags (default,
// example) cut short, the allowed values bounded, and the field list bounded in depth and lines,
// leaving out what the direction never carries.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_FIELD_DEPTH, MAX_FIELD_DEPTH, enumLabel, fieldLines, typeLabel, valueFlags, valueText, withFormat } from '../../src/tools/schema-text.ts';

describe('typeLabel', () => {
  it('names what is not a schema object', () => {
    assert.equal(typeLabel(false), 'never');
    for (const v of [true, undefined, null, 3, 'string', [{ type: 'string' }]]) assert.equal(typeLabel(v), 'any', JSON.stringify(v));
  });

  it('names references that are not expanded by their last segment', () => {
    assert.equal(typeLabel({ $circular: '#/components/schemas/FamilyMember' }), 'ref:FamilyMember');
    assert.equal(typeLabel({ $circular: 'Plain' }), 'ref:Plain');
    assert.equal(typeLabel({ $truncated: 'other.yaml#/defs/Deep' }), 'ref:Deep');
    assert.equal(typeLabel({ $truncated: 'depth' }), 'object');
    assert.equal(typeLabel({ $truncated: 'size limit' }), 'object');
    assert.equal(typeLabel({ $unresolved: './gone.yaml#/X', reason: 'no file' }), 'unresolvable ref ./gone.yaml#/X');
    assert.equal(typeLabel({ $circular: '#/a/B', $truncated: 'depth' }), 'ref:B');
    assert.equal(typeLabel({ $truncated: '#/a/C', $unresolved: 'x' }), 'ref:C');
  });

  it('gives the type, with a short plain format on strings and numbers only', () => {
    assert.equal(typeLabel({ type: 'string' }), 'string');
    assert.equal(typeLabel({ type: 'integer', format: 'int64' }), 'integer(int64)');
    assert.equal(typeLabel({ type: 'number', format: 'double' }), 'number(double)');
    assert.equal(typeLabel({ type: 'string', format: 'date-time' }), 'string(date-time)');
    assert.equal(typeLabel({ type: 'boolean', format: 'flag' }), 'boolean');
    assert.equal(typeLabel({ type: 'string', format: 'has space' }), 'string');
    assert.equal(typeLabel({ type: 'string', format: 'x'.repeat(25) }), 'string');
    assert.equal(typeLabel({ type: 'string', format: `a${'x'.repeat(23)}` }), `string(a${'x'.repeat(23)})`);
    assert.equal(typeLabel({ type: 'string', format: '-bad' }), 'string');
    assert.equal(typeLabel({ type: 'string', format: 7 }), 'string');
    assert.equal(typeLabel({ type: ['string', 'null'] }), 'string|null');
    assert.equal(typeLabel({ type: ['integer', 'string'], format: 'int32' }), 'integer(int32)|string(int32)');
  });

  it('infers object, array or any when no type is given', () => {
    assert.equal(typeLabel({ properties: { a: {} } }), 'object');
    assert.equal(typeLabel({ items: { type: 'string' } }), 'string[]');
    assert.equal(typeLabel({}), 'any');
    assert.equal(typeLabel({ description: 'x' }), 'any');
  });

  it('writes arrays with their item type, in parentheses when the item has alternatives', () => {
    assert.equal(typeLabel({ type: 'array', items: { type: 'integer' } }), 'integer[]');
    assert.equal(typeLabel({ type: 'array' }), 'any[]');
    assert.equal(typeLabel({ type: 'array', items: { type: 'array', items: { type: 'string' } } }), 'string[][]');
    assert.equal(typeLabel({ type: 'array', items: { enum: ['a', 'b'] } }), '(a|b)[]');
    assert.equal(typeLabel({ type: 'array', items: { $circular: '#/x/Node' } }), 'ref:Node[]');
  });

  it('writes a map for an object of additional properties only', () => {
    assert.equal(typeLabel({ type: 'object', additionalProperties: { type: 'integer' } }), 'map of integer');
    assert.equal(typeLabel({ type: 'object', additionalProperties: true }), 'object');
    assert.equal(typeLabel({ type: 'object', properties: { a: {} }, additionalProperties: { type: 'integer' } }), 'object');
    assert.equal(typeLabel({ type: 'object' }), 'object');
  });

  it('lists allowed values, a constant, or the alternatives once each', () => {
    assert.equal(typeLabel({ type: 'string', enum: ['open', 'closed'] }), 'open|closed');
    assert.equal(typeLabel({ const: 'fixed' }), '"fixed"');
    assert.equal(typeLabel({ const: 0 }), '0');
    assert.equal(typeLabel({ oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'string' }] }), 'string|integer');
    assert.equal(typeLabel({ anyOf: [{ type: 'string' }, 'junk', { type: 'boolean' }] }), 'string|boolean');
    assert.equal(typeLabel({ oneOf: [], type: 'integer' }), 'integer');
    assert.equal(typeLabel({ oneOf: 'nope', type: 'integer' }), 'integer');
    assert.equal(typeLabel({ oneOf: [{ type: 'string' }], anyOf: [{ type: 'number' }] }), 'string');
  });

  it('adds null once for a nullable schema', () => {
    assert.equal(typeLabel({ type: 'string', nullable: true }), 'string|null');
    assert.equal(typeLabel({ type: ['string', 'null'], nullable: true }), 'string|null');
    assert.equal(typeLabel({ type: 'string', nullable: 'yes' }), 'string');
    assert.equal(typeLabel({ type: 'string', nullable: false }), 'string');
    assert.equal(typeLabel({ enum: ['a', null], nullable: true }), 'a|null');
    assert.equal(typeLabel({ oneOf: [{ type: 'nullable' }], nullable: true }), 'nullable|null');
  });

  it('folds allOf parts: the first type, items, enum, format, alternatives and nullability found', () => {
    assert.equal(typeLabel({ allOf: [{ type: 'integer' }, { format: 'int64' }] }), 'integer(int64)');
    assert.equal(typeLabel({ allOf: [{ type: 'string' }, { type: 'integer' }] }), 'string');
    assert.equal(typeLabel({ type: 'number', allOf: [{ type: 'string' }] }), 'number');
    assert.equal(typeLabel({ allOf: [{ items: { type: 'string' } }] }), 'string[]');
    assert.equal(typeLabel({ allOf: [{ enum: ['x', 'y'] }] }), 'x|y');
    assert.equal(typeLabel({ allOf: [{ oneOf: [{ type: 'string' }, { type: 'number' }] }] }), 'string|number');
    assert.equal(typeLabel({ allOf: [{ anyOf: [{ type: 'boolean' }] }] }), 'boolean');
    assert.equal(typeLabel({ allOf: [{ type: 'string' }, { nullable: true }] }), 'string|null');
    assert.equal(typeLabel({ allOf: [{ $circular: '#/x/Loop' }] }), 'ref:Loop');
    assert.equal(typeLabel({ allOf: [{ $circular: '#/x/Loop' }], description: 'The loop.' }), 'ref:Loop');
    assert.equal(typeLabel({ allOf: [{ $truncated: '#/x/Far' }] }), 'ref:Far');
    assert.equal(typeLabel({ allOf: [{ $truncated: 'depth' }] }), 'object');
    assert.equal(typeLabel({ allOf: [{ allOf: [{ $circular: '#/x/Inner' }] }] }), 'ref:Inner');
    assert.equal(typeLabel({ $circular: '#/x/Own', allOf: [{ $circular: '#/x/Part' }] }), 'ref:Own');
    assert.equal(typeLabel({ allOf: [{ properties: { a: {} } }] }), 'object');
    assert.equal(typeLabel({ allOf: [{ type: 'object', additionalProperties: { type: 'string' } }] }), 'map of string');
    assert.equal(typeLabel({ allOf: [{ allOf: [{ type: 'boolean' }] }] }), 'boolean');
    assert.equal(typeLabel({ allOf: ['junk', null, { type: 'integer' }] }), 'integer');
    assert.equal(typeLabel({ allOf: 'junk', type: 'integer' }), 'integer');
  });
});

describe('enumLabel', () => {
  it('joins the values with |, strings bare unless empty or holding |, others as JSON', () => {
    assert.equal(enumLabel(['a', 'b']), 'a|b');
    assert.equal(enumLabel(['', 'a|b', 1, true, null, { x: 1 }]), '""|"a|b"|1|true|null|{"x":1}');
    assert.equal(enumLabel([]), '');
  });

  it('stops before 80 characters and says how many values there are', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,15}$/), { minLength: 1, maxLength: 30 }), (values) => {
        const label = enumLabel(values);
        const full = values.join('|');
        if (full.length <= 80) assert.equal(label, full);
        else {
          const m = /^(?:(.+)\|)?…\((\d+) values\)$/.exec(label);
          assert.ok(m, label);
          assert.equal(Number(m[2]), values.length);
          const shown = m[1] ?? '';
          assert.ok(shown.length <= 80);
          // As many values as fit: one more would pass 80 characters.
          const count = shown === '' ? 0 : shown.split('|').length;
          assert.deepEqual(shown === '' ? [] : shown.split('|'), values.slice(0, count));
          assert.ok(`${shown}${shown ? '|' : ''}${values[count]}`.length > 80);
        }
      }),
    );
    assert.equal(enumLabel(['x'.repeat(80)]), 'x'.repeat(80));
    assert.equal(enumLabel(['x'.repeat(79), 'y']), `${'x'.repeat(79)}|…(2 values)`);
    assert.equal(enumLabel(['x'.repeat(78), 'y']), `${'x'.repeat(78)}|y`);
  });

  it('says only how many values there are when the first is already too long, with no empty alternative before it', () => {
    assert.equal(enumLabel(['x'.repeat(81)]), '…(1 values)');
    assert.equal(enumLabel(['x'.repeat(81), 'y', 'z']), '…(3 values)');
    assert.equal(typeLabel({ type: 'array', items: { enum: ['x'.repeat(90), 'b'] } }), '…(2 values)[]');
  });
});

describe('values shown', () => {
  it('are JSON on one line, cut to 40 characters', () => {
    assert.equal(valueText('Rex'), '"Rex"');
    assert.equal(valueText(20), '20');
    assert.equal(valueText({ a: [1, 2] }), '{"a":[1,2]}');
    assert.equal(valueText(undefined), 'undefined');
    assert.equal(valueText('two\nlines'), '"two\\nlines"');
    assert.equal(valueText(10n), '10');
    const loop: Record<string, unknown> = {};
    loop['self'] = loop;
    assert.equal(valueText(loop), '[object Object]');
    assert.equal(valueText('x'.repeat(38)), `"${'x'.repeat(38)}"`);
    assert.equal(valueText('x'.repeat(39)), `"${'x'.repeat(38)}…`);
    fc.assert(fc.property(fc.jsonValue(), (v) => assert.ok(valueText(v).length <= 40)));
  });

  it('flag the default and the first example, an example equal to the default left out', () => {
    assert.deepEqual(valueFlags(undefined), []);
    assert.deepEqual(valueFlags('x'), []);
    assert.deepEqual(valueFlags({}), []);
    assert.deepEqual(valueFlags({ default: 20 }), ['default 20']);
    assert.deepEqual(valueFlags({ default: false }), ['default false']);
    assert.deepEqual(valueFlags({ example: 'Rex' }), ['e.g. "Rex"']);
    assert.deepEqual(valueFlags({ example: 0 }), ['e.g. 0']);
    assert.deepEqual(valueFlags({ examples: ['a', 'b'] }), ['e.g. "a"']);
    assert.deepEqual(valueFlags({ examples: [] }), []);
    assert.deepEqual(valueFlags({ examples: { a: 1 } }), []);
    assert.deepEqual(valueFlags({ example: 'own', examples: ['other'] }), ['e.g. "own"']);
    assert.deepEqual(valueFlags({ default: 5, example: 5 }), ['default 5']);
    assert.deepEqual(valueFlags({ default: 5, example: 6 }), ['default 5', 'e.g. 6']);
    assert.deepEqual(valueFlags({ default: 5, examples: [5] }), ['default 5']);
    assert.deepEqual(valueFlags({ default: null }), ['default null']);
  });

  it('keep a short plain format beside its type', () => {
    assert.equal(withFormat('string', 'uuid'), 'string(uuid)');
    assert.equal(withFormat('object', 'uuid'), 'object');
    assert.equal(withFormat('integer', undefined), 'integer');
    assert.equal(withFormat('number', 'a.b+c_d-e'), 'number(a.b+c_d-e)');
    assert.equal(withFormat('number', 'x\ny'), 'number');
  });
});

describe('fieldLines', () => {
  const pet = {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string', description: 'The name. Long text follows.' },
      id: { type: 'integer', readOnly: true },
      secret: { type: 'string', writeOnly: true },
      old: { type: 'string', deprecated: true },
      kids: { type: 'array', items: { $circular: '#/components/schemas/Pet' } },
      mate: { allOf: [{ $circular: '#/components/schemas/Pet' }], description: 'The mate.' },
      pups: { type: 'array', items: { allOf: [{ $circular: '#/components/schemas/Pet' }] } },
      owner: { type: 'object', properties: { address: { type: 'object', properties: { city: { type: 'object', properties: { zip: { type: 'string' } } } } } } },
    },
  };

  it('writes one line per field with type, flags and first sentence, nested fields indented', () => {
    assert.deepEqual(fieldLines(pet), [
      '  name (string, required): The name.',
      '  secret (string)',
      '  old (string, deprecated)',
      '  kids (ref:Pet[], circular)',
      '  mate (ref:Pet, circular): The mate.',
      '  pups (ref:Pet[], circular)',
      '  owner (object)',
      '    address (object)',
      '      city (object)',
    ]);
    assert.deepEqual(fieldLines(pet, { direction: 'response', depth: 1, indent: '> ' }), ['> name (string, required): The name.', '> id (integer)', '> old (string, deprecated)', '> kids (ref:Pet[], circular)', '> mate (ref:Pet, circular): The mate.', '> pups (ref:Pet[], circular)', '> owner (object)']);
  });

  it('shows depth levels, from 1 to 6 whatever is asked', () => {
    const deep = (n: number): Record<string, unknown> => (n === 0 ? { type: 'string' } : { type: 'object', properties: { [`f${n}`]: deep(n - 1) } });
    const schema = deep(9);
    assert.equal(DEFAULT_FIELD_DEPTH, 3);
    assert.equal(MAX_FIELD_DEPTH, 6);
    for (const [asked, shown] of [[undefined, 3], [0, 1], [-3, 1], [1, 1], [2, 2], [6, 6], [7, 6], [50, 6]] as const) {
      assert.equal(fieldLines(schema, asked === undefined ? {} : { depth: asked }).length, shown, `depth ${asked}`);
    }
  });

  it('says a list is a list, once, and shows the fields of its items', () => {
    assert.deepEqual(fieldLines({ type: 'array', items: { properties: { a: { type: 'string' } } } }), ['  (a list; each item:)', '  a (string)']);
    assert.deepEqual(fieldLines({ allOf: [{ items: { properties: { a: { type: 'string' } } } }] }), ['  (a list; each item:)', '  a (string)']);
    assert.deepEqual(fieldLines({ items: { items: { properties: { a: { type: 'string' } } } } }), ['  (a list; each item:)', '  a (string)']);
  });

  it('shows the only object alternative, merged allOf parts, and says when the fields are not expanded', () => {
    assert.deepEqual(fieldLines({ oneOf: [{ type: 'string' }, { properties: { a: { type: 'integer' } } }] }), ['  a (integer)']);
    assert.deepEqual(fieldLines({ oneOf: [{ properties: { a: {} } }, { properties: { b: {} } }] }), ['  (an object; the spec lists no fields)']);
    assert.deepEqual(fieldLines({ allOf: [{ properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'integer' } }, required: ['b'] }] }), [
      '  a (string, required)',
      '  b (integer, required)',
    ]);
    assert.deepEqual(fieldLines({ properties: { a: { type: 'string' } }, required: ['a'], allOf: [{ properties: { b: {} } }] }), ['  a (string, required)', '  b (any)']);
    assert.deepEqual(fieldLines({ properties: { $truncated: 'depth' } }), ['  (fields not expanded)']);
    assert.deepEqual(fieldLines({ properties: { $circular: '#/x' } }), ['  (fields not expanded)']);
    assert.deepEqual(fieldLines({ properties: { a: { properties: { $truncated: 'x' } } } }), ['  a (object)', '    (fields not expanded)']);
    assert.deepEqual(fieldLines({ properties: { a: { type: 'string' } }, required: 'a' }), ['  a (string)']);
  });

  it('says what a schema without fields is, in one line, never nothing', () => {
    const one = (schema: unknown, direction?: 'request' | 'response') => fieldLines(schema, direction ? { direction } : {});
    assert.deepEqual(one(undefined), ['  (any JSON: the spec does not describe it)']);
    assert.deepEqual(one({}), ['  (any JSON: the spec does not describe it)']);
    assert.deepEqual(one({ type: 'object' }), ['  (an object; the spec lists no fields)']);
    assert.deepEqual(one({ $truncated: 'depth' }), ['  (an object too deep to expand here)']);
    assert.deepEqual(one({ type: 'object', $circular: '#/a/Obj' }), ['  ref:Obj']);
    assert.deepEqual(one({ type: 'string', format: 'binary' }), ['  string(binary): the raw content, not JSON']);
    assert.deepEqual(one({ type: 'string', format: 'byte' }), ['  string(byte): the raw content, not JSON']);
    assert.deepEqual(one({ type: 'string', format: 'bytes' }), ['  string(bytes)']);
    assert.deepEqual(one({ type: 'string', default: 'x' }), ['  string (default "x")']);
    assert.deepEqual(one({ type: 'integer' }), ['  integer']);
    assert.deepEqual(one({ type: 'object', properties: {} }, 'request'), ['  (an object; the spec lists no fields to send)']);
    assert.deepEqual(one({ type: 'object', properties: {} }, 'response'), ['  (an object; the spec lists no fields it returns)']);
    assert.deepEqual(one({ type: 'object', properties: { id: { readOnly: true } } }), ['  (an object; the spec lists no fields to send)']);
    assert.deepEqual(one({ type: 'object', properties: { id: { writeOnly: true } } }, 'response'), ['  (an object; the spec lists no fields it returns)']);
    assert.deepEqual(one({ type: 'object', properties: { id: { readOnly: 'yes' } } }), ['  id (any)']);
    assert.deepEqual(fieldLines({ enum: ['a\nb'] }), ['  a b']);
  });

  it('stops at 80 lines and says how many more fields there are', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.boolean(), (n, asList) => {
        const properties = Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, { type: 'integer' }]));
        const schema = asList ? { type: 'array', items: { properties } } : { properties };
        const lines = fieldLines(schema);
        const head = asList ? 1 : 0;
        const shown = Math.min(n, 80 - head);
        assert.deepEqual(lines.slice(head, head + shown), Array.from({ length: shown }, (_, i) => `  f${i} (integer)`));
        assert.deepEqual(lines.slice(head + shown), n > shown ? [`  … ${n - shown} more fields`] : []);
      }),
    );
  });

  it('keeps a field name, and an allowed value, with a line break on its line', () => {
    assert.deepEqual(fieldLines({ properties: { 'a\nb': { enum: ['x\ny', 'z'] } } }), ['  a b (x y|z)']);
  });
});
