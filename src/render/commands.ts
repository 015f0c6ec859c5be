/**
 * Single-frame commands: `frame.preview` (a small PNG for a model's eyes, with frame information) and
 * `frame.save` (one full-size still, written atomically). The renderer is passed in lazily and the Skia
 * and sharp modules are only loaded on first use, so creating a session stays cheap.
 */
import { extname } from 'node:path';
import { z } from 'zod';
import {
  defineCommand,
  EngineError,
  firstExtensions,
  footageProps,
  formatSpec,
  frameCount,
  listWords,
  Quality,
  STILL_FORMATS,
  type AnyCommand,
  type Composition,
  type Project,
  type SessionView,
  type StillEncoding,
  type StillFormat,
} from '../engine/index.js';
import { AbsPath, CompRef } from '../engine/commands/params.js';
import { needsComp } from '../engine/commands/layer-add.js';
import { findComp } from '../engine/resolve.js';
import { sha256 } from './hash.js';
import { footagePaths } from './reachable-footage.js';
import { footageReplacedBy } from './queue/output-links.js';
import { propsDoc } from './queue/template-doc.js';
import type { FrameRenderer } from './types.js';
import type { PreviewWorkerOptions } from './preview/client.js';

/** Default longest side of a preview: small enough for a model's context, big enough to judge a layout. */
export const PREVIEW_DEFAULT_SIDE = 768;
/** Hard cap; larger values are rejected by the schema. */
export const PREVIEW_MAX_SIDE = 2048;

const Time = z
  .number()
  .min(0)
  .optional()
  .describe('Comp time in seconds (default 0); must be < the duration');

/**
 * The time a frame is drawn at: its start, as a render writes it. A preview or still asked for a time between
 * two frames shows the frame the time falls in (the `frame` it reports), as After Effects' viewer does; drawn at
 * the exact time, keyframes and footage showed a moment no rendered frame has (a clip's next source frame).
 */
function frameTime(comp: Composition, frame: number): number {
  return frame / comp.frameRate;
}

/**
 * What a still's settings ask that its format cannot do, said rather than dropped without a word (as the render
 * queue says of settings a format ignores): quality for a PNG, a transparent background for a JPEG.
 */
function ignoredSettings(format: StillFormat, p: { quality?: number; transparent?: boolean }): string[] {
  const name = formatSpec(format).name;
  return [
    ...(p.quality !== undefined && format === 'png'
      ? [`${name} is lossless: quality ${p.quality} changes nothing. Pass format "jpeg" or "webp" to use it.`]
      : []),
    ...(p.transparent && !formatSpec(format).alpha
      ? [
          `${name} has no alpha: the frame is flattened on the composition's background colour. Use a PNG or WebP for a transparent background.`,
        ]
      : []),
  ];
}

/**
 * Refuses to write a frame over footage its composition draws (a logo saved as a still of the composition
 * that shows it): the file would be replaced by a picture of itself, and every later frame would draw that.
 * A render refuses the same (queue/output-overlap.ts); frame.save and frame.preview's output wrote over it.
 */
async function refuseOverFootage(doc: Project, comp: Composition, path: string): Promise<void> {
  const footage = await footageReplacedBy(doc, comp.id, path);
  if (footage)
    throw new EngineError(
      'bad_argument',
      `Saving the frame to "${path}" would replace the file of footage "${footage.name}" (${footage.id}), which composition "${comp.name}" draws.`,
      'Save the frame to another file.',
    );
}

/** Checks `time` against the comp: 0 <= time < duration. Returns the frame number it falls in. */
function frameAt(comp: Composition, time: number): number {
  if (time >= comp.duration) {
    throw new EngineError(
      'bad_argument',
      `Time ${time}s is outside composition "${comp.name}" (0 to ${comp.duration}s, end excluded).`,
      // A whole number within the frame count was most likely a frame number.
      Number.isInteger(time) && time < frameCount(comp)
        ? `Pass a time from 0 to less than ${comp.duration}. Times are seconds, not frames: frame ${time} at ${comp.frameRate} fps is ${+(time / comp.frameRate).toFixed(3)} s.`
        : `Pass a time from 0 to less than ${comp.duration}.`,
    );
  }
  return Math.min(frameCount(comp) - 1, Math.floor(time * comp.frameRate + 1e-9));
}

/**
 * The footage files a frame of `comp` reads: its own and its precomps' (nested ones included), from the same
 * walk as renderQueue.render's declaration. Declared as the frame commands' readsFiles, so confinement checks
 * them before anything is drawn: in the engine, and on the MCP side of the bridge before the call is forwarded
 * to an app that may not be confined itself.
 */
function drawnFootage(
  view: SessionView,
  comp: string | undefined,
  props: Record<string, unknown> | undefined,
): string[] {
  let found: Composition;
  try {
    found = findComp(view.doc, comp);
  } catch {
    // A declaration must not throw; the command itself reports the unknown composition, and draws nothing.
    return [];
  }
  // A frame reads pictures only: a sound file it would never open is not declared (nor refused). A footage
  // prop's file is read too (propsDoc probes it, the frame decodes it).
  return [
    ...footagePaths(view.doc, [found.id], { sound: false }),
    ...(props ? footageProps(found, props) : []),
  ];
}

/** A frame command's props: the frame of a template as a render given those values draws it. */
const FrameProps = z
  .record(z.string(), z.unknown())
  .optional()
  .describe(
    "Values for the composition's template inputs by name (input.list shows them), as renderQueue.add's props: the frame shows them (footage values are absolute paths); the document is not changed. Inputs left out show their defaults",
  );

/** Pixels of a preview above which its PNG is compressed for speed rather than size (about 1 MP). */
const LARGE_PREVIEW_PIXELS = 1_000_000;

/**
 * A preview's PNG encoding. Up to about 1 MP (the default size is a third of that), zlib level 6: the image
 * is what an agent reads, so short base64 is worth the time. Above it (a full-size frame, a person scrubbing
 * through a clip at 1080p), level 4: measured on 1080p frames, 25-45% less encoding time (36 -> 20 ms on a
 * synthetic frame, 78 -> 64 ms on gradients, 259 -> 224 ms on grainy video) for 1-9% more bytes.
 */
function previewEncoding(width: number, height: number): StillEncoding {
  return { kind: 'png', level: width * height > LARGE_PREVIEW_PIXELS ? 4 : 6 };
}

/**
 * A JPEG or WebP preview's quality unless given: enough for a model's eyes. A frame of grainy video is a PNG of
 * ~900 KB at 768 px (1.2 MB as base64 in a reply), and ~60-90 KB as a JPEG at 80.
 */
export const PREVIEW_QUALITY = 80;

/**
 * The preview's format: `format`, else the one `output`'s extension names, else PNG. An `output` whose extension
 * names another format than `format` is refused (the file would not be what its name says).
 */
function previewFormat(format: StillFormat | undefined, output: string | undefined): StillFormat {
  const ext = output === undefined ? undefined : extname(output).toLowerCase();
  const named = ext === undefined ? undefined : STILL_BY_EXT.get(ext);
  if (output !== undefined && (!named || (format && named !== format))) {
    const wanted = format ?? 'png';
    throw new EngineError(
      'bad_argument',
      named
        ? `"output" ends in "${ext}" (${stillName(named)}), and format is ${stillName(wanted)}.`
        : `A preview is a ${listWords(STILL_FORMATS.map(stillName), 'or')}; "output" ends in "${ext}".`,
      `End "output" in ${listWords(formatSpec(wanted).extensions, 'or')}, or leave format out to take the extension's.`,
    );
  }
  return format ?? named ?? 'png';
}

const stillName = (format: StillFormat) => formatSpec(format).name;

/** frame.save's formats by extension, from the format table. */
const STILL_BY_EXT = new Map<string, StillFormat>(
  STILL_FORMATS.flatMap((f) => formatSpec(f).extensions.map((ext) => [ext, f] as const)),
);

/** The frame commands, rendering with the renderer `getRenderer` gives (created on first use). */
export function renderCommands(getRenderer: () => Promise<FrameRenderer>): AnyCommand[] {
  const preview = defineCommand({
    id: 'frame.preview',
    title: 'Preview Frame',
    category: 'Render',
    description: `Renders one frame of a composition (the frame "time" falls in, as a render writes it) as a PNG (or format jpeg/webp: several times smaller over video footage) scaled so its longest side is at most max_side (default ${PREVIEW_DEFAULT_SIDE}, at most ${PREVIEW_MAX_SIDE}; never enlarged). Missing footage shows a placeholder and a warning. Returns the image as base64 under its format's name (png, jpeg or webp) with frame information (over MCP's command_run, it comes back as an image, as render_preview's); with "output" it also writes the image there (atomically).`,
    example: { comp: 'Main', time: 2.5, max_side: 512 },
    params: z.strictObject({
      comp: CompRef.optional(),
      time: Time,
      max_side: z
        .number()
        .int()
        .min(16)
        .max(PREVIEW_MAX_SIDE)
        .optional()
        .describe(`Longest side in pixels (default ${PREVIEW_DEFAULT_SIDE})`),
      transparent: z
        .boolean()
        .optional()
        .describe('Keep the background transparent (default false: flattened on the comp background colour)'),
      format: z
        .enum(STILL_FORMATS)
        .optional()
        .describe(
          `Image format (default: png, or the one output's extension names); jpeg and webp are several times smaller for video footage and photos`,
        ),
      quality: Quality.optional().describe(
        `JPEG/WebP quality, 1 to 100 (default ${PREVIEW_QUALITY}); PNG ignores it`,
      ),
      // Named as render_preview's argument, so the tool passes it unchanged and errors name what the caller sent.
      output: AbsPath.optional().describe(
        'Also write the preview to this absolute path (.png, or .jpg/.webp with that format)',
      ),
      props: FrameProps,
    }),
    pathParams: { output: 'write' },
    readsFiles: (view, p) => drawnFootage(view, p.comp, p.props),
    enabled: needsComp,
    // A file writer when "output" is given; otherwise it only reads.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    mutates: false,
    traits: { longRunning: true },
    async run(ctx, p) {
      const format = previewFormat(p.format, p.output);
      const comp = findComp(ctx.doc, p.comp);
      const doc = await propsDoc(ctx.doc, comp.id, p.props, ctx.ports, ctx.warn);
      const time = p.time ?? 0;
      const frame = frameAt(comp, time);
      if (p.output !== undefined) await refuseOverFootage(doc, comp, p.output);
      const maxSide = p.max_side ?? PREVIEW_DEFAULT_SIDE;
      const scale = Math.min(1, maxSide / Math.max(comp.width, comp.height));
      const renderer = await getRenderer();
      const rendered = await renderer.renderStill(
        doc,
        comp.id,
        frameTime(comp, frame),
        {
          scale,
          // JPEG has no alpha: flattened, as frame.save does.
          transparent: (p.transparent ?? false) && formatSpec(format).alpha,
          missingFootage: 'placeholder',
          scrubCache: true,
          signal: ctx.signal,
        },
        format === 'png'
          ? previewEncoding(Math.round(comp.width * scale), Math.round(comp.height * scale))
          : { kind: format, quality: p.quality ?? PREVIEW_QUALITY },
      );
      const image = rendered.bytes;
      if (p.output !== undefined) {
        // Through the ports: atomic, and checked against the write roots at the final open when confined.
        await ctx.ports.writeFileAtomic(p.output, image);
      }
      return {
        ...(p.output !== undefined ? { output: p.output } : {}),
        // Under its format's name: `png`, as it always was, `jpeg` or `webp`.
        [format]: image.toString('base64'),
        format,
        comp: { id: comp.id, name: comp.name },
        time,
        frame,
        sourceSize: { width: comp.width, height: comp.height },
        size: { width: rendered.width, height: rendered.height },
        bytes: image.length,
        sha256: sha256(image),
        warnings: [...ignoredSettings(format, p), ...rendered.warnings],
      };
    },
  });

  const save = defineCommand({
    id: 'frame.save',
    title: 'Save Frame',
    category: 'Render',
    description: `Renders one frame of a composition (the frame "time" falls in, as a render writes it; full size, or scaled by scale) to a ${listWords(STILL_FORMATS.map(stillName))} file (format from the extension unless given), written atomically. Missing footage fails with no_such_file.`,
    example: { path: '/projects/out/still.png', comp: 'Main', time: 2.5 },
    params: z.strictObject({
      comp: CompRef.optional(),
      time: Time,
      path: AbsPath.describe(`Absolute output path (${listWords([...STILL_BY_EXT.keys()])})`),
      format: z.enum(STILL_FORMATS).optional(),
      scale: z
        .number()
        .positive()
        .max(4)
        .optional()
        .describe('Output size factor (default 1: the composition size)'),
      transparent: z
        .boolean()
        .optional()
        .describe(
          `${STILL_FORMATS.filter((f) => formatSpec(f).alpha)
            .map(stillName)
            .join('/')} only: keep the background transparent (default false)`,
        ),
      props: FrameProps,
    }),
    pathParams: { path: 'write' },
    readsFiles: (view, p) => drawnFootage(view, p.comp, p.props),
    enabled: needsComp,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    mutates: false,
    traits: { longRunning: true },
    async run(ctx, p) {
      const comp = findComp(ctx.doc, p.comp);
      const time = p.time ?? 0;
      const frame = frameAt(comp, time);
      const format = p.format ?? STILL_BY_EXT.get(extname(p.path).toLowerCase());
      if (!format) {
        throw new EngineError(
          'unsupported_format',
          `Cannot tell the image format of "${p.path}" from its extension.`,
          `Use a ${listWords(firstExtensions(STILL_FORMATS))} path, or pass format.`,
        );
      }
      const doc = await propsDoc(ctx.doc, comp.id, p.props, ctx.ports, ctx.warn);
      await refuseOverFootage(doc, comp, p.path);
      const transparent = (p.transparent ?? false) && formatSpec(format).alpha;
      const renderer = await getRenderer();
      const { stillEncoding } = await import('./encode.js');
      const rendered = await renderer.renderStill(
        doc,
        comp.id,
        frameTime(comp, frame),
        { scale: p.scale ?? 1, transparent, missingFootage: 'fail', signal: ctx.signal },
        stillEncoding(format),
      );
      const data = rendered.bytes;
      await ctx.ports.writeFileAtomic(p.path, data);
      // What the frame drew wrong (text the fonts cannot draw, an effect the renderer does not know), as
      // frame.preview says it: the still's file alone cannot tell.
      for (const w of [...ignoredSettings(format, p), ...rendered.warnings]) ctx.warn(w);
      return {
        path: p.path,
        width: rendered.width,
        height: rendered.height,
        bytes: data.length,
        sha256: sha256(data),
      };
    },
  });

  return [preview, save] as AnyCommand[];
}

/**
 * A lazy renderer getter for a session: its preview worker (preview/client.ts), whose thread loads Skia on the
 * first frame command and draws every frame off the main thread, with footage read through `readFile` (the
 * session's ports, so confinement applies).
 */
export function lazyRenderer(options: PreviewWorkerOptions): () => Promise<FrameRenderer> {
  let pending: Promise<FrameRenderer> | undefined;
  return () => {
    pending ??= import('./preview/client.js').then((m) => m.createPreviewWorker(options));
    return pending;
  };
}
