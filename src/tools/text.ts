// Small text helpers shared by every renderer: everything the model reads goes through these.
import { safeLine } from '../model/safe-text.ts';

/** Control characters removed, runs of whitespace (newlines included) collapsed into single spaces. */
export function oneLine(text: string): string {
  return safeLine(text).replace(/\s+/g, ' ').trim();
}

/** Cut `text` to at most `max` characters, marking the cut with an ellipsis. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}

/** The first sentence of a description, on one line and clipped: a hint, never the full text. */
export function firstSentence(text: string | undefined, max = 100): string | undefined {
  if (!text) return undefined;
  const flat = oneLine(text.replace(/<[^>]+>/g, ' '));
  if (!flat) return undefined;
  const end = flat.search(/[.!?](\s|$)/);
  return clip(end >= 0 ? flat.slice(0, end + 1) : flat, max);
}

/** Closest names to `wanted` among `candidates`: prefix and substring matches first, then edit distance. */
export function closest(wanted: string, candidates: Iterable<string>, limit = 3): string[] {
  const w = wanted.toLowerCase();
  const scored: { name: string; score: number }[] = [];
  for (const name of candidates) {
    const n = name.toLowerCase();
    let score: number;
    if (n === w) score = 0;
    else if (n.startsWith(w) || w.startsWith(n)) score = 1;
    else if (n.includes(w) || w.includes(n)) score = 2;
    else {
      const d = editDistance(w, n);
      if (d > Math.max(2, Math.floor(Math.max(w.length, n.length) / 3))) continue;
      score = 3 + d;
    }
    scored.push({ name, score });
  }
  scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
  return scored.slice(0, limit).map((s) => s.name);
}

function editDistance(a: string, b: string): number {
  // Too long to measure: far apart, past any bound closest allows (a third of the length grows with it).
  if (a.length > 200 || b.length > 200) return Infinity;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}
