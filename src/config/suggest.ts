// "Did you mean ...?" for unknown keys: the closest known key by edit distance, if it is close enough.

function normalize(key: string): string {
  return key.toLowerCase().replace(/[-_\s]/g, '');
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(above + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** The known key the user most likely meant, or undefined when none is close. */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  const wanted = normalize(key);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const normalized = normalize(candidate);
    if (normalized === wanted) return candidate;
    // Among equally distant keys, one the user's key begins (`timeout` for `timeoutMs`) wins.
    const prefix = normalized.startsWith(wanted) || wanted.startsWith(normalized);
    const distance = editDistance(wanted, normalized) - (prefix ? 0.5 : 0);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate;
    }
  }
  const allowed = Math.max(2, Math.floor(wanted.length / 3));
  return bestDistance <= allowed ? best : undefined;
}
