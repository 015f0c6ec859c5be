/**
 * The preview player (MCP Apps): `preview_player` opens the ui://effectcraft/player view in hosts that show
 * apps and tells the others, in text, how to look at frames with render_preview; `player_frame` is the view's
 * own way to fetch a frame by number (visibility ["app"]: hosts keep it from the model). See docs/mcp.md.
 */
import { z } from 'zod';
import { timecode } from '../../engine/timecode.js';
import { findPlayerComp, type PlayerComp } from '../player/comp-info.js';
import { PLAYER_FRAME_TOOL, PREVIEW_PLAYER_TOOL, type PlayerInfo } from '../player/protocol.js';
import { PLAYER_URI } from '../player/view-resource.js';
import { renderPreview } from './render-preview.js';
import { READ_ONLY_TOOL, defineTool, type ToolOutcome } from './types.js';

/** Small enough for a chat, big enough to judge motion; the view asks for frames at this size. */
export const PLAYER_DEFAULT_SIDE = 480;

const Frame = z.number().int().min(0);
const MaxSide = z.number().int().min(16).max(2048);

/** Comp time of a frame: frame.preview maps it back to the same frame (it floors with a small tolerance). */
const timeOf = (comp: PlayerComp, frame: number) => frame / comp.frameRate;

function outOfRange(comp: PlayerComp, what: string, frame: number): ToolOutcome {
  return {
    kind: 'error',
    error: {
      code: 'bad_argument',
      message: `${what} ${frame} is outside composition "${comp.name}" (frames 0 to ${comp.frames - 1}).`,
      remediation: `Pass a frame from 0 to ${comp.frames - 1}.`,
    },
  };
}

export const previewPlayer = defineTool({
  name: PREVIEW_PLAYER_TOOL,
  title: 'Preview Player',
  description:
    'Shows a player for a composition in hosts that support MCP Apps: scrub by dragging, play/pause, step, with frame number and timecode. Elsewhere it returns the composition facts (size, fps, frame range) and how to look at frames with render_preview.',
  hints: READ_ONLY_TOOL,
  ui: { resourceUri: PLAYER_URI },
  input: z.strictObject({
    comp: z.string().min(1).optional().describe('Composition id or name (default: the active composition).'),
    from: Frame.optional().describe('First frame of the range to play (default 0).'),
    to: Frame.optional().describe('Last frame of the range to play (default: the last frame).'),
    max_side: MaxSide.optional().describe(
      `Longest side of the frames the player shows, in pixels (default ${PLAYER_DEFAULT_SIDE}; never upscaled).`,
    ),
  }),
  async run(args, ctx) {
    const found = await findPlayerComp(ctx, args.comp);
    if (!found.ok) return { kind: 'error', error: found.error };
    const { comp } = found;
    const from = args.from ?? 0;
    const to = args.to ?? comp.frames - 1;
    if (from >= comp.frames) return outOfRange(comp, 'from', from);
    if (to >= comp.frames) return outOfRange(comp, 'to', to);
    if (from > to) {
      return {
        kind: 'error',
        error: {
          code: 'bad_argument',
          message: `"from" (${from}) is after "to" (${to}).`,
          remediation: 'Pass from <= to.',
        },
      };
    }
    const maxSide = args.max_side ?? PLAYER_DEFAULT_SIDE;
    const scale = Math.min(1, maxSide / Math.max(comp.width, comp.height));
    const value: PlayerInfo = {
      comp: { id: comp.id, name: comp.name },
      width: comp.width,
      height: comp.height,
      frameRate: comp.frameRate,
      frames: comp.frames,
      from,
      to,
      maxSide,
      frameSize: { width: Math.round(comp.width * scale), height: Math.round(comp.height * scale) },
      timecodes: { from: timecode(comp.frameRate, from), to: timecode(comp.frameRate, to) },
    };
    // An example a model can copy: one second in, where the time is a round number.
    const example = Math.min(to, from + Math.round(comp.frameRate));
    const exampleTime = Number(timeOf(comp, example).toFixed(6));
    const text = [
      `Preview player for composition "${comp.name}" (id ${comp.id}): ${comp.width}x${comp.height}, ${comp.frameRate} fps, ${comp.duration} s, ${comp.frames} frames.`,
      `Range: frames ${from} to ${to} (${value.timecodes.from} to ${value.timecodes.to}).`,
      'A host that supports MCP Apps shows the player (scrub, play/pause, step, frame number and timecode). It shows pictures only and plays no sound: to hear the composition, render its mix (renderQueue.add with an output ending in .wav, then renderQueue.render), or play it in the studio.',
      `To look at a frame without it, call render_preview {comp: "${comp.id}", time: frame / ${comp.frameRate}, max_side: ${maxSide}}; for example frame ${example} is time ${exampleTime}.`,
    ].join('\n');
    return { kind: 'summary', text, value };
  },
});

export const playerFrame = defineTool({
  name: PLAYER_FRAME_TOOL,
  title: 'Player Frame',
  description:
    'App-only (the preview_player view calls it; models use render_preview): one frame of a composition by frame number, as a PNG with its frame number and timecode.',
  hints: READ_ONLY_TOOL,
  ui: { resourceUri: PLAYER_URI, visibility: ['app'] },
  // As render_preview: the frame is drawn on the preview worker, which a cancellation stops.
  cancellable: true,
  input: z.strictObject({
    comp: z.string().min(1).optional().describe('Composition id or name (default: the active composition).'),
    frame: Frame.describe('Frame number, from 0.'),
    max_side: MaxSide.optional().describe(`Longest side in pixels (default ${PLAYER_DEFAULT_SIDE}).`),
  }),
  async run(args, ctx) {
    const found = await findPlayerComp(ctx, args.comp);
    if (!found.ok) return { kind: 'error', error: found.error };
    const { comp } = found;
    if (args.frame >= comp.frames) return outOfRange(comp, 'Frame', args.frame);
    const outcome = await renderPreview.run(
      { comp: comp.id, time: timeOf(comp, args.frame), max_side: args.max_side ?? PLAYER_DEFAULT_SIDE },
      ctx,
    );
    if (outcome.kind !== 'image') return outcome;
    return {
      ...outcome,
      info: { ...outcome.info, frameRate: comp.frameRate, timecode: timecode(comp.frameRate, args.frame) },
    };
  },
});
