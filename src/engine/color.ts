import cssColors from 'color-name';

/** Colours are stored as normalised lower-case hex (`#rrggbb` or `#rrggbbaa`) so project files stay readable. */
export type Rgba = [number, number, number, number];

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

// All 148 CSS named colours (color-name), plus `transparent`.
const NAMED: Readonly<Record<string, readonly number[]>> = { ...cssColors, transparent: [0, 0, 0, 0] };

/** Every accepted colour name, for error messages. */
export const COLOR_NAMES: readonly string[] = Object.keys(NAMED);

/** Parses `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, a CSS colour name, or `[r, g, b, a?]` in 0..1; null if invalid. */
export function parseColor(input: unknown): Rgba | null {
  if (Array.isArray(input)) {
    if (input.length < 3 || input.length > 4) return null;
    if (!input.every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1)) return null;
    return [input[0], input[1], input[2], input[3] ?? 1] as Rgba;
  }
  if (typeof input !== 'string') return null;
  const key = input.trim().toLowerCase();
  // hasOwn: "constructor" and friends are not colours.
  const named = Object.hasOwn(NAMED, key) ? NAMED[key] : undefined;
  if (named) return [named[0]! / 255, named[1]! / 255, named[2]! / 255, named[3] ?? 1];
  const m = HEX.exec(input.trim());
  if (!m || m[1] === undefined) return null;
  let hex = m[1];
  if (hex.length <= 4) hex = [...hex].map((c) => c + c).join('');
  const n = (i: number) => parseInt(hex.slice(i, i + 2), 16) / 255;
  return [n(0), n(2), n(4), hex.length === 8 ? n(6) : 1];
}

/** Formats as `#rrggbb`, or `#rrggbbaa` when not opaque. */
export function formatColor(c: Rgba): string {
  const b = (v: number) =>
    Math.round(Math.min(1, Math.max(0, v)) * 255)
      .toString(16)
      .padStart(2, '0');
  const rgb = `#${b(c[0])}${b(c[1])}${b(c[2])}`;
  return c[3] >= 1 ? rgb : rgb + b(c[3]);
}

/** Normalises any accepted colour input to stored hex; null if invalid. */
export function normalizeColor(input: unknown): string | null {
  const c = parseColor(input);
  return c ? formatColor(c) : null;
}
