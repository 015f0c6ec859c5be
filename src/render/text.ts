/**
 * Text layers: a block of lines drawn around the layer origin. Horizontally per `align` (left: starts at x=0,
 * center: centred on x=0, right: ends at x=0); vertically the block is centred on y=0.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { valueAt, type Layer, type LayerSource } from '../engine/index.js';
import { checkFamily } from './fonts.js';
import { css } from './paint.js';
import type { Rect } from './bounds.js';

type TextSource = Extract<LayerSource, { kind: 'text' }>;

export interface TextLayout {
  font: string;
  letterSpacing: string;
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
  measure.font = font;
  measure.letterSpacing = letterSpacing;
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
  ctx.font = layout.font;
  ctx.letterSpacing = layout.letterSpacing;
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
