// Text that came from a spec, an API or the control socket, made safe to show: no terminal
// control sequences (colours, cursor moves, window titles, clipboard writes), no bidi overrides
// that reorder what a reader sees, and, for one-line fields, no line breaks that could forge
// an output line. Ordinary text, any script included, passes through unchanged.

/**
 * ESC sequences as terminals read them (CSI `ESC [ ... final`, OSC/DCS/APC/PM/SOS strings up to
 * BEL or ST, two-byte escapes), their 8-bit C1 forms, and the single control characters left over.
 */
const ESCAPE_SEQUENCE = /\u001b\[[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|\u009b[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|(?:\u001b[\]P^_X]|[\u0090\u0098\u009d\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[\u0020-\u002f]*[\u0030-\u007e]?/g;

/** C0 controls but tab and line feed, DEL, C1 controls, and the bidi embedding/override/isolate marks. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Line breaks a reader (or a terminal) would start a new line at. */
const LINE_BREAK = /\r\n|[\n\r\u000b\u000c\u0085\u2028\u2029]/g;

/** Everything `safeLine` removes or replaces; for checks in tests and asserts. */
export const UNSAFE_IN_LINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

/**
 * For multi-line text shown at a terminal: removes escape sequences and control characters,
 * keeps line feeds and tabs (a lone carriage return, which would overwrite the line, becomes a
 * line feed, as do the Unicode line and paragraph separators).
 */
export function safeText(text: string): string {
  // Stryker disable next-line ConditionalExpression: speed only (text without these characters comes out of the three replaces unchanged)
  if (!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/.test(text)) return text;
  return text.replace(ESCAPE_SEQUENCE, '').replace(LINE_BREAK, '\n').replace(CONTROL, '');
}

/**
 * For one-line fields (names, versions, paths, summaries in listings, status lines): `safeText`,
 * then every line break and tab becomes one space, so the field can never start a line of its own.
 */
export function safeLine(text: string): string {
  // Stryker disable next-line ConditionalExpression: speed only (such text has no tab or line break, and safeText returns it as it is)
  if (!UNSAFE_IN_LINE.test(text)) return text;
  return safeText(text).replace(/[\n\t]/g, ' ');
}
