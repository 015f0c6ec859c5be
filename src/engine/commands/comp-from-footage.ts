/**
 * comp.fromFootage: After Effects' New Comp from Selection, the first step of most video work. A composition the
 * size, frame rate and length of a clip, with the clip in it: where an agent would otherwise read the footage's
 * probe and copy five numbers into comp.new (and a 29.97 fps clip's rate is 30000/1001, not 29.97).
 */
import { z } from 'zod';
import { defineCommand, EDIT, type CommandContext } from '../catalog.js';
import { EngineError } from '../errors.js';
import { FitModeParam } from '../layer-fit.js';
import { MAX_SIDE, type FootageItem } from '../model.js';
import { compositions, findFootage, uniqueName } from '../resolve.js';
import { compNew, Duration, FrameRate, Size } from './comp.js';
import { addFootage } from './layer-add.js';
import { ColorInput } from './params.js';

/** The rates a variable-frame-rate clip (a phone's) is conformed to: its average is never one of them exactly. */
const COMMON_RATES = [24000 / 1001, 24, 25, 30000 / 1001, 30, 48, 50, 60000 / 1001, 60, 120];
/** The comp.new defaults, for a still. */
const STILL_RATE = 30;
const STILL_SECONDS = 10;

const rateWords = (r: number): string => `${+r.toFixed(3)} fps`;

/** The frame rate the composition takes from `item`, with a warning where it is not the file's own. */
function rateOf(ctx: CommandContext, item: FootageItem): number {
  const media = item.media;
  const own = media?.frameRate ?? null;
  if (own === null) return STILL_RATE;
  if (own > 240 || own < 1)
    throw new EngineError(
      'bad_argument',
      `"${item.name}" runs at ${rateWords(own)}; a composition runs at 1 to 240 fps.`,
      `Pass frameRate (e.g. ${own > 240 ? 60 : 1}); the clip's frames are shown by time at any rate.`,
    );
  if (!media?.variableFrameRate) return own;
  const nearest = COMMON_RATES.reduce((a, b) =>
    Math.abs(Math.log(b / own)) < Math.abs(Math.log(a / own)) ? b : a,
  );
  ctx.warn(
    `"${item.name}" has a variable frame rate (${rateWords(own)} on average); the composition runs at ${rateWords(nearest)}, the nearest common rate. Pass frameRate for another.`,
  );
  return nearest;
}

export const compFromFootage = defineCommand({
  id: 'comp.fromFootage',
  title: 'New Comp from Footage',
  category: 'Composition',
  description:
    "Creates a composition the size, frame rate and length of a footage item (a video, an image sequence, or a still at 30 fps for 10 s), named after it, with the footage as its layer, and makes it active (After Effects' New Comp from Selection). width and height (both) give another frame, with fit to scale the footage to it as layer.fit does (a vertical 1080x1920 cut of a landscape clip: fit cover); frameRate and duration replace the footage's. A variable-frame-rate clip gets the nearest common rate (23.976, 24, 25, 29.97, 30, 48, 50, 59.94, 60, 120), said in a warning. Sound-only footage is refused (no size). Returns the composition's id, its layer's id and the settings taken.",
  example: { footage: 'Interview' },
  params: z.strictObject({
    footage: z.string().min(1).describe('Footage item id or unique name'),
    name: z.string().min(1).optional().describe("Default: the footage item's name"),
    width: Size.optional().describe(`Pixels, 1 to ${MAX_SIDE}; with height (default: the footage's)`),
    height: Size.optional().describe(`Pixels, 1 to ${MAX_SIDE}; with width (default: the footage's)`),
    frameRate: FrameRate.optional().describe("Frames per second, 1 to 240 (default: the footage's)"),
    duration: Duration.optional().describe("Seconds (default: the footage's; 10 for a still)"),
    backgroundColor: ColorInput.optional().describe('Background colour (default #000000)'),
    fit: FitModeParam.optional().describe(
      'Scale the footage to the frame as layer.fit: contain, cover, stretch, width or height (default: its own size, centred)',
    ),
  }),
  pathParams: {},
  annotations: EDIT,
  mutates: true,
  run(ctx, p) {
    const item = findFootage(ctx.doc, p.footage);
    if (item.media?.kind === 'audio')
      throw new EngineError(
        'bad_argument',
        `"${item.name}" is sound only: it has no picture to size a composition by.`,
        `Create one with comp.new {width, height, duration: ${+(item.media.duration ?? STILL_SECONDS).toFixed(3)}}, then layer.addFootage {footage: "${item.name}"}.`,
      );
    if ((p.width === undefined) !== (p.height === undefined))
      throw new EngineError(
        'bad_argument',
        `Only ${p.width === undefined ? 'height' : 'width'} was given; a frame other than the footage's needs both.`,
        'Pass width and height together (and fit to scale the footage to them), or neither.',
      );
    const width = p.width ?? item.width;
    const height = p.height ?? item.height;
    if (width > MAX_SIDE || height > MAX_SIDE)
      throw new EngineError(
        'bad_argument',
        `"${item.name}" is ${item.width}x${item.height}; a composition is at most ${MAX_SIDE} pixels a side.`,
        `Pass width and height up to ${MAX_SIDE} with fit: "contain" to show all of it.`,
      );
    const seconds = item.media?.kind === 'still' ? null : (item.media?.duration ?? null);
    const duration = p.duration ?? (seconds && seconds > 0 ? Math.min(seconds, 86400) : STILL_SECONDS);
    const frameRate = p.frameRate ?? rateOf(ctx, item);
    const { id } = compNew.run(ctx, {
      name: p.name ?? uniqueName(compositions(ctx.doc), item.name),
      width,
      height,
      frameRate,
      duration,
      backgroundColor: p.backgroundColor,
    }) as { id: string };
    const layer = addFootage.run(ctx, { comp: id, footage: item.id, fit: p.fit }) as { id: string };
    return { id, layer: layer.id, width, height, frameRate, duration };
  },
});
