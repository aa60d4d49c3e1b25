/**
 * "Did you mean" for names typed by hand (hook events, settings keys): the known name nearest to
 * `name`, case ignored, when it is a likely typo. Short names allow two edits, longer ones one
 * more per five characters (`PostToolUseFailed` → `PostToolUseFailure`). Undefined when nothing is close.
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const limit = Math.max(2, Math.floor(name.length / 5));
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance))
      best = { name: candidate, distance };
  }
  return best?.name;
}

/** Levenshtein distance: insertions, deletions and substitutions of one character each cost 1. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length]!;
}
