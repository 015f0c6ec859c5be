/** Importing footage, running scripts, and handing files to the desktop. */
import { basename, extname } from 'node:path';
import { z } from 'zod';
import { defineCommand, EDIT } from '../catalog.js';
import { EngineError, fsError } from '../errors.js';
import { DEFAULT_SEQUENCE_RATE, importMedia } from './media-import.js';
import { newId, uniqueName } from '../resolve.js';
import { patternOfFile } from '../image-sequence.js';
import { MAX_SCRIPT_TIMEOUT_MS, runScriptCode } from '../scripting.js';
import { AbsPath } from './params.js';

export const fileImport = defineCommand({
  id: 'file.import',
  title: 'Import File',
  category: 'File',
  description:
    'Imports a file as a footage item: a still image (PNG, JPEG, WebP, GIF, SVG), a video (MP4, MOV, WebM, MKV, animated GIF or PNG: whatever ffmpeg decodes; an animated WebP, which ffmpeg does not decode, is its first frame, with a warning), an audio file, or a numbered image sequence (a printf pattern such as /dir/f_%04d.png, or the first file of a run with sequence: true; frameRate default 30). Video and audio are probed with ffprobe (size, frame rate, duration, alpha, rotation, audio streams); the facts are in the item\'s "media" (media.audioStreams lists every audio stream of a file with several; layer.setAudioStream picks one). Returns its id; add it to a composition with layer.addFootage.',
  example: { path: '/media/interview.mp4', name: 'Interview' },
  params: z.strictObject({
    path: AbsPath,
    name: z.string().min(1).optional(),
    sequence: z
      .boolean()
      .optional()
      .describe('Import the run of numbered files that starts at "path" as an image sequence'),
    frameRate: z
      .number()
      .positive()
      .max(240)
      .optional()
      .describe(`Image sequences: frames per second (default ${DEFAULT_SEQUENCE_RATE})`),
  }),
  pathParams: { path: 'read' },
  annotations: EDIT,
  mutates: true,
  async run(ctx, p) {
    const found = await importMedia(ctx, p.path, { sequence: p.sequence ?? false, frameRate: p.frameRate });
    // A rate given for footage that has its own (or none) would otherwise be dropped without a word.
    if (p.frameRate !== undefined && found.media.kind !== 'sequence')
      ctx.warn(
        `frameRate applies to image sequences; "${basename(p.path)}" is ${found.media.kind === 'video' ? `a video and plays at its own rate (${+(found.media.frameRate ?? 0).toFixed(3)} fps)` : `${found.media.kind === 'audio' ? 'sound' : 'a still'}, which has no frame rate`}. It was not used.${numberedStill(p.path, found.media.kind, p.sequence) ? ' To import the numbered files from it as an image sequence, import it with sequence: true.' : ''}`,
      );
    // A clip whose sound runs on past its last frame: a layer of it ends with the picture, and the rest of the
    // sound is heard only if its out point is moved.
    const media = found.media;
    const runsOn = media.kind === 'video' && media.audio ? media.audio.duration - (media.duration ?? 0) : 0;
    if (runsOn > 0.5)
      ctx.warn(
        `The sound of "${basename(p.path)}" lasts ${+media.audio!.duration.toFixed(3)} s, its picture ${+(media.duration ?? 0).toFixed(3)} s: a layer of it ends with the picture. Move the layer's out point (layer.setTiming {outPoint}) to hear the rest.`,
      );
    let id = '';
    const footage = ctx.doc.items.filter((i) => i.type === 'footage');
    // A sequence is named after its pattern without the number (`frame_%04d.png`: "frame"), however it was
    // given: the pattern itself, or its first file (`frame_0001.png`).
    const named = media.sequence?.pattern ?? p.path;
    const base = basename(named, extname(named)).replace(/[._-]?%0?\d*d$/, '') || 'Footage';
    ctx.update((d) => {
      id = newId(d, 'footage');
      d.items.push({
        type: 'footage',
        id,
        name: p.name ?? uniqueName(footage, base),
        path: found.path,
        width: found.width,
        height: found.height,
        format: found.format,
        media: found.media,
      });
    });
    return { id, width: found.width, height: found.height, format: found.format, media: found.media };
  },
});

/**
 * A numbered still given a frame rate without `sequence`: the first file of a run meant as a sequence (`f_0001.png`
 * with frameRate 24 imported one still, frozen for the whole composition, and the warning named no way out).
 */
function numberedStill(path: string, kind: string, sequence: boolean | undefined): boolean {
  return kind === 'still' && sequence === undefined && patternOfFile(path) !== null;
}

/** The optional wall-clock limit both script commands take (the default is DEFAULT_SCRIPT_TIMEOUT_MS, 30 s). */
const TimeoutMs = z
  .number()
  .int()
  .min(1)
  .max(MAX_SCRIPT_TIMEOUT_MS)
  .optional()
  .describe(
    'Wall-clock limit for the whole script in ms (default 30000); then it is stopped with code timeout.',
  );

export const fileRunScript = defineCommand({
  id: 'file.runScript',
  title: 'Run Script File',
  category: 'File',
  description:
    'Runs a JavaScript file against the scripting API (app.run(id, params), app.document, app.log), stopped with code timeout after timeoutMs (default 30 s). Refused while confined.',
  example: { path: '/scripts/build-titles.js', timeoutMs: 30000 },
  params: z.strictObject({ path: AbsPath, timeoutMs: TimeoutMs }),
  pathParams: { path: 'read' },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  mutates: false,
  unconfinable: true,
  traits: { longRunning: true },
  async run(ctx, p) {
    let code: string;
    try {
      code = (await ctx.ports.readFile(p.path)).toString('utf8');
    } catch (err) {
      throw err instanceof EngineError ? err : fsError(err, p.path, 'read the script');
    }
    return runScriptCode(code, ctx, p.path, p.timeoutMs);
  },
});

export const scriptRun = defineCommand({
  id: 'script.run',
  title: 'Run Script',
  category: 'File',
  description:
    'Runs JavaScript source (the body of an async function) against the scripting API (app.run(id, params), app.document, app.log), stopped with code timeout after timeoutMs (default 30 s). Refused while confined.',
  example: { code: "await app.run('layer.addText', { text: 'Hello' })" },
  params: z.strictObject({ code: z.string().min(1), timeoutMs: TimeoutMs }),
  pathParams: {},
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  mutates: false,
  unconfinable: true,
  traits: { longRunning: true },
  run: (ctx, p) => runScriptCode(p.code, ctx, 'script.js', p.timeoutMs),
});

function osOpenCommand(
  id: string,
  title: string,
  mode: 'open' | 'reveal',
  description: string,
  example: string,
) {
  return defineCommand({
    id,
    title,
    category: 'File',
    description,
    example: { path: example },
    params: z.strictObject({ path: AbsPath }),
    pathParams: { path: 'read' },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    mutates: false,
    unconfinable: true,
    async run(ctx, p) {
      if (!(await ctx.ports.exists(p.path)))
        throw fsError(Object.assign(new Error(), { code: 'ENOENT' }), p.path, mode);
      await ctx.ports.openWithOs(p.path, mode);
      return { path: p.path, opened: true };
    },
  });
}

export const fileExecuteFile = osOpenCommand(
  'file.executeFile',
  'Execute File',
  'open',
  "Opens a file with the desktop's default application (xdg-open/open). Refused while confined.",
  '/scripts/build-titles.js',
);
export const fileRevealInFinder = osOpenCommand(
  'file.revealInFinder',
  'Reveal in Finder',
  'reveal',
  'Shows a file in the desktop file manager. Refused while confined.',
  '/projects/out/frame_0000.png',
);

export const fileCommands = [fileImport, fileRunScript, scriptRun, fileExecuteFile, fileRevealInFinder];
