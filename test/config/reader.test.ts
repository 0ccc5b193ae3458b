// The typed YAML reader under svc.yaml, from its contract: each read either returns the value or
// records one problem (key path, line, a message saying what was expected and what was found),
// never both; secrets are never echoed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { LineCounter, parseDocument } from 'yaml';
import { describe as describeNode, ENDPOINT_KEYS, Reader, type Located } from '../../src/config/reader.ts';

/** A reader over `text` and the located value of top-level `key`. */
function read(text: string): { r: Reader; root: Located; get(key: string): Located } {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  const r = new Reader(doc, lines);
  const root = r.root();
  return {
    r,
    root,
    get(key) {
      const keys = (doc.contents as { items: { key: { value: unknown } }[] }).items.map((p) => String(p.key.value));
      const v = r.map(root, keys)?.get(key);
      assert.ok(v, `no key ${key}`);
      return v;
    },
  };
}

/** Reads `value` (YAML text) as `v:` and applies `fn`; returns the result and the problems. */
function one<T>(value: string, fn: (r: Reader, at: Located) => T): { value: T; problems: Reader['problems'] } {
  const { r, get } = read(`v: ${value}\n`);
  return { value: fn(r, get('v')), problems: r.problems };
}

describe('describe: what the user wrote, for "must be X, not Y"', () => {
  it('names every kind of node', () => {
    const { r, get } = read('a: {x: 1}\nb: [1]\nc:\nd: ""\ne: "  "\nf: 12\ng: true\nh: false\ni: short\n');
    assert.equal(describeNode(get('a').node), 'a mapping');
    assert.equal(describeNode(get('b').node), 'a list');
    assert.equal(describeNode(get('c').node), 'empty');
    assert.equal(describeNode(get('d').node), 'empty text');
    assert.equal(describeNode(get('e').node), 'empty text');
    assert.equal(describeNode(get('f').node), 'the number 12');
    assert.equal(describeNode(get('g').node), 'true');
    assert.equal(describeNode(get('h').node), 'false');
    assert.equal(describeNode(get('i').node), '`short`');
    assert.equal(describeNode(undefined), 'empty');
    assert.equal(describeNode(null), 'empty');
    assert.equal(describeNode({}), 'something else');
    assert.equal(r.problems.length, 0);
  });

  it('cuts text over 40 characters and keeps text up to 40 whole', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,80}$/), (text) => {
        const { get } = read(`v: ${text}\n`);
        const expected = text.length > 40 ? `\`${text.slice(0, 40)}...\`` : `\`${text}\``;
        assert.equal(describeNode(get('v').node), expected);
      }),
    );
  });
});

describe('lines and key paths', () => {
  it('gives each value its 1-based line, the key line for an empty value, and dotted/indexed key paths', () => {
    const { r, root } = read('top:\n  inner:\n    - a\n    - b\n  empty:\n');
    const top = r.map(root, ['top'])!.get('top')!;
    assert.deepEqual([top.key, top.line], ['top', 2]);
    const inner = r.map(top, ['inner', 'empty'])!;
    const list = r.list(inner.get('inner')!)!;
    assert.deepEqual(list.map((x) => [x.key, x.line]), [['top.inner[0]', 3], ['top.inner[1]', 4]]);
    const empty = inner.get('empty')!;
    assert.deepEqual([empty.key, empty.line, r.scalar(empty)], ['top.empty', 5, null]);
    assert.equal(root.line, 1);
    assert.equal(r.problems.length, 0);
  });

  it('records a problem without a line as key and message alone', () => {
    const { r } = read('a: 1\n');
    assert.equal(r.problem({ key: 'k' }, 'm'), undefined);
    r.problem({ key: 'k2', line: 3 }, 'm2');
    assert.deepEqual(r.problems, [{ key: 'k', message: 'm' }, { key: 'k2', line: 3, message: 'm2' }]);
    assert.equal(Object.hasOwn(r.problems[0]!, 'line'), false);
  });

  it('follows YAML aliases in mappings and lists', () => {
    const { r, root } = read('a: &x 5\nb: *x\nc: [*x]\nd: &m {k: v}\ne: *m\n');
    const m = r.map(root, ['a', 'b', 'c', 'd', 'e'])!;
    assert.equal(r.integer(m.get('b')!, 0, 10), 5);
    assert.equal(r.integer(r.list(m.get('c')!)![0]!, 0, 10), 5);
    assert.equal(r.string(r.mapAny(m.get('e')!)!.get('k')!), 'v');
    assert.equal(r.problems.length, 0);
  });
});

describe('mappings', () => {
  it('refuses a non-mapping, naming what it is', () => {
    for (const [text, what] of [['[1]', 'a list'], ['3', 'the number 3'], ['', 'empty']] as const) {
      const a = one(text, (r, at) => r.map(at, ['x']));
      assert.equal(a.value, undefined);
      assert.deepEqual(a.problems, [{ key: 'v', line: 1, message: `must be a mapping (key: value lines), not ${what}` }]);
      const b = one(text, (r, at) => r.mapAny(at));
      assert.equal(b.value, undefined);
      assert.equal(b.problems[0]!.message, `must be a mapping (key: value lines), not ${what}`);
    }
  });

  it('refuses keys that are not plain words', () => {
    for (const fn of [(r: Reader, at: Located) => r.map(at, ['a']), (r: Reader, at: Located) => r.mapAny(at)]) {
      const { r, get } = read('v:\n  ? [x]\n  : 1\n  a: 2\n');
      const m = fn(r, get('v'))!;
      assert.deepEqual([...m.keys()], ['a']);
      assert.deepEqual(r.problems, [{ key: 'v', line: 2, message: 'keys must be plain words' }]);
    }
  });

  it('suggests the closest known key, else a hint for a word people use, else lists the known keys', () => {
    const unknown = (key: string, known: readonly string[]): string => {
      const { r, get } = read(`v:\n  ${key}: 1\n`);
      r.map(get('v'), known);
      assert.equal(r.problems.length, 1);
      assert.equal(r.problems[0]!.key, `v.${key}`);
      assert.equal(r.problems[0]!.line, 2);
      return r.problems[0]!.message;
    };
    assert.equal(unknown('nmae', ['name', 'path']), 'unknown key `nmae`; did you mean `name`?');
    const far = ['zzzzzzzzzzzz'];
    assert.equal(unknown('file', far), 'unknown key `file`; use path');
    assert.equal(unknown('URL', far), 'unknown key `URL`; use path (a local file) or baseUrl (where requests go)');
    assert.equal(unknown('server', far), 'unknown key `server`; use baseUrl');
    assert.equal(unknown('token', far), 'unknown key `token`; use auth: { type: bearer, token: ${ENV_VAR} }');
    assert.equal(unknown('apiKey', far), 'unknown key `apiKey`; use auth: { type: apiKey, name: ..., value: ${ENV_VAR} }');
    assert.equal(unknown('timeout', far), 'unknown key `timeout`; use timeoutMs');
    assert.equal(unknown('qqqqqqqq', ['aaaaaaaaaaaa', 'bbbbbbbbbbbbbb']), 'unknown key `qqqqqqqq`; known keys: aaaaaaaaaaaa, bbbbbbbbbbbbbb');
  });

  it('refuses every key that would change endpoints, in any case, citing the rule, only where the rule applies', () => {
    for (const word of ENDPOINT_KEYS) {
      for (const key of [word, word.toUpperCase()]) {
        const { r, get } = read(`v:\n  ${key}: 1\n`);
        r.map(get('v'), ['name'], 'the thing');
        assert.deepEqual(r.problems, [
          {
            key: `v.${key}`,
            line: 2,
            message:
              `svc.yaml cannot change endpoints: \`${key}\` would add, remove, rename or modify the thing. ` +
              'Endpoints come from the API description unchanged; edit that file (or list another one) instead.',
          },
        ]);
      }
      const plain = read(`v:\n  ${word}: 1\n`);
      plain.r.map(plain.get('v'), ['name']);
      assert.match(plain.r.problems[0]!.message, /^unknown key/);
    }
    assert.equal(ENDPOINT_KEYS.size, 37);
  });
});

describe('lists and scalars', () => {
  it('refuses a non-list, naming what it is', () => {
    const a = one('{a: 1}', (r, at) => r.list(at));
    assert.equal(a.value, undefined);
    assert.deepEqual(a.problems, [{ key: 'v', line: 1, message: 'must be a list (lines starting with `- `), not a mapping' }]);
  });

  it('scalar gives the plain value, null for an empty value, undefined for a collection', () => {
    assert.equal(one('7', (r, at) => r.scalar(at)).value, 7);
    assert.equal(one('', (r, at) => r.scalar(at)).value, null);
    assert.equal(one('[]', (r, at) => r.scalar(at)).value, undefined);
    assert.equal(one('{}', (r, at) => r.scalar(at)).value, undefined);
  });

  it('string takes non-blank text only and says what it wanted', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z][a-z ]{0,20}$/), (text) => {
        const a = one(JSON.stringify(text), (r, at) => r.string(at, 'a thing'));
        assert.equal(a.value, text);
        assert.deepEqual(a.problems, []);
      }),
    );
    for (const [text, found] of [['"  "', 'empty text'], ['', 'empty'], ['3', 'the number 3'], ['[a]', 'a list']] as const) {
      const a = one(text, (r, at) => r.string(at, 'a thing'));
      assert.equal(a.value, undefined);
      assert.deepEqual(a.problems, [{ key: 'v', line: 1, message: `must be a thing, not ${found}` }]);
    }
    assert.equal(one('3', (r, at) => r.string(at)).problems[0]!.message, 'must be text, not the number 3');
  });

  it('boolean takes true and false only', () => {
    assert.equal(one('true', (r, at) => r.boolean(at)).value, true);
    assert.equal(one('false', (r, at) => r.boolean(at)).value, false);
    const a = one('"yes"', (r, at) => r.boolean(at));
    assert.equal(a.value, undefined);
    assert.equal(a.problems[0]!.message, 'must be true or false, not `yes`');
  });

  it('integer takes whole numbers within [min, max] and nothing else', () => {
    fc.assert(
      fc.property(fc.integer({ min: -50, max: 50 }), fc.integer({ min: -20, max: 20 }), fc.integer({ min: 0, max: 20 }), (n, min, span) => {
        const max = min + span;
        const a = one(String(n), (r, at) => r.integer(at, min, max));
        if (n >= min && n <= max) assert.deepEqual([a.value, a.problems.length], [n, 0]);
        else assert.deepEqual([a.value, a.problems[0]!.message], [undefined, `must be a whole number from ${min} to ${max}, not the number ${n}`]);
      }),
    );
    assert.equal(one('1.5', (r, at) => r.integer(at, 0, 10)).value, undefined);
    assert.equal(one('"3"', (r, at) => r.integer(at, 0, 10)).value, undefined);
  });

  it('oneOf takes one of the choices exactly', () => {
    assert.equal(one('b', (r, at) => r.oneOf(at, ['a', 'b'])).value, 'b');
    const a = one('B', (r, at) => r.oneOf(at, ['a', 'b']));
    assert.deepEqual([a.value, a.problems[0]!.message], [undefined, 'must be one of a, b, not `B`']);
    assert.equal(one('1', (r, at) => r.oneOf(at, ['1'])).value, undefined, 'a number is not the text choice');
  });

  it('size reads whole numbers and text with a unit in powers of 1024, in any case and spacing', () => {
    const units: [string, number][] = [
      ['', 1], ['b', 1], ['k', 1024], ['kb', 1024], ['kib', 1024], ['m', 1024 ** 2], ['mb', 1024 ** 2], ['mib', 1024 ** 2],
      ['g', 1024 ** 3], ['gb', 1024 ** 3], ['gib', 1024 ** 3],
    ];
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.constantFrom(...units), fc.boolean(), fc.constantFrom('', ' ', '  '), fc.boolean(), (n, [unit, factor], upper, gap, half) => {
        const number = half ? `${n}.5` : String(n);
        const text = ` ${number}${gap}${upper ? unit.toUpperCase() : unit} `;
        const a = one(JSON.stringify(text), (r, at) => r.size(at));
        assert.deepEqual(a.problems, []);
        assert.equal(a.value, Math.floor((half ? n + 0.5 : n) * factor));
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 40 }), (n) => {
        assert.equal(one(String(n), (r, at) => r.size(at)).value, n);
      }),
    );
    for (const bad of ['0', '-1', '1.5', '"0kb"', '"0.1b"', '"12 tb"', '"kb"', '"-3kb"', '"1,000"', '[1]']) {
      const a = one(bad, (r, at) => r.size(at));
      assert.equal(a.value, undefined, bad);
      assert.match(a.problems[0]!.message, /^must be a size in bytes \(a number, or text like 512kb or 64MB\), not /);
    }
  });

  it('stringList takes a list of text, or one text as a list of one, and reports each bad item', () => {
    assert.deepEqual(one('solo', (r, at) => r.stringList(at)).value, ['solo']);
    const a = one('[a, "", b, 3]', (r, at) => r.stringList(at, 'a word'));
    assert.deepEqual(a.value, ['a', 'b']);
    assert.deepEqual(a.problems.map((p) => [p.key, p.message]), [['v[1]', 'must be a word, not empty text'], ['v[3]', 'must be a word, not the number 3']]);
    assert.equal(one('{a: 1}', (r, at) => r.stringList(at)).value, undefined);
    assert.equal(one('3', (r, at) => r.stringList(at)).value, undefined, 'a number is no list');
  });
});

describe('secrets', () => {
  const envName = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/);

  it('a whole ${NAME} reference is read as that variable, spaces around allowed', () => {
    fc.assert(
      fc.property(envName, fc.constantFrom('', ' '), (name, pad) => {
        assert.deepEqual(one(JSON.stringify(`${pad}\${${name}}${pad}`), (r, at) => r.secret(at)).value, { env: name });
        assert.deepEqual(one(JSON.stringify(`\${${name}}`), (r, at) => r.textOrSecret(at)).value, { env: name });
      }),
    );
  });

  it('a literal secret is refused without echoing any of it', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9+/=_-]{6,40}$/), (literal) => {
        const a = one(JSON.stringify(literal), (r, at) => r.secret(at));
        assert.equal(a.value, undefined);
        assert.equal(a.problems.length, 1);
        assert.equal(
          a.problems[0]!.message,
          'secrets are never written in svc.yaml: write an environment variable reference like ${MY_API_TOKEN} and set that variable where svc runs (the literal value was not shown)',
        );
        assert.equal(a.problems[0]!.message.includes(literal), false);
      }),
    );
    for (const text of ['12345678', 'true', '"${1BAD}"', '"${A}x"', '"$A"']) {
      assert.match(one(text, (r, at) => r.secret(at)).problems[0]!.message, /^secrets are never written in svc\.yaml/, text);
    }
  });

  it('an empty or structured secret value says what it wanted', () => {
    for (const [text, found] of [['', 'empty'], ['{a: 1}', 'a mapping'], ['[x]', 'a list']] as const) {
      const a = one(text, (r, at) => r.secret(at));
      assert.deepEqual(a.problems, [{ key: 'v', line: 1, message: `must be an environment variable reference like \${MY_API_TOKEN}, not ${found}` }]);
    }
  });

  it('textOrSecret takes text, numbers and booleans as text, refuses a partial reference and a structure', () => {
    assert.equal(one('plain words', (r, at) => r.textOrSecret(at)).value, 'plain words');
    assert.equal(one('42', (r, at) => r.textOrSecret(at)).value, '42');
    assert.equal(one('false', (r, at) => r.textOrSecret(at)).value, 'false');
    const partial = one('"Bearer ${TOKEN}"', (r, at) => r.textOrSecret(at));
    assert.equal(partial.value, undefined);
    assert.equal(partial.problems[0]!.message, 'an environment variable reference must be the whole value (`${NAME}`), not part of it');
    for (const [text, found] of [['', 'empty'], ['[1]', 'a list']] as const) {
      const a = one(text, (r, at) => r.textOrSecret(at));
      assert.deepEqual([a.value, a.problems[0]!.message], [undefined, `must be text or \${ENV_VAR}, not ${found}`]);
    }
  });
});
