// Where a JSON text first goes wrong. V8's JSON.parse names the position for most mistakes, but not
// for an unexpected letter or symbol ("Unexpected token '}', ..."), and a file's error must name its
// line and column whatever the mistake. This scanner runs only after JSON.parse has failed, checks
// the same grammar (RFC 8259) in one pass without recursion (a deeply nested file cannot overflow the
// stack), and returns the offset of the first character that cannot continue a JSON text.

// What may come next. Plain numbers, not an enum: Node strips the types of these files itself,
// and an enum is not a type.
const Expect = {
  Value: 0,
  ValueOrClose: 1, // just after `[`
  Key: 2,
  KeyOrClose: 3, // just after `{`
  Colon: 4,
  CommaOrClose: 5,
  End: 6,
} as const;
type Expect = (typeof Expect)[keyof typeof Expect];

const ARRAY = 0;
const OBJECT = 1;

/** Offset of the first character where `text` stops being JSON (`text.length`: it ends too soon); undefined when it is valid. */
export function jsonErrorOffset(text: string): number | undefined {
  const n = text.length;
  const open: number[] = [];
  let expect: Expect = Expect.Value;
  let i = 0;
  for (;;) {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
    if (i >= n) return expect === Expect.End ? undefined : n;
    const c = text[i];
    switch (expect) {
      case Expect.End:
        return i;
      case Expect.Colon:
        if (c !== ':') return i;
        i++;
        expect = Expect.Value;
        continue;
      case Expect.CommaOrClose: {
        const inObject = open[open.length - 1] === OBJECT;
        if (c === ',') {
          i++;
          expect = inObject ? Expect.Key : Expect.Value;
        } else if (c === (inObject ? '}' : ']')) {
          i++;
          open.pop();
          expect = open.length > 0 ? Expect.CommaOrClose : Expect.End;
        } else {
          return i;
        }
        continue;
      }
      case Expect.KeyOrClose:
      case Expect.Key: {
        if (c === '}' && expect === Expect.KeyOrClose) {
          i++;
          open.pop();
          expect = open.length > 0 ? Expect.CommaOrClose : Expect.End;
          continue;
        }
        if (c !== '"') return i;
        const end = stringEnd(text, i);
        if (end < 0) return -end - 1;
        i = end;
        expect = Expect.Colon;
        continue;
      }
      case Expect.ValueOrClose:
      case Expect.Value: {
        if (c === ']' && expect === Expect.ValueOrClose) {
          i++;
          open.pop();
          expect = open.length > 0 ? Expect.CommaOrClose : Expect.End;
          continue;
        }
        if (c === '{' || c === '[') {
          open.push(c === '{' ? OBJECT : ARRAY);
          i++;
          expect = c === '{' ? Expect.KeyOrClose : Expect.ValueOrClose;
          continue;
        }
        const end = c === '"' ? stringEnd(text, i) : c === 't' || c === 'f' || c === 'n' ? literalEnd(text, i) : numberEnd(text, i);
        if (end < 0) return -end - 1;
        i = end;
        expect = open.length > 0 ? Expect.CommaOrClose : Expect.End;
        continue;
      }
    }
  }
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

// The helpers below return the offset just past what they read, or -(bad offset) - 1.

function stringEnd(text: string, start: number): number {
  const n = text.length;
  let i = start + 1;
  while (i < n) {
    const code = text.charCodeAt(i);
    if (code === 0x22) return i + 1;
    if (code < 0x20) return -i - 1;
    if (code !== 0x5c) {
      i++;
      continue;
    }
    const escape = text[i + 1];
    if (escape === undefined) return -n - 1;
    if (escape === 'u') {
      for (let k = i + 2; k < i + 6; k++) {
        if (k >= n) return -n - 1;
        if (!isHex(text.charCodeAt(k))) return -k - 1;
      }
      i += 6;
    } else if ('"\\/bfnrt'.includes(escape)) {
      i += 2;
    } else {
      return -(i + 1) - 1;
    }
  }
  return -n - 1;
}

function isHex(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

function literalEnd(text: string, start: number): number {
  const word = text[start] === 't' ? 'true' : text[start] === 'f' ? 'false' : 'null';
  for (let k = 1; k < word.length; k++) {
    if (start + k >= text.length) return -text.length - 1;
    if (text[start + k] !== word[k]) return -(start + k) - 1;
  }
  return start + word.length;
}

function numberEnd(text: string, start: number): number {
  let i = start;
  if (text[i] === '-') i++;
  if (text[i] === '0') {
    i++;
  } else {
    const digits = digitsEnd(text, i);
    if (digits === i) return -Math.min(i, text.length) - 1;
    i = digits;
  }
  if (text[i] === '.') {
    const digits = digitsEnd(text, i + 1);
    if (digits === i + 1) return -Math.min(i + 1, text.length) - 1;
    i = digits;
  }
  if (text[i] === 'e' || text[i] === 'E') {
    i++;
    if (text[i] === '+' || text[i] === '-') i++;
    const digits = digitsEnd(text, i);
    if (digits === i) return -Math.min(i, text.length) - 1;
    i = digits;
  }
  return i;
}

function digitsEnd(text: string, start: number): number {
  let i = start;
  while (i < text.length && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
  return i;
}
