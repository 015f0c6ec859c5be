/** Commands that add layers of each kind; each returns `{id}` of the new layer, placed at the top. */
import { z } from 'zod';
import { defineCommand, EDIT, type CommandContext, type SessionView } from '../catalog.js';
import { EngineError } from '../errors.js';
import { checkAudioStream, setStream } from '../audio-streams.js';
import { insertLayer } from '../layer-factory.js';
import { missingGlyphsMessage } from '../missing-glyphs.js';
import {
  MAX_AUDIO_STREAM,
  MAX_SIDE,
  staticProp,
  TEXT_ALIGNS,
  type Gradient,
  type LayerSource,
  type ShapeGeometry,
} from '../model.js';
import { compositions, draftLayer, findComp, findFootage, findLayer } from '../resolve.js';
import { fitLayer, FitModeParam } from '../layer-fit.js';
import { color, ColorInput, CompRef, StrokeColor, StrokeWidth, Vec2Input } from './params.js';

/** Refuses a font family the renderer does not have, listing the ones it has. */
export function checkFontFamily(family: string, ctx: CommandContext): string {
  if (ctx.fontFamilies && !ctx.fontFamilies.includes(family)) {
    throw new EngineError(
      'bad_argument',
      `Font family "${family}" is not available. Available: ${ctx.fontFamilies.join(', ')}.`,
      `Use one of: ${ctx.fontFamilies.join(', ')}.`,
    );
  }
  return family;
}

/** Warns (without refusing) about characters the bundled fonts cannot draw. */
export function warnMissingGlyphs(text: string, ctx: CommandContext): void {
  const missing = ctx.missingGlyphs(text);
  if (missing.length) ctx.warn(missingGlyphsMessage(missing));
}

/** Layer commands need a composition to act on. */
export function needsComp(view: SessionView): string | null {
  return compositions(view.doc).length ? null : 'There is no composition; create one with comp.new.';
}

const common = { comp: CompRef.optional(), name: z.string().min(1).optional() };

function addCommand<S extends z.ZodObject>(
  id: string,
  title: string,
  description: string,
  example: z.input<S>,
  params: S,
  /** The name a new layer takes (numbered when taken): fixed, or from its source (a precomp's composition). */
  base: string | ((source: LayerSource, view: CommandContext) => string),
  build: (p: z.infer<S>, view: CommandContext, comp: ReturnType<typeof findComp>) => LayerSource,
) {
  return defineCommand({
    id,
    title,
    category: 'Layer',
    description,
    example,
    params,
    pathParams: {},
    enabled: needsComp,
    annotations: EDIT,
    mutates: true,
    run(ctx, p) {
      const typed = p as z.infer<S> & { comp?: string; name?: string };
      const comp = findComp(ctx.doc, typed.comp);
      const source = build(typed, ctx, comp);
      const name = typeof base === 'string' ? base : base(source, ctx);
      return { id: insertLayer(ctx, comp, source, name, typed.name) };
    },
  });
}

export const addSolid = addCommand(
  'layer.addSolid',
  'New Solid Layer',
  'Adds a solid colour layer (comp-sized unless width/height are given).',
  { color: '#e94560', name: 'Background' },
  z.strictObject({
    ...common,
    color: ColorInput,
    width: z
      .number()
      .int()
      .min(1)
      .max(MAX_SIDE)
      .optional()
      .describe(`Pixels, 1 to ${MAX_SIDE} (default: the composition width)`),
    height: z
      .number()
      .int()
      .min(1)
      .max(MAX_SIDE)
      .optional()
      .describe(`Pixels, 1 to ${MAX_SIDE} (default: the composition height)`),
  }),
  'Solid',
  (p, _v, comp) => ({
    kind: 'solid',
    color: staticProp(color(p.color, 'color')),
    width: p.width ?? comp.width,
    height: p.height ?? comp.height,
  }),
);

export const addText = addCommand(
  'layer.addText',
  'New Text Layer',
  'Adds a text layer; the text block is centred on the layer position. Fonts: see capabilities (bundled: Inter).',
  { name: 'Hello', text: 'Hello', fontSize: 96, fill: '#ffffff' },
  z.strictObject({
    ...common,
    text: z.string(),
    fontFamily: z.string().optional().describe('Default "Inter"'),
    fontWeight: z
      .number()
      .int()
      .min(100)
      .max(900)
      .optional()
      .describe('100 to 900; 400 (regular) and 700 (bold) are bundled (default 400)'),
    fontSize: z.number().min(1).max(2000).optional().describe('Font size in pixels, 1 to 2000 (default 72)'),
    fill: ColorInput.optional().describe('Text colour, "#rrggbb" hex (default #ffffff, white)'),
    strokeColor: StrokeColor.optional(),
    strokeWidth: StrokeWidth.optional(),
    align: z.enum(TEXT_ALIGNS).optional().describe('Alignment on the layer position (default center)'),
    lineHeight: z.number().min(0.1).max(10).optional().describe('Multiple of the font size (default 1.2)'),
    tracking: z.number().optional().describe('Letter spacing in 1/1000 em (default 0)'),
    kerning: z.boolean().optional().describe('OpenType kerning (default true)'),
    ligatures: z.boolean().optional().describe('Standard ligatures, e.g. fi (default true)'),
    contextualAlternates: z
      .boolean()
      .optional()
      .describe(
        'Contextual alternates, e.g. Inter\'s "1920 x 1080" with a multiplication sign (default true)',
      ),
  }),
  'Text',
  (p, view) => ({
    kind: 'text',
    text: (warnMissingGlyphs(p.text, view), p.text),
    fontFamily: checkFontFamily(p.fontFamily ?? 'Inter', view),
    fontWeight: p.fontWeight ?? 400,
    fontSize: staticProp(p.fontSize ?? 72),
    fill: staticProp(color(p.fill ?? '#ffffff', 'fill')),
    stroke:
      p.strokeColor !== undefined || p.strokeWidth !== undefined
        ? {
            color: staticProp(color(p.strokeColor ?? '#000000', 'strokeColor')),
            width: staticProp(p.strokeWidth ?? 2),
          }
        : null,
    align: p.align ?? 'center',
    lineHeight: p.lineHeight ?? 1.2,
    tracking: staticProp(p.tracking ?? 0),
    kerning: p.kerning ?? true,
    ligatures: p.ligatures ?? true,
    contextualAlternates: p.contextualAlternates ?? true,
  }),
);

const ShapeParam = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('rectangle'), size: Vec2Input, roundness: z.number().min(0).optional() }),
  z.strictObject({ type: z.literal('ellipse'), size: Vec2Input }),
  z.strictObject({
    type: z.literal('polygon'),
    points: z.number().int().min(3).max(100),
    outerRadius: z.number().min(0),
    innerRadius: z.number().min(0).optional().describe('Makes a star'),
  }),
  z.strictObject({
    type: z.literal('star'),
    points: z.number().int().min(3).max(100),
    outerRadius: z.number().min(0),
    innerRadius: z.number().min(0),
  }),
  z.strictObject({
    type: z.literal('path'),
    points: z.array(Vec2Input).min(2),
    closed: z.boolean().optional(),
  }),
]);

const GradientParam = z.strictObject({
  type: z.enum(['linear', 'radial']),
  start: Vec2Input.describe('Layer-space point (shapes are centred on 0,0)'),
  end: Vec2Input,
  stops: z.array(z.strictObject({ offset: z.number().min(0).max(1), color: ColorInput })).min(2),
});

function geometry(s: z.infer<typeof ShapeParam>): ShapeGeometry {
  switch (s.type) {
    case 'rectangle':
      return { type: 'rectangle', size: staticProp(s.size), roundness: staticProp(s.roundness ?? 0) };
    case 'ellipse':
      return { type: 'ellipse', size: staticProp(s.size) };
    case 'polygon':
    case 'star':
      return {
        type: 'polygon',
        points: s.points,
        outerRadius: staticProp(s.outerRadius),
        innerRadius: s.innerRadius === undefined ? null : staticProp(s.innerRadius),
      };
    case 'path':
      return { type: 'path', points: s.points, closed: s.closed ?? true };
  }
}

export const addShape = addCommand(
  'layer.addShape',
  'New Shape Layer',
  'Adds a vector shape (rectangle, ellipse, polygon, star or path) centred on the layer position, with fill, gradient and stroke.',
  { shape: { type: 'ellipse', size: [200, 200] }, fill: '#ffd166' },
  z.strictObject({
    ...common,
    shape: ShapeParam,
    fill: ColorInput.nullable().optional().describe('Fill colour (default white; null for none)'),
    gradient: GradientParam.optional().describe('Gradient fill; replaces the solid fill'),
    strokeColor: StrokeColor.optional(),
    strokeWidth: StrokeWidth.optional(),
  }),
  'Shape',
  (p) => {
    const gradient: Gradient | null = p.gradient
      ? {
          ...p.gradient,
          stops: p.gradient.stops.map((s, i) => ({
            offset: s.offset,
            color: color(s.color, `gradient.stops.${i}.color`),
          })),
        }
      : null;
    return {
      kind: 'shape',
      shape: geometry(p.shape),
      fill: p.fill === null || gradient ? null : { color: staticProp(color(p.fill ?? '#ffffff', 'fill')) },
      gradient,
      stroke:
        p.strokeColor !== undefined || p.strokeWidth !== undefined
          ? {
              color: staticProp(color(p.strokeColor ?? '#000000', 'strokeColor')),
              width: staticProp(p.strokeWidth ?? 2),
            }
          : null,
    };
  },
);

export const addFootage = defineCommand({
  id: 'layer.addFootage',
  title: 'New Footage Layer',
  description:
    'Adds a layer showing an imported footage item (import it first with file.import), named after the item unless name is given; fit: cover (or contain, stretch, width, height) scales it to the composition in the same step. A video, image sequence or audio layer lasts as long as its footage (outPoint = startTime + duration); retime it with layer.setTimeMap.',
  category: 'Layer',
  example: { footage: 'Interview' },
  params: z.strictObject({
    ...common,
    footage: z.string().min(1).describe('Footage item id or unique name'),
    audioStream: z
      .number()
      .int()
      .min(0)
      .max(MAX_AUDIO_STREAM)
      .optional()
      .describe("Which of the file's audio streams the layer plays (default 0, the first)"),
    fit: FitModeParam.optional().describe(
      'Scale and centre the picture to the composition, as layer.fit: contain (all of it shows), cover (fills the frame, cropped), stretch, width or height. Default: its own size, centred',
    ),
  }),
  pathParams: {},
  enabled: needsComp,
  annotations: EDIT,
  mutates: true,
  run(ctx, p) {
    const comp = findComp(ctx.doc, p.comp);
    const item = findFootage(ctx.doc, p.footage);
    if (p.audioStream !== undefined) checkAudioStream(item, p.audioStream);
    // Named after its footage item, as After Effects names a layer after its source ("Interview", "Interview 2").
    const id = insertLayer(ctx, comp, { kind: 'footage', footage: item.id }, item.name, p.name);
    const duration = item.media?.kind === 'still' ? null : item.media?.duration;
    if (duration || p.audioStream)
      ctx.update((d) => {
        const layer = draftLayer(d, comp.id, id);
        if (duration) layer.outPoint = layer.startTime + duration;
        if (p.audioStream) setStream(layer, p.audioStream);
      });
    if (p.fit) return { id, ...fitLayer(ctx, comp, findLayer(findComp(ctx.doc, comp.id), id), p.fit) };
    return { id };
  },
});

export const addNull = addCommand(
  'layer.addNull',
  'New Null Object',
  'Adds an invisible null layer, useful as a parent.',
  { name: 'Controller' },
  z.strictObject({ ...common }),
  'Null',
  () => ({ kind: 'null' }),
);

export const addAdjustment = addCommand(
  'layer.addAdjustment',
  'New Adjustment Layer',
  'Adds an adjustment layer: its effects apply to the composite of the layers below it.',
  { name: 'Grade' },
  z.strictObject({ ...common }),
  'Adjustment Layer',
  () => ({ kind: 'adjustment' }),
);

export const addPrecomp = addCommand(
  'layer.addPrecomp',
  'New Precomp Layer',
  'Adds a layer that shows another composition (nested), named after it unless name is given. Refused when it would nest a composition in itself.',
  { source: 'Lower third' },
  z.strictObject({ ...common, source: CompRef.describe('The composition to nest') }),
  // Named after the composition it shows, as After Effects names a precomp layer.
  (source, view) => (source.kind === 'precomp' && findComp(view.doc, source.comp).name) || 'Precomp',
  (p, view, comp) => {
    const source = findComp(view.doc, p.source);
    if (nests(view, source.id, comp.id)) {
      throw new EngineError(
        'bad_argument',
        `Nesting "${source.name}" in "${comp.name}" would make a cycle.`,
        'Pick a composition that does not contain this one.',
      );
    }
    return { kind: 'precomp', comp: source.id };
  },
);

/** Whether composition `outer` is, or contains (at any depth), composition `target`. */
function nests(view: SessionView, outer: string, target: string, seen = new Set<string>()): boolean {
  if (outer === target) return true;
  if (seen.has(outer)) return false;
  seen.add(outer);
  const comp = compositions(view.doc).find((c) => c.id === outer);
  return !!comp?.layers.some((l) => l.source.kind === 'precomp' && nests(view, l.source.comp, target, seen));
}

export const layerAddCommands = [addSolid, addText, addShape, addFootage, addNull, addAdjustment, addPrecomp];
