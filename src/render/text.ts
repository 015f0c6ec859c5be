/**
 * Text layers: a block of lines drawn around the layer origin. Horizontally per `align` (left: starts at x=0,
 * center: centred on x=0, right: ends at x=0); vertically the block is centred on y=0.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { valueAt, type Layer, type LayerSource } from '../engine/core.js';
import { checkFamily } from './fonts.js';
import { css } from './paint.js';
import type { Rect } from './bounds.js';

type TextSource = Extract<LayerSource, { kind: 'text' }>;

/**
 * The OpenType features browsers apply by default, as canvas properties. Each is set explicitly, on or off: the
 * canvas default (`fontVariantLigatures: normal`, `textRendering: auto`) applies kerning but neither ligatures
 * nor contextual alternates, unlike browsers. The canvas itself (measured) leaves ligatures and alternates out while
 * letter spacing is non-zero, as browsers do (CSS Text 3); kerning stays.
 */
export interface TextFeatures {
  fontKerning: 'normal' | 'none';
  /** CSS font-variant-ligatures: `common-ligatures` is liga + clig, `contextual` is calt. */
  fontVariantLigatures: string;
}

/** The canvas settings for a text layer's feature switches. */
export function textFeatures(
  src: Pick<TextSource, 'kerning' | 'ligatures' | 'contextualAlternates'>,
): TextFeatures {
  return {
    fontKerning: src.kerning ? 'normal' : 'none',
    fontVariantLigatures: `${src.ligatures ? 'common' : 'no-common'}-ligatures ${src.contextualAlternates ? 'contextual' : 'no-contextual'}`,
  };
}

/** Sets the font, spacing and features on `ctx`: measuring and drawing must agree on all of them. */
export function setFont(
  ctx: SKRSContext2D,
  layout: Pick<TextLayout, 'font' | 'letterSpacing' | 'features'>,
): void {
  ctx.font = layout.font;
  ctx.letterSpacing = layout.letterSpacing;
  ctx.fontKerning = layout.features.fontKerning;
  ctx.fontVariantLigatures = layout.features.fontVariantLigatures;
}

export interface TextLayout {
  font: string;
  letterSpacing: string;
  features: TextFeatures;
  /** Where lines are anchored on x (non-zero only to cancel the spacing canvas adds after the last glyph). */
  x: number;
  align: 'left' | 'center' | 'right';
  lines: { text: string; baseline: number }[];
  bounds: Rect;
  fill: string;
  stroke: { color: string; width: number } | null;
}

/** Lays out the text at layer time `lt`, measuring with `measure` (any context; its state is changed). */
export function layoutText(measure: SKRSContext2D, layer: Layer, src: TextSource, lt: number): TextLayout {
  checkFamily(src.fontFamily, layer.name);
  const size = Math.max(0, valueAt<number>(src.fontSize, lt));
  const tracking = valueAt<number>(src.tracking, lt);
  const font = `${src.fontWeight} ${size}px "${src.fontFamily}"`;
  const spacing = (tracking * size) / 1000;
  const letterSpacing = `${spacing}px`;
  const features = textFeatures(src);
  setFont(measure, { font, letterSpacing, features });
  measure.textAlign = 'left';
  measure.textBaseline = 'alphabetic';
  const m = measure.measureText('Hg');
  const asc = m.fontBoundingBoxAscent;
  const desc = m.fontBoundingBoxDescent;
  const texts = src.text.split(/\r?\n/);
  const lh = src.lineHeight * size;
  const top = -(texts.length * lh) / 2;
  const lines = texts.map((text, i) => ({ text, baseline: top + i * lh + (lh - (asc + desc)) / 2 + asc }));
  const maxW = Math.max(0, ...texts.map((t) => measure.measureText(t).width));
  // Canvas counts the spacing after the last glyph too; shift so the visible glyphs sit where aligned.
  const shift = src.align === 'left' ? 0 : src.align === 'center' ? spacing / 2 : spacing;
  const x0 = (src.align === 'left' ? 0 : src.align === 'center' ? -maxW / 2 : -maxW) + shift;
  const strokeW = src.stroke ? Math.max(0, valueAt<number>(src.stroke.width, lt)) : 0;
  // Glyphs may overhang their advance box (italics, accents): keep a margin so nothing is clipped.
  const margin = size * 0.25 + strokeW * 2;
  const overflow = Math.max(0, asc + desc - lh) / 2;
  return {
    font,
    letterSpacing,
    features,
    x: shift,
    align: src.align,
    lines,
    bounds: {
      x: x0 - margin,
      y: top - overflow - margin,
      w: maxW + 2 * margin,
      h: texts.length * lh + 2 * (overflow + margin),
    },
    fill: css(valueAt<string>(src.fill, lt)),
    stroke:
      src.stroke && strokeW > 0
        ? { color: css(valueAt<string>(src.stroke.color, lt)), width: strokeW }
        : null,
  };
}

/**
 * Draws a laid-out block with the context's current transform (layer units). The stroke goes under the
 * fill: glyphs with overlapping contours would otherwise show stroke lines inside the letters.
 */
export function drawText(ctx: SKRSContext2D, layout: TextLayout): void {
  setFont(ctx, layout);
  ctx.textAlign = layout.align;
  ctx.textBaseline = 'alphabetic';
  if (layout.stroke) {
    ctx.strokeStyle = layout.stroke.color;
    // Centred on the outline and half hidden by the fill, so twice the width shows `width` outside.
    ctx.lineWidth = layout.stroke.width * 2;
    ctx.lineJoin = 'round';
    for (const line of layout.lines) ctx.strokeText(line.text, layout.x, line.baseline);
  }
  ctx.fillStyle = layout.fill;
  for (const line of layout.lines) ctx.fillText(line.text, layout.x, line.baseline);
}

/**
 * Where a laid-out block's glyphs paint ink (layer units), as Skia measures their outlines with the block's
 * font and features: combining marks stacked above a line, or a swash, may reach past `layout.bounds`.
 */
export function textInk(measure: SKRSContext2D, layout: TextLayout): Rect {
  setFont(measure, layout);
  measure.textAlign = layout.align;
  measure.textBaseline = 'alphabetic';
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const line of layout.lines) {
    const m = measure.measureText(line.text);
    x0 = Math.min(x0, layout.x - m.actualBoundingBoxLeft);
    x1 = Math.max(x1, layout.x + m.actualBoundingBoxRight);
    y0 = Math.min(y0, line.baseline - m.actualBoundingBoxAscent);
    y1 = Math.max(y1, line.baseline + m.actualBoundingBoxDescent);
  }
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, w: x1 - x0, h: y1 - y0 } : { x: 0, y: 0, w: 0, h: 0 };
}
