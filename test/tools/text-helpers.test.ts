// The text helpers every tool's output goes through: one line, cut to a size with a mark, a
// description's first sentence, and the closest names for "did you mean".
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { clip, closest, firstSentence, oneLine } from '../../src/tools/text.ts';

const words = fc.array(fc.stringMatching(/^[a-z]{1,12}$/), { minLength: 1, maxLength: 30 });

describe('oneLine', () => {
  it('collapses every run of whitespace, line breaks included, into one space and trims the ends', () => {
    assert.equal(oneLine('  a \n\n b\t\tc\r\nd  '), 'a b c d');
    assert.equal(oneLine('plain'), 'plain');
    assert.equal(oneLine(' \n\t '), '');
    fc.assert(
      fc.property(words, fc.array(fc.constantFrom(' ', '\n', '\t', '\r\n', '  ', '\u2028'), { minLength: 31, maxLength: 31 }), (ws, gaps) => {
        const text = gaps[30] + ws.map((w, i) => `${w}${gaps[i]}`).join('');
        assert.equal(oneLine(text), ws.join(' '));
      }),
    );
  });

  it('removes control characters', () => {
    assert.equal(oneLine('a\u001b[31mred\u001b[0m b'), 'ared b');
  });
});

describe('clip', () => {
  it('leaves a text of at most max characters unchanged', () => {
    fc.assert(fc.property(fc.string({ maxLength: 60 }), fc.integer({ min: 1, max: 80 }), (text, extra) => assert.equal(clip(text, text.length + extra - 1), text)));
    assert.equal(clip('abcde', 5), 'abcde');
  });

  it('cuts a longer text to at most max characters ending in an ellipsis, at the last space past 60% when there is one', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,9}$/), { minLength: 1, maxLength: 20 }), fc.integer({ min: 2, max: 60 }), (ws, max) => {
        const text = ws.join(' ');
        fc.pre(text.length > max);
        const out = clip(text, max);
        assert.ok(out.length <= max, `${out.length} > ${max}`);
        assert.ok(out.endsWith('…'));
        const kept = out.slice(0, -1);
        assert.ok(text.startsWith(kept));
        // The model: the first max - 1 characters, back to their last space when that space stands past 60% of max.
        const head = text.slice(0, max - 1);
        const space = head.lastIndexOf(' ');
        assert.equal(kept, space > max * 0.6 ? head.slice(0, space) : head);
      }),
      { numRuns: 500 },
    );
  });

  it('cuts at the space past 60% of max and not at one at 60% or before', () => {
    // max 10: 60% is 6. A space at 7 is taken; a space at 6 is not.
    assert.equal(clip('abcdefg hijklmn', 10), 'abcdefg…');
    assert.equal(clip('abcdef ghijklmn', 10), 'abcdef gh…');
    assert.equal(clip('ab cd ef gh ij', 10), 'ab cd ef…');
    assert.equal(clip('abcdefghijk', 10), 'abcdefghi…');
  });
});

describe('firstSentence', () => {
  it('is undefined for no text, and for text with nothing but tags and spaces', () => {
    assert.equal(firstSentence(undefined), undefined);
    assert.equal(firstSentence(''), undefined);
    assert.equal(firstSentence(' <br/> <p></p>\n'), undefined);
  });

  it('ends at the first . ! or ? followed by a space or the end, on one line, without HTML tags', () => {
    assert.equal(firstSentence('Lists pets. Then more.'), 'Lists pets.');
    assert.equal(firstSentence('Is it up?\nYes.'), 'Is it up?');
    assert.equal(firstSentence('Stop! Now.'), 'Stop!');
    assert.equal(firstSentence('Version 1.2 of the <b>pet</b>\nstore. More'), 'Version 1.2 of the pet store.');
    assert.equal(firstSentence('No end here'), 'No end here');
    assert.equal(firstSentence('Ends.'), 'Ends.');
    assert.equal(firstSentence('a<x>b'), 'a b');
    assert.equal(firstSentence('. And then'), '.');
    assert.equal(firstSentence('? What'), '?');
  });

  it('is at most 100 characters by default, or max', () => {
    const long = `${'word '.repeat(50)}end.`;
    assert.equal(firstSentence(long), clip(oneLine(long), 100));
    assert.ok(firstSentence(long)!.length <= 100);
    assert.equal(firstSentence(long, 30), clip(oneLine(long), 30));
    assert.equal(firstSentence(`${'x'.repeat(100)}`), 'x'.repeat(100));
    assert.equal(firstSentence(`${'x'.repeat(101)}`), `${'x'.repeat(99)}…`);
  });
});

/** Levenshtein distance, the textbook recursion with a memo: the reference for `closest`. */
function levenshtein(a: string, b: string): number {
  const memo = new Map<string, number>();
  const d = (i: number, j: number): number => {
    if (i === 0) return j;
    if (j === 0) return i;
    const key = `${i},${j}`;
    let v = memo.get(key);
    if (v === undefined) {
      v = Math.min(d(i - 1, j) + 1, d(i, j - 1) + 1, d(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
      memo.set(key, v);
    }
    return v;
  };
  return d(a.length, b.length);
}

/** The ranking `closest` promises: exact, prefix either way, substring either way, then near by edits. */
function expected(wanted: string, names: readonly string[], limit: number): string[] {
  const w = wanted.toLowerCase();
  const scored: [string, number][] = [];
  for (const name of names) {
    const n = name.toLowerCase();
    if (n === w) scored.push([name, 0]);
    else if (n.startsWith(w) || w.startsWith(n)) scored.push([name, 1]);
    else if (n.includes(w) || w.includes(n)) scored.push([name, 2]);
    else {
      const d = levenshtein(w, n);
      if (d <= Math.max(2, Math.floor(Math.max(w.length, n.length) / 3))) scored.push([name, 3 + d]);
    }
  }
  scored.sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]));
  return scored.slice(0, limit).map(([n]) => n);
}

describe('closest', () => {
  const name = fc.stringMatching(/^[a-dA-D_]{0,9}$/);

  it('ranks exact, prefix, substring, then names a few edits away, case aside, best first', () => {
    fc.assert(
      fc.property(name, fc.uniqueArray(name, { maxLength: 12 }), fc.integer({ min: 1, max: 6 }), (wanted, names, limit) => {
        assert.deepEqual(closest(wanted, names, limit), expected(wanted, names, limit));
      }),
      { numRuns: 1000 },
    );
  });

  it('gives three at most by default', () => {
    assert.deepEqual(closest('pet', ['pets', 'petstore', 'pet', 'peta', 'zzz']), ['pet', 'peta', 'pets']);
    assert.deepEqual(closest('Zoo', ['zoo']), ['zoo']);
  });

  it('scores by edit distance: fewer edits first, at most a third of the longer name (two at least)', () => {
    assert.deepEqual(closest('issues', ['isues', 'issuse', 'xssuex']), ['isues', 'issuse', 'xssuex']);
    assert.deepEqual(closest('abcdef', ['abxdxf']), ['abxdxf']);
    assert.deepEqual(closest('abcdef', ['axxdxf']), []);
    assert.deepEqual(closest('abcdefghi', ['abxdxfgxi']), ['abxdxfgxi']);
    assert.deepEqual(closest('abcdefghi', ['abxdxfxxi']), []);
    assert.deepEqual(closest('ab', ['xy']), ['xy']);
    assert.deepEqual(closest('ab', ['xyz']), []);
    assert.deepEqual(closest('kitten', ['sitting']), []);
    assert.deepEqual(closest('kitten', ['sittin']), ['sittin']);
  });

  it('measures names of up to 200 characters exactly, and longer ones as far apart', () => {
    const long = 'a'.repeat(199);
    assert.deepEqual(closest(`${long}b`, [`${long}c`]), [`${long}c`]);
    assert.deepEqual(closest(`b${long}`, [`c${long}`]), [`c${long}`]);
    const longer = 'a'.repeat(200);
    assert.deepEqual(closest(`${longer}b`, [`${longer}c`]), []);
    assert.deepEqual(closest(`b${longer}`, [`c${longer}`]), []);
    // Near by edits (52 of at most 67), but one name is past 200 characters.
    assert.deepEqual(closest(`${'a'.repeat(75)}b${'a'.repeat(74)}`, [`c${longer}`]), []);
    assert.deepEqual(closest(`c${longer}`, [`${'a'.repeat(75)}b${'a'.repeat(74)}`]), []);
  });

  it('never calls two unrelated names near because they are long', () => {
    // A third of 600 characters is 200 edits: the bound for long names must not make them all near.
    fc.assert(
      fc.property(fc.integer({ min: 201, max: 700 }), fc.integer({ min: 0, max: 30 }), (length, more) => {
        assert.deepEqual(closest('x'.repeat(length), ['y'.repeat(length + more)]), []);
        assert.deepEqual(closest('y'.repeat(length + more), ['x'.repeat(length)]), []);
      }),
    );
  });
});
