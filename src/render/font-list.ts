/**
 * The fonts shipped with EffectCraft, as data: the session hands the families and the glyph coverage to the
 * engine, which checks text at edit time without loading Skia; fonts.ts registers the files with Skia when the
 * first frame renders.
 */
export interface BundledFont {
  family: string;
  weight: number;
  file: string;
}

export const BUNDLED_FONTS: readonly BundledFont[] = [
  { family: 'Inter', weight: 400, file: 'inter-latin-400-normal.woff2' },
  { family: 'Inter', weight: 700, file: 'inter-latin-700-normal.woff2' },
];

export const BUNDLED_FAMILIES: readonly string[] = [...new Set(BUNDLED_FONTS.map((f) => f.family))].sort();

/**
 * Code points the bundled files cover (the Latin subset of Inter, as @fontsource ships it). Anything else would
 * draw as a "missing glyph" box or in a machine-dependent fallback font, so edits and renders warn about it.
 */
const COVERED: readonly (readonly [number, number])[] = [
  [0x0000, 0x00ff],
  [0x0131, 0x0131],
  [0x0152, 0x0153],
  [0x02bb, 0x02bc],
  [0x02c6, 0x02c6],
  [0x02da, 0x02da],
  [0x02dc, 0x02dc],
  [0x0304, 0x0304],
  [0x0308, 0x0308],
  [0x0329, 0x0329],
  [0x2000, 0x206f],
  [0x20ac, 0x20ac],
  [0x2122, 0x2122],
  [0x2191, 0x2191],
  [0x2193, 0x2193],
  [0x2212, 0x2212],
  [0x2215, 0x2215],
  [0xfeff, 0xfeff],
  [0xfffd, 0xfffd],
];

/** The distinct characters of `text` that the bundled fonts cannot draw (line breaks excepted). */
export function uncoveredCharacters(text: string): string[] {
  const out = new Set<string>();
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (!COVERED.some(([a, b]) => cp >= a && cp <= b)) out.add(ch);
  }
  return [...out];
}
