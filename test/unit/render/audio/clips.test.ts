// Which pieces of which footage an item hears, and where: pure, from documents built by hand. Fails when a
// layer's start, in/out points, speed, reverse, loop, freeze, mute or a precomp's offset is not respected.
import { describe, expect, it } from 'vitest';
import {
  staticProp,
  type Composition,
  type FootageItem,
  type Layer,
  type Project,
} from '../../../../src/engine/index.js';
import { collectAudio, footageSound, MAX_AUDIO_SEGMENTS } from '../../../../src/render/audio/clips.js';
import { gainFilter, levelExpression } from '../../../../src/render/audio/envelope.js';
import { mixGraph } from '../../../../src/render/audio/graph.js';
import { FOOTAGE_INPUT_OPTIONS, footageInput } from '../../../../src/render/media/input-formats.js';
import { RUN_GROUP } from '../../../../src/render/audio/loop-runs.js';

const footage = (id: string, seconds: number | null): FootageItem => ({
  type: 'footage',
  id,
  name: id,
  path: `/media/${id}.wav`,
  width: 1,
  height: 1,
  format: 'wav',
  media: {
    kind: 'audio',
    duration: seconds,
    frameRate: null,
    frameCount: null,
    variableFrameRate: false,
    pixelAspect: 1,
    alpha: false,
    rotation: 0,
    codec: null,
    sequence: null,
    audio:
      seconds === null ? null : { codec: 'pcm_s16le', sampleRate: 48000, channels: 1, duration: seconds },
  },
});

const layer = (id: string, source: Layer['source'], more: Partial<Layer> = {}): Layer => ({
  id,
  name: id,
  enabled: true,
  inPoint: 0,
  outPoint: 100,
  startTime: 0,
  blendMode: 'normal',
  parent: null,
  trackMatte: null,
  transform: {
    anchorPoint: staticProp([0, 0]),
    position: staticProp([0, 0]),
    scale: staticProp([100, 100]),
    rotation: staticProp(0),
    opacity: staticProp(100),
  },
  effects: [],
  source,
  ...more,
});

const comp = (id: string, duration: number, layers: Layer[]): Composition => ({
  type: 'composition',
  id,
  name: id,
  width: 8,
  height: 8,
  frameRate: 10,
  duration,
  backgroundColor: '#000000',
  layers,
});

const project = (items: Project['items']): Project => ({
  format: 'effectcraft-project',
  version: 1,
  name: 'p',
  items,
  renderQueue: [],
  activeComp: null,
  nextId: 1,
});

const sound = (more: Partial<Layer> = {}) => layer('l', { kind: 'footage', footage: 'f' }, more);
const segmentsOf = (l: Layer, start = 0, duration = 10, seconds = 2) =>
  collectAudio(project([footage('f', seconds), comp('c', 10, [l])]), 'c', start, duration).clips.flatMap(
    (c) => c.segments,
  );

describe('collectAudio', () => {
  it('places footage at its start time and cuts it at in and out points', () => {
    expect(segmentsOf(sound({ startTime: 1 }))).toEqual([
      { at: 1, length: 2, from: 0, speed: 1, reversed: false },
    ]);
    const cut = segmentsOf(sound({ startTime: 1, inPoint: 1.5, outPoint: 2.25 }));
    expect(cut).toEqual([{ at: 1.5, length: 0.75, from: 0.5, speed: 1, reversed: false }]);
    // An item starting at 2 s hears the rest from its own time 0.
    expect(segmentsOf(sound({ startTime: 1 }), 2, 5)).toEqual([
      { at: 0, length: 1, from: 1, speed: 1, reversed: false },
    ]);
  });

  it('follows speed, reverse, loop and freeze as the picture does', () => {
    expect(segmentsOf(sound({ time: { speed: 2, loop: false, freezeAt: null } }))).toEqual([
      { at: 0, length: 1, from: 0, speed: 2, reversed: false },
    ]);
    const reversed = segmentsOf(sound({ time: { speed: -1, loop: false, freezeAt: null } }));
    expect(reversed).toHaveLength(1);
    expect(reversed[0]).toMatchObject({ at: 0, length: 2, speed: 1, reversed: true });
    expect(reversed[0]!.from).toBeCloseTo(0, 6);
    const looped = segmentsOf(sound({ outPoint: 5, time: { speed: 1, loop: true, freezeAt: null } }));
    expect(looped.map((s) => [s.at, s.length, s.from])).toEqual([
      [0, 2, 0],
      [2, 2, 0],
      [4, 1, 0],
    ]);
    expect(segmentsOf(sound({ time: { speed: 1, loop: false, freezeAt: 0.5 } }))).toEqual([]);
  });

  it('skips muted layers and footage without sound; keeps hidden layers', () => {
    expect(segmentsOf(sound({ audio: { level: staticProp(0), muted: true } }))).toEqual([]);
    expect(segmentsOf(sound({ enabled: false }))).toHaveLength(1);
    const silent = project([footage('f', null), comp('c', 10, [sound()])]);
    expect(collectAudio(silent, 'c', 0, 10).clips).toEqual([]);
  });

  it('offsets a precomp by its start time, clips it to the precomp and adds its level', () => {
    const inner = comp('inner', 1.5, [sound({ audio: { level: staticProp(-3), muted: false } })]);
    const pre = layer(
      'p',
      { kind: 'precomp', comp: 'inner' },
      { startTime: 4, audio: { level: staticProp(-6), muted: false } },
    );
    const mix = collectAudio(project([footage('f', 2), inner, comp('c', 10, [pre])]), 'c', 0, 10);
    expect(mix.clips).toHaveLength(1);
    // The inner composition lasts 1.5 s: the 2 s footage is heard from 4 to 5.5 s.
    expect(mix.clips[0]!.segments).toEqual([{ at: 4, length: 1.5, from: 0, speed: 1, reversed: false }]);
    expect(mix.clips[0]!.levels.map((l) => [l.level.value, l.shift])).toEqual([
      [-6, 4],
      [-3, 4],
    ]);
    expect(gainFilter(mix.clips[0]!.levels)).toBe('volume=volume=-9dB');
    // A frozen precomp is silent (as a frozen footage layer).
    const frozen = { ...pre, time: { speed: 1, loop: false, freezeAt: 0 } };
    expect(
      collectAudio(project([footage('f', 2), inner, comp('c', 10, [frozen])]), 'c', 0, 10).clips,
    ).toEqual([]);
  });

  it('maps sound through retimed precomps: speed, reverse and loop compose with the layers inside', () => {
    // Inside: the 2 s footage from 0.5 s of a 1.5 s composition (heard 0.5-1.5 s, footage 0-1 s), at -3 dB.
    const inner = comp('inner', 1.5, [
      sound({ startTime: 0.5, audio: { level: staticProp(-3), muted: false } }),
    ]);
    const mixOf = (time: Layer['time'], outPoint = 10) =>
      collectAudio(
        project([
          footage('f', 2),
          inner,
          comp('c', 10, [layer('p', { kind: 'precomp', comp: 'inner' }, { startTime: 4, outPoint, time })]),
        ]),
        'c',
        0,
        10,
      );
    const round = (segs: { at: number; length: number; from: number; speed: number; reversed: boolean }[]) =>
      segs.map((g) => ({
        ...g,
        at: +g.at.toFixed(9),
        length: +g.length.toFixed(9),
        from: +g.from.toFixed(9),
      }));
    // Twice as fast: the inner 0.5-1.5 s is heard at 4.25-4.75 s, the footage twice as fast.
    expect(round(mixOf({ speed: 2, loop: false, freezeAt: null }).clips[0]!.segments)).toEqual([
      { at: 4.25, length: 0.5, from: 0, speed: 2, reversed: false },
    ]);
    // Reversed: the inner composition plays from its end, so its 0.5-1.5 s is heard at 4-5 s, backwards.
    expect(round(mixOf({ speed: -1, loop: false, freezeAt: null }).clips[0]!.segments)).toEqual([
      { at: 4, length: 1, from: 0, speed: 1, reversed: true },
    ]);
    // Looped: the 1.5 s composition repeats every 1.5 s from the layer's in point (0 s, before its start time
    // of 4 s, as the picture shows it) to its out point (10 s); its sound starts 0.5 s into each pass.
    const looped = mixOf({ speed: 1, loop: true, freezeAt: null });
    expect(round(looped.clips[0]!.segments).map((g) => g.at)).toEqual([0, 1.5, 3, 4.5, 6, 7.5, 9]);
    // The inner layer's level is read at its own time in every pass: windows, not one shift.
    const keyed = project([
      footage('f', 2),
      comp('inner', 1.5, [
        sound({
          audio: {
            level: {
              value: 0,
              keyframes: [
                { time: 0, value: 0, interpolation: 'linear' as const },
                { time: 1, value: -20, interpolation: 'linear' as const },
              ],
            },
            muted: false,
          },
        }),
      ]),
      comp('c', 10, [
        layer('p', { kind: 'precomp', comp: 'inner' }, { time: { speed: 2, loop: true, freezeAt: null } }),
      ]),
    ]);
    const [track] = collectAudio(keyed, 'c', 0, 3).clips[0]!.levels;
    expect(track!.windows?.map((w) => [w.lo, w.hi, w.l0, w.k])).toEqual([
      [0, 0.75, 0, 2],
      [0.75, 1.5, 0, 2],
      [1.5, 2.25, 0, 2],
      [2.25, 3, 0, 2],
    ]);
    // Each 1 ms gain frame is evaluated at its middle (t + 0.5 ms).
    const T = '(t+0.0005)';
    expect(gainFilter([track!])).toContain(`gte(${T},0.75)*lt(${T},1.5)*(0+(2)*(${T}-(0.75)))`);
  });

  it('walks only precomps with sound inside: 8 levels of 10 precomp layers take no time', () => {
    const fan = (leaf: Layer[]) => {
      const comps = [comp('F0', 10, leaf)];
      for (let n = 1; n <= 8; n++)
        comps.push(
          comp(
            `F${n}`,
            10,
            Array.from({ length: 10 }, (_, i) => layer(`p${i}`, { kind: 'precomp', comp: `F${n - 1}` })),
          ),
        );
      return project([footage('f', 2), ...comps]);
    };
    const started = Date.now();
    expect(collectAudio(fan([layer('solid', { kind: 'null' })]), 'F8', 0, 10).clips).toEqual([]);
    // With sound at the leaf there would be 10^8 clips: refused once past the segment bound.
    expect(() => collectAudio(fan([sound()]), 'F8', 0, 10)).toThrow(
      expect.objectContaining({ code: 'bad_argument' }),
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses more branches than a filter graph should hold; a loop takes one per group of repeats', () => {
    const loop = sound({ outPoint: 1e6, time: { speed: 1, loop: true, freezeAt: null } });
    const doc = project([footage('f', 0.1), comp('c', 1e6, [loop])]);
    // More repeats than MAX_AUDIO_SEGMENTS are grouped (a one-second loop over an hour fits)...
    const many = collectAudio(doc, 'c', 0, (MAX_AUDIO_SEGMENTS + 1) * 0.1);
    expect(many.clips[0]!.segments).toHaveLength(MAX_AUDIO_SEGMENTS + 1);
    // ...up to MAX_AUDIO_SEGMENTS groups of RUN_GROUP.
    expect(() => collectAudio(doc, 'c', 0, (MAX_AUDIO_SEGMENTS * RUN_GROUP + 1) * 0.1)).toThrow(
      expect.objectContaining({
        code: 'bad_argument',
        message: expect.stringContaining('past that at layer "l" of "c"'),
      }),
    );
  });
});

describe('audio streams', () => {
  it("plays the layer's stream, at that stream's offset, and refuses one the file no longer has", () => {
    const item = footage('f', 2);
    const first = item.media!.audio!;
    item.media!.audioStreams = [first, { ...first, channels: 2, offset: 0.25 }];
    const heard = (stream?: number) =>
      collectAudio(
        project([item, comp('c', 10, [sound({ audio: { level: staticProp(0), muted: false, stream } })])]),
        'c',
        0,
        10,
      ).clips[0]!;
    expect(heard()).toMatchObject({ stream: 0, channels: 1, offset: 0 });
    expect(heard(1)).toMatchObject({ stream: 1, channels: 2, offset: 0.25 });
    expect(mixGraph({ start: 0, duration: 1, clips: [heard(1)] }).graph).toContain('[0:a:1]');
    // Relinked to a file with one stream: an error naming the remedy, not silence.
    delete item.media!.audioStreams;
    expect(() => heard(1)).toThrow(
      expect.objectContaining({
        code: 'unsupported_format',
        remediation: expect.stringContaining('layer.setAudioStream'),
      }),
    );
  });
});

describe('level envelope and graph', () => {
  it('writes keyframed dB as a flat sum of ramps and steps', () => {
    const level = {
      value: 0,
      keyframes: [
        { time: 0, value: 0, interpolation: 'hold' as const },
        { time: 1, value: -20, interpolation: 'linear' as const },
        { time: 2, value: 0, interpolation: 'linear' as const },
      ],
    };
    expect(levelExpression(level, 'L')).toBe('0+gte(L,1)*(-20)+clip((L-1)/1,0,1)*(20)');
  });

  it('places and cuts by samples at 48 kHz, and pads or cuts the mix to the item', () => {
    const doc = project([footage('f', 2), comp('c', 10, [sound({ startTime: 0.5 })])]);
    const { inputs, graph } = mixGraph(collectAudio(doc, 'c', 0, 3));
    // Each sound file read only as a self-contained container (no playlist naming files elsewhere).
    expect(inputs).toEqual(footageInput('/media/f.wav'));
    expect(inputs).toEqual(expect.arrayContaining([...FOOTAGE_INPUT_OPTIONS, '-i', '/media/f.wav']));
    expect(graph).toContain('atrim=start_sample=0:end_sample=96000');
    expect(graph).toContain('adelay=delays=24000S:all=1');
    expect(graph).toContain('apad=whole_len=144000,atrim=end_sample=144000[mix]');
    expect(mixGraph({ start: 0, duration: 1, clips: [] }).graph).toBe(
      'anullsrc=r=48000:cl=stereo,atrim=end_sample=48000[mix]',
    );
  });

  it("plays a loop's repeats from one held piece, in groups cut to the timeline's samples", () => {
    // A 3 s sound looped over 30 minutes: 600 repeats, as a music bed under a long composition.
    const bed = sound({ outPoint: 1800, time: { speed: 1, loop: true, freezeAt: null } });
    const doc = project([footage('f', 3), comp('c', 1800, [bed])]);
    const mix = collectAudio(doc, 'c', 0, 1800);
    expect(mix.clips[0]!.segments).toHaveLength(600);
    const { graph } = mixGraph(mix);
    // Not 600 branches summed from time 0 (a cost that grew with the square of the length): the piece held once
    // and repeated. 3 s is whole samples (144000), so the repeats never drift and one group plays them all, cut
    // at the item's end (groups of 16, each cut to the timeline's sample, are for periods that drift).
    expect(graph.match(/aloop=loop=-1:size=144000/g)).toHaveLength(1);
    expect(graph).toContain('concat=n=1:v=0:a=1');
    expect(graph).not.toMatch(/amix=inputs=\d{2,}/);
    expect(graph).toContain('atrim=end_sample=86400000[');
  });
});

describe('a stream the file does not have', () => {
  it('is an error naming both remedies: another stream, or a file that has it (a template value included)', () => {
    expect(() => footageSound(footage('voice', 2), 1)).toThrow(
      expect.objectContaining({
        code: 'unsupported_format',
        message: 'Footage "voice" has 1 audio stream; a layer plays its stream 1, which it does not have.',
        remediation: expect.stringMatching(
          /from 0 to 0 with layer\.setAudioStream, or give the layer a file with a stream 1 .*template input/,
        ) as unknown,
      }),
    );
    expect(footageSound(footage('voice', 2), 0)).toMatchObject({ duration: 2, stream: 0 });
  });
});

describe('a clip whose sound outlasts its picture', () => {
  /** A 1 s video whose sound runs 3 s. */
  const clip: FootageItem = {
    ...footage('v', 3),
    media: { ...footage('v', 3).media!, kind: 'video', duration: 1, frameRate: 10, frameCount: 10 },
  };
  const heard = (more: Partial<Layer>) =>
    collectAudio(
      project([clip, comp('c', 10, [layer('l', { kind: 'footage', footage: 'v' }, more)])]),
      'c',
      0,
      10,
    )
      .clips.flatMap((c) => c.segments)
      .map((g) => [g.at, +g.length.toFixed(9), g.from]);

  it('is heard to its own end while the layer lasts, and loops with the picture', () => {
    // The layer ends with the picture: so does its sound.
    expect(heard({ outPoint: 1 })).toEqual([[0, 1, 0]]);
    // Its out point moved on: the sound plays on to its own end (3 s), not cut at the picture's (1 s).
    expect(heard({ outPoint: 5 })).toEqual([[0, 3, 0]]);
    // Looped, the clip repeats at its picture's length, sound and picture together.
    const looped = heard({ outPoint: 2.5, time: { speed: 1, loop: true, freezeAt: null } });
    expect(looped).toEqual([
      [0, 1, 0],
      [1, 1, 0],
      [2, 0.5, 0],
    ]);
  });
});

describe("a looped clip whose sound ends before its picture (AAC's few ms; here 0.3 ms)", () => {
  /** A 2.133333 s video (64 frames at 30 fps) whose sound is 2.133 s. */
  const clip: FootageItem = {
    ...footage('v', 2.133),
    media: { ...footage('v', 2.133).media!, kind: 'video', duration: 64 / 30, frameRate: 30, frameCount: 64 },
  };
  const looped = (seconds: number) =>
    collectAudio(
      project([
        clip,
        comp('c', seconds, [
          layer(
            'l',
            { kind: 'footage', footage: 'v' },
            {
              outPoint: seconds,
              time: { speed: 1, loop: true, freezeAt: null },
            },
          ),
        ]),
      ]),
      'c',
      0,
      seconds,
    );

  it('repeats from one held piece padded with silence to the loop, in groups on the timeline', () => {
    // 10 minutes: 282 repeats (281 whole, the last cut short by the out point).
    const mix = looped(600);
    expect(mix.clips[0]!.segments).toHaveLength(282);
    const { graph } = mixGraph(mix);
    // The piece held is the loop's period, 2.133333 s (102400 samples): 2.133 s of sound, then 16 samples of
    // silence, so each repeat starts where its picture does. Whole samples: one branch for every repeat.
    expect(graph).toContain(`atrim=start_sample=0:end_sample=${Math.round(2.133 * 48000)}`);
    expect(graph.match(/aloop=loop=-1:size=102400/g)).toHaveLength(1);
    expect(graph).not.toMatch(/amix=inputs=\d{2,}/);
    expect(graph).toContain('concat=n=1:v=0:a=1');
  });

  it('is not refused over an hour and a quarter (it was: a branch per repeat)', () => {
    const mix = looped(4500);
    expect(mixGraph(mix).graph.match(/aloop=/g)!.length).toBeLessThan(150);
  });
});
