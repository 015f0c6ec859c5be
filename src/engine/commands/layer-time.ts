/** layer.setTimeMap: speed (reversed when negative), loop and freeze frame of a footage or precomp layer. */
import { z } from 'zod';
import { defineCommand, IDEMPOTENT_EDIT } from '../catalog.js';
import { refuseSoundOnly } from '../audio-streams.js';
import { EngineError } from '../errors.js';
import { MAX_SPEED, MIN_SPEED } from '../model.js';
import { draftLayer } from '../resolve.js';
import { blendsFrames, playsSoundOnly, shownFootage, sourceSeconds } from '../shown-footage.js';
import { DEFAULT_TIME_MAP, hasSourceTime } from '../time-map.js';
import { needsComp } from './layer-add.js';
import { locate, target } from './layer-edit.js';

function badSpeed(speed: number): EngineError {
  return new EngineError(
    'bad_argument',
    speed === 0
      ? 'A speed of 0 would show one moment for ever; that is a freeze frame.'
      : `Speed ${speed} is outside ${MIN_SPEED} to ${MAX_SPEED} (or -${MAX_SPEED} to -${MIN_SPEED} reversed).`,
    speed === 0
      ? 'Pass freezeAt (seconds into the footage) to hold one frame, or a speed such as 0.5, 2 or -1.'
      : `Pass a speed whose size is from ${MIN_SPEED} to ${MAX_SPEED}; negative plays reversed.`,
  );
}

export const layerSetTimeMap = defineCommand({
  id: 'layer.setTimeMap',
  title: 'Time Stretch / Freeze / Loop',
  category: 'Layer',
  description:
    'Maps comp time to the source time of a footage or precomp layer. speed: 2 plays twice as fast, 0.5 half, -1 reversed (from the end); never 0. loop: repeat the source while the layer lasts. freezeAt: show the source at this second for the whole layer (null: off). frameBlending: between two source frames (slow motion, a 24 fps clip in a 30 fps comp) show both mixed by time instead of the nearest. Omitted fields keep their value; speed 1 / no loop / no freeze is the default. Retiming does not move the out point: set it with layer.setTiming (a speed change that leaves the layer outlasting its source, or cutting it, says so in a warning with the out point that fits).',
  example: { layer: 'Interview', speed: 0.5, frameBlending: true },
  params: z.strictObject({
    ...target,
    speed: z
      .number()
      .optional()
      .describe(`Playback speed, ${MIN_SPEED} to ${MAX_SPEED} in size; negative reverses`),
    loop: z.boolean().optional(),
    freezeAt: z.number().min(0).nullable().optional().describe('Source seconds to hold (null: no freeze)'),
    frameBlending: z
      .boolean()
      .optional()
      .describe(
        'Frame mix for video and image sequences: a time between two source frames shows both, weighted by time (false: the nearest frame)',
      ),
  }),
  pathParams: {},
  enabled: needsComp,
  annotations: IDEMPOTENT_EDIT,
  mutates: true,
  run(ctx, p) {
    const { comp, layer } = locate(ctx.doc, p);
    if (!hasSourceTime(layer)) {
      throw new EngineError(
        'bad_argument',
        `Layer "${layer.name}" is a ${layer.source.kind} layer; only footage and precomp layers have a source time to map.`,
        'Pick a footage or precomp layer (precompose the layers to retime with layer.addPrecomp).',
      );
    }
    const shown = shownFootage(ctx.doc, layer);
    if (shown && (!shown.media || shown.media.kind === 'still'))
      throw new EngineError(
        'bad_argument',
        `Layer "${layer.name}" shows a still: it is the same picture at every time, so there is no time to map.`,
        'Retime a video, image sequence, sound or precomp layer; to show the still for a while only, set its in and out points (layer.setTiming).',
      );
    if (p.frameBlending)
      refuseSoundOnly(
        ctx.doc,
        layer,
        'for frame blending to mix',
        'Leave out frameBlending for a sound layer (speed, loop and freezeAt apply to its sound).',
      );
    if (p.frameBlending && !blendsFrames(ctx.doc, layer))
      throw new EngineError(
        'bad_argument',
        `Layer "${layer.name}" is a precomp: frame blending mixes the frames of a video or an image sequence, and a precomp is drawn at any time asked, so it would do nothing.`,
        'Turn frameBlending on for the footage layers inside the precomp; speed, loop and freezeAt apply to the precomp layer.',
      );
    const before = layer.time ?? DEFAULT_TIME_MAP;
    const length = sourceSeconds(ctx.doc, layer);
    if (p.freezeAt != null && length !== null && p.freezeAt >= length)
      throw new EngineError(
        'bad_argument',
        `freezeAt ${p.freezeAt} s is past the end of the source of "${layer.name}" (${length} s long).`,
        `Pass a time from 0 to under ${length} s: seconds into the source, not a frame number.`,
      );
    const speed = p.speed ?? before.speed;
    if (!(Math.abs(speed) >= MIN_SPEED && Math.abs(speed) <= MAX_SPEED)) throw badSpeed(speed);
    const time = {
      speed,
      loop: p.loop ?? before.loop,
      freezeAt: p.freezeAt === undefined ? before.freezeAt : p.freezeAt,
      // Stored only when on: layers that never blend keep the shape they always had.
      ...((p.frameBlending ?? before.frameBlending) && { frameBlending: true }),
    };
    ctx.update((d) => {
      draftLayer(d, comp.id, layer.id).time = time;
    });
    if (speed !== before.speed && length !== null && !time.loop && time.freezeAt === null)
      warnOutPoint(ctx, layer, length, speed, comp);
    // A held moment of sound is silence (render/audio/clips.ts): frozen, a music bed is not heard at all, and
    // nothing else would say so before a render.
    if (time.freezeAt !== null && before.freezeAt === null && playsSoundOnly(ctx.doc, layer))
      ctx.warn(
        `Layer "${layer.name}" plays sound only, and a frozen sound is silence: it is not heard while freezeAt is set. To hear it again, layer.setTimeMap {freezeAt: null}; to hold it under a longer composition, loop it (loop: true).`,
      );
    return { id: layer.id, time };
  },
});

/**
 * Retiming does not move the out point (as in After Effects), which a speed change leaves wrong either way:
 * faster, the layer outlasts its source and shows nothing at its end; slower, the out point cuts the source.
 * Told, with the out point that fits, so nobody finds out from a render.
 */
function warnOutPoint(
  ctx: { warn(message: string): void },
  layer: { name: string; startTime: number; outPoint: number },
  length: number,
  speed: number,
  { frameRate, duration }: { frameRate: number; duration: number },
): void {
  const ends = layer.startTime + length / Math.abs(speed);
  const half = 0.5 / frameRate;
  const fits = `layer.setTiming {outPoint: ${+ends.toFixed(4)}}`;
  if (layer.outPoint > ends + half)
    ctx.warn(
      `At speed ${speed} the source of "${layer.name}" ends at ${+ends.toFixed(3)} s of the composition, and the layer lasts to ${layer.outPoint} s: it shows nothing for the last ${+(layer.outPoint - ends).toFixed(3)} s. Set the out point where the source ends (${fits}), or loop it (loop: true).`,
    );
  // Cut by the composition's end, it cannot play longer: nothing to say.
  else if (layer.outPoint < ends - half && layer.outPoint < duration - half)
    ctx.warn(
      `At speed ${speed} the source of "${layer.name}" would play until ${+ends.toFixed(3)} s of the composition, and the layer's out point is ${layer.outPoint} s: it stops ${+(ends - layer.outPoint).toFixed(3)} s before the source ends. To play it all, ${fits}${ends > duration ? ` (the composition ends at ${duration} s)` : ''}.`,
    );
}
