/**
 * The fonts shipped with EffectCraft, as data: the engine checks text layers against this list at edit time
 * without loading Skia; fonts.ts registers the files with Skia when the first frame renders.
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
