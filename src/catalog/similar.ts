// Closeness of ids and paths, for "did you mean" suggestions on unknown ids.

/**
 * Levenshtein distance, with an early exit once it exceeds `max`; with `transpositions`, two adjacent
 * letters swapped count as one edit (optimal string alignment: "paymnet" is one edit from "payment").
 */
export function editDistance(a: string, b: string, max = Infinity, transpositions = false): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  // Stryker disable next-line ArrayDeclaration: each slot is written before it is read
  let before = new Array<number>(b.length + 1);
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      // (`i > 1`, `j > 1`: in the first row or column the letter before is none; charCodeAt(-1) is NaN, equal to nothing, so the guards only say so.)
      // Stryker disable next-line ConditionalExpression,EqualityOperator: see above
      if (transpositions && i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) v = Math.min(v, before[j - 2]! + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [before, prev, cur] = [prev, cur, before];
  }
  return prev[b.length]!;
}

/** 0..1: how alike two segments are (placeholders match placeholders). */
function segmentSimilarity(a: string, b: string): number {
  if (a === b) return 1;
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 1;
  return Math.max(0, 1 - editDistance(a, b) / longest);
}

/**
 * 0..1: how alike two normalized paths are, segment by segment (an alignment that allows a
 * missing or extra segment), so `/repos/{}/pull` is close to `/repos/{}/pulls`.
 */
export function pathSimilarity(a: string, b: string): number {
  const x = a.split('/').filter(Boolean);
  const y = b.split('/').filter(Boolean);
  const n = x.length;
  const m = y.length;
  if (n === 0 && m === 0) return 1;
  // best[i][j]: best total similarity aligning x[0..i) with y[0..j).
  let prev = new Array<number>(m + 1).fill(0);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = 0;
    for (let j = 1; j <= m; j++) {
      cur[j] = Math.max(prev[j]!, cur[j - 1]!, prev[j - 1]! + segmentSimilarity(x[i - 1]!, y[j - 1]!));
    }
    [prev, cur] = [cur, prev];
  }
  return prev[m]! / Math.max(n, m);
}
