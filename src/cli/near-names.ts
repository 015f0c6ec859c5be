/**
 * The names a mistyped one most likely meant, so a usage error names the fix instead of only pointing at --help:
 * `--itme` → `--item`, `render --frame 3` → `--frames` (and `still --frames` → `--frame`), `rendr` → `render`.
 * The two subcommands' flags differ by one letter, which is exactly the slip a first user makes.
 */

/** Edit distance with adjacent transpositions (optimal string alignment): "itme" is one edit from "item". */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * Up to three of `known` that `typed` may have meant, nearest first: one edit away (two for names of five
 * letters or more, where two slips are common and two other names rarely that close), or a name `typed` begins
 * (`--out` for `--output`). Case is ignored; an empty list when nothing is near, so a wild guess gets no advice.
 */
export function nearNames(typed: string, known: readonly string[]): string[] {
  const t = typed.toLowerCase();
  return known
    .map((name) => {
      const n = name.toLowerCase();
      const d = distance(t, n);
      const near = d <= (n.length >= 5 ? 2 : 1) || (t.length >= 3 && n.startsWith(t));
      return { name, d, near };
    })
    .filter((c) => c.near && c.name !== typed)
    .sort((x, y) => x.d - y.d)
    .slice(0, 3)
    .map((c) => c.name);
}

/** " Did you mean --item?" / " Did you mean --output or --output-dir?", or "" when nothing is near. */
export function didYouMean(names: readonly string[]): string {
  if (names.length === 0) return '';
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
  return ` Did you mean ${list}?`;
}
