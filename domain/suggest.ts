/**
 * "Did you mean …?": the closest of a few known words to a mistyped one (a flag, a command).
 * @module
 */

/**
 * Edit distance between `a` and `b` (insertions, deletions, substitutions, and swaps of two
 * neighbouring letters, so `emial` is 1 from `email`), capped: anything above `cap` is
 * returned as `cap + 1`.
 */
export function editDistance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) > cap) return cap + 1;
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      let v = Math.min(
        prev[j]! + 1,
        cur[j - 1]! + 1,
        prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, before[j - 2]! + 1);
      }
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > cap) return cap + 1;
    before = prev;
    prev = cur;
  }
  return Math.min(prev[b.length]!, cap + 1);
}

/**
 * The candidate `word` was most likely meant to be: the nearest within 1 edit (words of up to
 * 4 letters) or 2, else the only candidate that starts with it; null when nothing is close.
 * Case is ignored.
 */
export function closestWord(word: string, candidates: readonly string[]): string | null {
  const w = word.toLowerCase();
  const cap = w.length <= 4 ? 1 : 2;
  let best: string | null = null;
  let bestDistance = cap + 1;
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase(), cap);
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  if (best !== null) return best;
  const prefixed = w.length >= 2 ? candidates.filter((c) => c.toLowerCase().startsWith(w)) : [];
  return prefixed.length === 1 ? prefixed[0]! : null;
}

/**
 * `unknown flag --emial; did you mean --email?` for the flag as typed (with its dashes) and
 * the long names the command knows (without); the hint only when one is close.
 */
export function unknownFlagMessage(typed: string, known: readonly string[]): string {
  const guess = closestWord(typed.replace(/^-+/, ""), known);
  return `unknown flag ${typed}` + (guess === null ? "" : `; did you mean --${guess}?`);
}
