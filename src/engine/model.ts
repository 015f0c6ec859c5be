/**
 * The document model. A project is immutable plain JSON data; these zod schemas are the single definition
 * of its shape: TypeScript types are inferred from them and `.ecproj` files are validated against them.
 *
 * Units follow After Effects: times in seconds, position/anchor in comp pixels, scale and opacity in percent,
 * rotation in degrees. Keyframe times are in layer time (comp time minus the layer's start time).
 */
import { z } from 'zod';
import {
  AUDIO_BIT_DEPTHS,
  AUDIO_BITRATE_RANGE,
  AUDIO_CODECS,
  CODECS,
  GIF_DITHERS,
  GIF_PALETTES,
  PRORES_PROFILES,
  X264_PRESETS,
} from './encoding.js';
import { limitedList, LIMITS, MAX_FOOTAGE_FRAME_RATE, type Limit } from './limits.js';
import { OUTPUT_FORMATS } from './output-formats.js';

export const PROJECT_FORMAT = 'effectcraft-project';
export const PROJECT_VERSION = 1;

/** A string of at most `limit.max` characters; longer ones fail with the limit's message. */
function bounded(limit: Limit = LIMITS.name) {
  return z.string().max(limit.max, limit.message);
}

/** A list of `min` to `limit.max` elements. */
function list<T extends z.ZodType>(item: T, limit: Limit, min = 0) {
  return limitedList(z.array(item).min(min).max(limit.max, limit.message), limit);
}

/** Names and ids. */
export const Name = bounded();

export const Vec2 = z.tuple([z.number(), z.number()]);
export type Vec2 = z.infer<typeof Vec2>;
export const ColorHex = z
  .string()
  .regex(/^#([0-9a-f]{6}|[0-9a-f]{8})$/, 'a colour in #rrggbb or #rrggbbaa form');

export const Interpolation = z.enum(['linear', 'hold', 'bezier']);
export type Interpolation = z.infer<typeof Interpolation>;

/** A cubic-bezier handle as in CSS `cubic-bezier(x1, y1, x2, y2)`: x in 0..1 (time), y free (value). */
export const EaseHandle = z.tuple([z.number().min(0).max(1), z.number()]);
export type EaseHandle = z.infer<typeof EaseHandle>;

export type PropertyValue = number | Vec2 | string;

function keyframe<T extends z.ZodType>(value: T) {
  return z.strictObject({
    time: z.number(),
    value,
    interpolation: Interpolation,
    easeIn: EaseHandle.optional(),
    easeOut: EaseHandle.optional(),
  });
}

/** A static value, or keyframes (sorted by time) when `keyframes` is non-empty. */
function animatable<T extends z.ZodType>(value: T) {
  return z.strictObject({ value, keyframes: list(keyframe(value), LIMITS.keyframes) });
}

export const NumberProp = animatable(z.number());
export const Vec2Prop = animatable(Vec2);
export const ColorProp = animatable(ColorHex);
export type NumberProp = z.infer<typeof NumberProp>;
export type Vec2Prop = z.infer<typeof Vec2Prop>;
export type ColorProp = z.infer<typeof ColorProp>;
export type AnimatableProperty = NumberProp | Vec2Prop | ColorProp;
export type Keyframe = AnimatableProperty['keyframes'][number];

export const Transform = z.strictObject({
  anchorPoint: Vec2Prop,
  position: Vec2Prop,
  scale: Vec2Prop,
  rotation: NumberProp,
  opacity: NumberProp,
});
export type Transform = z.infer<typeof Transform>;

export const BLEND_MODES = [
  'normal',
  'multiply',
  'screen',
  'overlay',
  'darken',
  'lighten',
  'color-dodge',
  'color-burn',
  'hard-light',
  'soft-light',
  'difference',
  'exclusion',
  'hue',
  'saturation',
  'color',
  'luminosity',
  'add',
] as const;
export const BlendMode = z.enum(BLEND_MODES);
export type BlendMode = z.infer<typeof BlendMode>;

export const MATTE_MODES = ['alpha', 'alphaInverted', 'luma', 'lumaInverted'] as const;
export const TrackMatte = z.strictObject({ layer: Name, mode: z.enum(MATTE_MODES) });
export type TrackMatte = z.infer<typeof TrackMatte>;

export const Effect = z.strictObject({
  id: Name,
  type: Name,
  enabled: z.boolean(),
  params: z.record(Name, z.union([NumberProp, Vec2Prop, ColorProp])),
});
export type Effect = z.infer<typeof Effect>;

export const Stroke = z.strictObject({ color: ColorProp, width: NumberProp });
export type Stroke = z.infer<typeof Stroke>;

export const GradientStop = z.strictObject({ offset: z.number().min(0).max(1), color: ColorHex });
export const Gradient = z.strictObject({
  type: z.enum(['linear', 'radial']),
  start: Vec2,
  end: Vec2,
  stops: list(GradientStop, LIMITS.gradientStops, 2),
});
export type Gradient = z.infer<typeof Gradient>;

export const ShapeGeometry = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('rectangle'), size: Vec2Prop, roundness: NumberProp }),
  z.strictObject({ type: z.literal('ellipse'), size: Vec2Prop }),
  z.strictObject({
    type: z.literal('polygon'),
    points: z.number().int().min(3).max(100),
    outerRadius: NumberProp,
    /** When set, the polygon is a star with this inner radius. */
    innerRadius: NumberProp.nullable(),
  }),
  z.strictObject({
    type: z.literal('path'),
    points: list(Vec2, LIMITS.pathPoints, 2),
    closed: z.boolean(),
  }),
]);
export type ShapeGeometry = z.infer<typeof ShapeGeometry>;

export const TEXT_ALIGNS = ['left', 'center', 'right'] as const;

export const SolidSource = z.strictObject({
  kind: z.literal('solid'),
  color: ColorProp,
  width: z.number(),
  height: z.number(),
});
export const TextSource = z.strictObject({
  kind: z.literal('text'),
  text: bounded(LIMITS.text),
  fontFamily: Name,
  fontWeight: z.number().int().min(100).max(900),
  fontSize: NumberProp,
  fill: ColorProp,
  stroke: Stroke.nullable(),
  align: z.enum(TEXT_ALIGNS),
  /** Line height as a multiple of the font size. */
  lineHeight: z.number().positive(),
  /** Extra space between characters in 1/1000 em, as After Effects' tracking. */
  tracking: NumberProp,
  /**
   * The OpenType features browsers apply by default, each of which may be switched off: kerning (`kern`),
   * standard ligatures (`liga`, `clig`) and contextual alternates (`calt`: Inter's "1920 x 1080" gets a
   * multiplication sign). As in browsers, ligatures and alternates are not applied while tracking is non-zero.
   * Defaulted so project files written before these fields existed open unchanged (with the features on).
   */
  kerning: z.boolean().default(true),
  ligatures: z.boolean().default(true),
  contextualAlternates: z.boolean().default(true),
});
export const ShapeSource = z.strictObject({
  kind: z.literal('shape'),
  shape: ShapeGeometry,
  fill: z.strictObject({ color: ColorProp }).nullable(),
  gradient: Gradient.nullable(),
  stroke: Stroke.nullable(),
});
export const FootageSource = z.strictObject({ kind: z.literal('footage'), footage: Name });
export const PrecompSource = z.strictObject({ kind: z.literal('precomp'), comp: Name });
export const NullSource = z.strictObject({ kind: z.literal('null') });
export const AdjustmentSource = z.strictObject({ kind: z.literal('adjustment') });

export const LayerSource = z.discriminatedUnion('kind', [
  SolidSource,
  TextSource,
  ShapeSource,
  FootageSource,
  PrecompSource,
  NullSource,
  AdjustmentSource,
]);
export type LayerSource = z.infer<typeof LayerSource>;
export type LayerKind = LayerSource['kind'];
export const LAYER_KINDS = ['solid', 'text', 'shape', 'footage', 'null', 'adjustment', 'precomp'] as const;

/** The highest audio stream index a layer may name (files hold a handful; this only bounds the document). */
export const MAX_AUDIO_STREAM = 63;

/**
 * A layer's sound (footage with audio, or a precomp whose layers have some): level in dB, keyframeable for
 * fades (-96..+24; property `audio.level`), and mute (`layer.setAudioMuted`). Absent: 0 dB, not muted.
 * `enabled` is the picture switch, as After Effects' eye; a hidden layer is still heard unless muted.
 */
export const LayerAudio = z.strictObject({
  level: NumberProp,
  muted: z.boolean(),
  /**
   * Which of its footage's audio streams a footage layer plays (0: the first; `layer.setAudioStream`), for files
   * with several (a second language, a commentary). Absent: the first.
   */
  stream: z.number().int().min(0).max(MAX_AUDIO_STREAM).optional(),
});
export type LayerAudio = z.infer<typeof LayerAudio>;

/** Playback speeds a layer may have: slower than 1/100 or faster than 100x is not a useful retime. */
export const MAX_SPEED = 100;
export const MIN_SPEED = 0.01;

/**
 * A layer's time mapping (src/engine/time-map.ts): speed (negative plays reversed, never 0), loop, freeze frame.
 * Absent: speed 1, no loop, no freeze, which is how layers written before the field existed behave.
 */
export const TimeMapSchema = z.strictObject({
  speed: z.number().refine((s) => Math.abs(s) >= MIN_SPEED && Math.abs(s) <= MAX_SPEED, {
    message: `a speed from ${MIN_SPEED} to ${MAX_SPEED} or from -${MAX_SPEED} to -${MIN_SPEED} (never 0)`,
  }),
  loop: z.boolean(),
  freezeAt: z.number().min(0).nullable(),
  /** Frame mix: between two source frames, show both, weighted by time (absent: the nearest frame). */
  frameBlending: z.boolean().optional(),
});

/** How layer.fit sizes a picture to its composition (src/engine/layer-fit.ts). */
export const FIT_MODES = ['contain', 'cover', 'stretch', 'width', 'height'] as const;
export type FitMode = (typeof FIT_MODES)[number];

export const Layer = z.strictObject({
  id: Name,
  name: Name,
  enabled: z.boolean(),
  inPoint: z.number(),
  outPoint: z.number(),
  startTime: z.number(),
  blendMode: BlendMode,
  parent: Name.nullable(),
  trackMatte: TrackMatte.nullable(),
  transform: Transform,
  effects: list(Effect, LIMITS.effects),
  source: LayerSource,
  audio: LayerAudio.optional(),
  /** Footage and precomp layers: how comp time maps to the source's time (see TimeMapSchema). */
  time: TimeMapSchema.optional(),
  /**
   * The mode of the layer's last layer.fit: a new file of another size is fitted the same way while its scale
   * and position are still the fit's (src/engine/layer-fit.ts).
   */
  fit: z.enum(FIT_MODES).optional(),
});
export type Layer = z.infer<typeof Layer>;

/** What a template input holds (see src/engine/template-inputs.ts for what each binds to and accepts). */
export const INPUT_TYPES = ['text', 'color', 'number', 'boolean', 'footage', 'choice'] as const;
export type InputType = (typeof INPUT_TYPES)[number];

/**
 * An input's name: a letter, then letters, digits, `_` or `-`. It is a CSV column, a JSON key and an output
 * template field (`out/{name}.mp4`), so it must read the same in all three.
 */
export const InputName = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, 'a letter, then up to 63 letters, digits, _ or -');

/** A property (`text.text`, `solid.color`), `enabled` (the layer's switch) or `source` (a footage layer's file). */
export const InputBinding = z.strictObject({ layer: Name, property: Name });
export type InputBinding = z.infer<typeof InputBinding>;

/** A value a template input takes: a choice and a footage path are strings. */
export const InputValue = z.union([
  z.string().max(LIMITS.text.max, LIMITS.text.message),
  z.number(),
  z.boolean(),
]);
export type InputValue = z.infer<typeof InputValue>;

export const TemplateInput = z.strictObject({
  name: InputName,
  type: z.enum(INPUT_TYPES),
  /** What renders when no value is given: the bound properties hold it in the document. */
  default: InputValue,
  /** A choice input's values. */
  choices: list(bounded(), LIMITS.choices, 1).optional(),
  bindings: list(InputBinding, LIMITS.bindings),
});
export type TemplateInput = z.infer<typeof TemplateInput>;

/** Values for a composition's inputs, by input name (a render's props). */
export const Props = z.record(InputName, InputValue);
export type Props = z.infer<typeof Props>;

/** A JPEG or WebP quality, 1 to 100 (queue items' encoding, previews). */
export const Quality = z.number().int().min(1).max(100);

/**
 * The largest composition or solid side. A 8192x8192 RGBA frame is 256 MiB; larger ones exhaust memory on the
 * machines this runs on and exceed what the encoders accept.
 */
export const MAX_SIDE = 8192;

export const Composition = z.strictObject({
  type: z.literal('composition'),
  id: Name,
  name: Name,
  width: z.number().int().min(1).max(MAX_SIDE),
  height: z.number().int().min(1).max(MAX_SIDE),
  frameRate: z.number().min(1).max(240),
  duration: z.number().positive(),
  backgroundColor: ColorHex,
  /** Top to bottom, as in the After Effects timeline. */
  layers: list(Layer, LIMITS.layers),
  /** Template inputs (input.define); optional so project files written before templates open unchanged. */
  inputs: list(TemplateInput, LIMITS.inputs).optional(),
});
export type Composition = z.infer<typeof Composition>;

export const MEDIA_KINDS = ['still', 'video', 'sequence', 'audio'] as const;

/** One audio stream of a footage file, as the probe found it. */
export const AudioStreamInfo = z.strictObject({
  codec: Name,
  sampleRate: z.number().int().positive(),
  channels: z.number().int().positive(),
  duration: z.number().min(0),
  /**
   * Seconds from the first picture to the sound's first sample, as the file's timestamps say (negative:
   * the sound starts first). Absent: 0 (audio files, and footage probed before it was recorded).
   */
  offset: z.number().min(-3600).max(3600).optional(),
  /** The stream's language and title tags, where the file has them ("eng", "Commentary"). */
  language: Name.optional(),
  title: Name.optional(),
});
export type AudioStreamInfo = z.infer<typeof AudioStreamInfo>;

/**
 * What the probe found in a footage file at import (ffprobe for video and audio, sharp for stills and image
 * sequences). Per-frame timestamps of variable-rate video are not stored here (documents stay small): the
 * renderer asks ffprobe for them once per file and process.
 */
export const FootageMedia = z.strictObject({
  kind: z.enum(MEDIA_KINDS),
  /** Seconds; null for a still. */
  duration: z.number().min(0).nullable(),
  /** Frames per second (the average one for variable frame rate); null for a still or audio. */
  frameRate: z.number().positive().max(MAX_FOOTAGE_FRAME_RATE).nullable(),
  frameCount: z.number().int().min(0).nullable(),
  /** Frame times are not evenly spaced: frames are found by their own timestamps (probed when rendering). */
  variableFrameRate: z.boolean(),
  /** Width of a pixel over its height (anamorphic footage is shown at width * pixelAspect). */
  pixelAspect: z.number().positive(),
  alpha: z.boolean(),
  /** Clockwise degrees the picture is turned for display (phone videos); width/height are after turning. */
  rotation: z.union([z.literal(0), z.literal(90), z.literal(180), z.literal(270)]),
  codec: Name.nullable(),
  /** Image sequences: a printf pattern (`/dir/f_%04d.png`) and the numbers of the first and last frames. */
  sequence: z
    .strictObject({
      pattern: bounded(LIMITS.filePath),
      first: z.number().int().min(0),
      last: z.number().int().min(0),
    })
    // What an import can record: a project file may say anything, and every frame is looked for on open.
    .refine((s) => s.last >= s.first && s.last - s.first < LIMITS.sequenceFrames.max, {
      message: `${LIMITS.sequenceFrames.message}. ${LIMITS.sequenceFrames.remedy}`,
    })
    .nullable(),
  /**
   * Video: how its pictures are stored, as ffprobe reports them (`pix_fmt`, `color_space`, `color_range`; null
   * where the file does not say). A render may then take 8-bit 4:2:0 frames as they are, without RGB (see
   * docs/rendering.md, "Footage plates"). Absent on footage probed before it was recorded, and for non-video.
   */
  yuv: z
    .strictObject({
      pixelFormat: Name,
      matrix: Name.nullable(),
      range: z.enum(['tv', 'pc']).nullable(),
    })
    .nullable()
    .optional(),
  /**
   * Video: seconds from the file's start (its earliest stream's first timestamp, where ffmpeg's `-ss` counts
   * from) to the first picture, when the sound starts first (a camera's or a cut file's picture can start
   * later). Footage time 0 is the first picture, so a seek adds this. Absent: 0 (and footage probed before it was
   * recorded).
   */
  pictureStart: z.number().min(0).max(3600).optional(),
  /** The first audio stream, when there is one: what a footage layer plays unless told another. */
  audio: AudioStreamInfo.nullable(),
  /**
   * Every audio stream, in the file's order (a layer's `audio.stream` indexes this), when there are two or more
   * (a second language, a commentary); absent with one or none.
   */
  audioStreams: z
    .array(AudioStreamInfo)
    .min(2)
    .max(MAX_AUDIO_STREAM + 1)
    .optional(),
});
export type FootageMedia = z.infer<typeof FootageMedia>;

export const FootageItem = z.strictObject({
  type: z.literal('footage'),
  id: Name,
  name: Name,
  /** The file (for an image sequence, its first frame). */
  path: bounded(LIMITS.filePath),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  format: Name,
  /** Absent on footage imported before media support: a still. */
  media: FootageMedia.optional(),
});
export type FootageItem = z.infer<typeof FootageItem>;

export const FolderItem = z.strictObject({ type: z.literal('folder'), id: Name, name: Name });

export const ProjectItem = z.discriminatedUnion('type', [Composition, FootageItem, FolderItem]);
export type ProjectItem = z.infer<typeof ProjectItem>;

/** A queue item's format: the ids of the output format table (src/engine/output-formats.ts). */
export const OutputFormat = z.enum(OUTPUT_FORMATS);
export type OutputFormat = z.infer<typeof OutputFormat>;

export const OverflowVolume = z.strictObject({
  dir: bounded(LIMITS.filePath),
  minFreeBytes: z.number().int().min(0),
});
export type OverflowVolume = z.infer<typeof OverflowVolume>;

/** A queue item's encoder settings; which format takes which field is checked in encoding.ts. */
export const Encoding = z.strictObject({
  codec: z.enum(CODECS).optional().describe('mp4: h264 (default) or h265; mov: prores; webm: vp9'),
  crf: z
    .number()
    .int()
    .min(0)
    .max(63)
    .optional()
    .describe(
      'Constant quality, lower is better and bigger: h264/h265 0-51 (default 18), vp9 0-63 (default 32)',
    ),
  proresProfile: z
    .enum(PRORES_PROFILES)
    .optional()
    .describe('mov: ProRes profile (default hq; 4444, which RGB + Alpha needs)'),
  quality: Quality.optional().describe(
    'jpeg, webp and webp-anim: quality 1-100 (default 90 for sequences, 85 for webp-anim)',
  ),
  gifPalette: z
    .enum(GIF_PALETTES)
    .optional()
    .describe(
      'gif: one palette for the whole clip (global) or one per frame (default: global up to 512 MiB of frames)',
    ),
  gifDither: z.enum(GIF_DITHERS).optional().describe('gif: ffmpeg paletteuse dither (default sierra2_4a)'),
  x264Preset: z
    .enum(X264_PRESETS)
    .optional()
    .describe('mp4 (h264/h265): encoder speed preset (default medium)'),
  audioCodec: z
    .enum(AUDIO_CODECS)
    .optional()
    .describe('The sound codec: mov pcm (default) or aac; mp4 and m4a aac, webm opus, wav pcm, mp3 mp3'),
  audioBitrate: z
    .number()
    .int()
    .min(AUDIO_BITRATE_RANGE.min)
    .max(AUDIO_BITRATE_RANGE.max)
    .optional()
    .describe(
      'kb/s of a lossy sound codec: aac 32-512 (default 192), opus 32-512 (default 160), mp3 32-320 (default 192)',
    ),
  audioBitDepth: z
    .literal(AUDIO_BIT_DEPTHS)
    .optional()
    .describe(
      'Bits per sample of PCM sound (wav, and mov with pcm): 16 or 24 (integer) or 32 (float); default wav 16, mov 24',
    ),
});
export type Encoding = z.infer<typeof Encoding>;

export const RenderQueueItem = z.strictObject({
  id: Name,
  comp: Name,
  output: bounded(LIMITS.filePath),
  format: OutputFormat,
  frameRange: z.strictObject({ start: z.number().int().min(0), end: z.number().int().min(0) }).nullable(),
  scale: z.number().positive().max(4),
  skipExisting: z.boolean(),
  overflow: list(OverflowVolume, LIMITS.overflow),
  /**
   * RGB + Alpha: render on a transparent background and keep the alpha channel (straight alpha) in formats
   * that carry one. Defaulted so project files written before the field existed still open (same version).
   */
  alpha: z.boolean().default(false),
  /**
   * Mix the composition's sound into formats that carry it (MP4, MOV, WebM; WAV and MP3 are nothing else).
   * false leaves it out. Defaulted so older project files open unchanged.
   */
  audio: z.boolean().default(true),
  /**
   * Encoder settings (codec, CRF, ProRes profile, quality, GIF palette and dither, preset); absent fields take
   * the format's defaults. Optional so project files written before it open unchanged.
   */
  encoding: Encoding.optional(),
  /** Values for the composition's template inputs, applied to the job's snapshot (never to the document). */
  props: Props.optional(),
});
export type RenderQueueItem = z.infer<typeof RenderQueueItem>;

export const Project = z.strictObject({
  format: z.literal(PROJECT_FORMAT),
  version: z.literal(PROJECT_VERSION),
  name: Name,
  items: list(ProjectItem, LIMITS.items),
  renderQueue: list(RenderQueueItem, LIMITS.renderQueue),
  activeComp: Name.nullable(),
  /** Ids are `kind_N` from this counter, so replaying the same commands gives the same ids. */
  nextId: z.number().int().min(1),
});
export type Project = z.infer<typeof Project>;

export function emptyProject(name = 'Untitled'): Project {
  return {
    format: PROJECT_FORMAT,
    version: PROJECT_VERSION,
    name,
    items: [],
    renderQueue: [],
    activeComp: null,
    nextId: 1,
  };
}

export function staticProp<T extends PropertyValue>(value: T): { value: T; keyframes: [] } {
  return { value, keyframes: [] };
}

export function isComposition(item: ProjectItem): item is Composition {
  return item.type === 'composition';
}

export function isFootage(item: ProjectItem): item is FootageItem {
  return item.type === 'footage';
}
