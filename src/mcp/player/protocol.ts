/**
 * What the preview player's tools hand its view (their structuredContent), as zod schemas both ends share:
 * the server builds these values, the view parses them (they reach it from another process, through the host).
 * Import-free apart from zod, so the view's bundle can include it.
 */
import { z } from 'zod';

/** preview_player's structured content: the composition and the range to play. */
export const PlayerInfo = z.object({
  comp: z.object({ id: z.string(), name: z.string() }),
  width: z.number(),
  height: z.number(),
  frameRate: z.number().positive(),
  frames: z.number().int().positive(),
  from: z.number().int().min(0),
  to: z.number().int().min(0),
  maxSide: z.number().int().positive(),
  frameSize: z.object({ width: z.number(), height: z.number() }),
  timecodes: z.object({ from: z.string(), to: z.string() }),
});
export type PlayerInfo = z.infer<typeof PlayerInfo>;

/** player_frame's structured content beside the PNG (render_preview's frame facts plus the timecode). */
export const PlayerFrameInfo = z.object({
  frame: z.number().int().min(0),
  timecode: z.string(),
  size: z.object({ width: z.number(), height: z.number() }),
});
export type PlayerFrameInfo = z.infer<typeof PlayerFrameInfo>;

/** The view's name for the app-only tool it calls, and the model's tool that opens it. */
export const PLAYER_FRAME_TOOL = 'player_frame';
export const PREVIEW_PLAYER_TOOL = 'preview_player';
