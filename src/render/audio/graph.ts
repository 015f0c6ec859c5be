/**
 * One ffmpeg filter graph for an item's sound: every segment cut from its footage (atrim, in samples at
 * 48 kHz), reversed (areverse) or changed in speed like tape (asetrate + aresample: pitch moves with speed),
 * put in place on the item's timeline (adelay, in samples), each clip's level envelope applied (volume), all
 * summed without normalisation (amix normalize=0: a layer at 0 dB plays at its own loudness, as in After
 * Effects) and cut or padded to exactly the item's length. Pure: mix.ts runs it.
 */
import type { AudioClip, AudioMix, AudioSegment } from './clips.js';
import { METER_FRAME, SILENCE_DB } from './clip-meter.js';
import { GAIN_FRAME_SAMPLES, gainFilter } from './envelope.js';
import { footageInput } from '../media/input-formats.js';
import { branchWidth, loopRuns, runGroups, type Branch, type LoopRun } from './loop-runs.js';
import { MIX_RATE } from './mix-rate.js';

export { MIX_RATE };
/** What every branch is converted to first, and what the mix is. */
const CANON = `aresample=${MIX_RATE},aformat=sample_fmts=fltp:sample_rates=${MIX_RATE}:channel_layouts=stereo`;
/** Re-stamps a stream from 0 by sample count (after cuts, delays and rate changes). */
const RESTAMP = 'asetpts=N/SR/TB';
/** The short frames a keyframed level is evaluated for (envelope.ts), and frames as long as a decoder's after it
 * (what follows, the mix and its meter, then work on 1024 samples at a time, not 48). */
const ENVELOPE_FRAMES = `asetnsamples=n=${GAIN_FRAME_SAMPLES}:p=0`;
const AFTER_ENVELOPE = 'asetnsamples=n=1024:p=0';

export interface MixGraph {
  /** ffmpeg input arguments, one `-i` per footage file. */
  inputs: string[];
  /** The filter graph; its output pad is `[mix]`. */
  graph: string;
}

/** Samples at 48 kHz of `seconds`, rounded: the graph places and cuts by samples, never by rounded times. */
export const samples = (seconds: number) => Math.round(seconds * MIX_RATE);

/** A piece of footage as played: cut from its file, reversed, changed in speed; from sample 0. */
function pieceChain(s: AudioSegment): string {
  const start = samples(s.from);
  const end = Math.max(start + 1, samples(s.from + s.length * s.speed));
  const chain = [`atrim=start_sample=${start}:end_sample=${end}`, RESTAMP];
  if (s.reversed) chain.push('areverse');
  if (s.speed !== 1)
    chain.push(`asetrate=${Math.round(MIX_RATE * s.speed)}`, `aresample=${MIX_RATE}`, RESTAMP);
  return chain.join(',');
}

const delayed = (seconds: number) => {
  const delay = samples(seconds);
  return delay > 0 ? `,adelay=delays=${delay}S:all=1` : '';
};

const segmentChain = (s: AudioSegment) => pieceChain(s) + delayed(s.at);

/**
 * The lines playing a loop's run (loop-runs.ts) into `[label]`, each group from its own branch of the file
 * (`take` gives the next): the piece padded or cut to the period's whole samples, kept and repeated by aloop, cut to the
 * group's exact length; the groups joined end to end and put in place.
 */
function runLines(run: LoopRun, take: () => string, label: string): string[] {
  // One repeat: the piece, then silence to the next (none when the loop's sound fills its period).
  const size = Math.max(1, samples(run.period));
  const lines: string[] = [];
  const groups = runGroups(run).map(([a, b], g) => {
    const length = samples(b) - samples(a);
    const hold = `apad=whole_len=${size},atrim=end_sample=${size},aloop=loop=-1:size=${size}`;
    lines.push(`${take()}${pieceChain(run.piece)},${hold},atrim=end_sample=${length}[${label}g${g}]`);
    return `[${label}g${g}]`;
  });
  lines.push(
    `${groups.join('')}concat=n=${groups.length}:v=0:a=1,${RESTAMP}${delayed(run.piece.at)}[${label}]`,
  );
  return lines;
}

/**
 * Channel counts ffmpeg (5.1 and since) has a standard layout for, and so a downmix to stereo: without one (a
 * 9- or 64-channel WAV), its resampler cannot make stereo and the render failed ("Error reinitializing filters").
 * 16 and 24 have one too (hexadecagonal, 22.2), but its fold drops their top and wide channels: a 16-track WAV
 * without a channel mask lost channels 8 to 15, a 24-channel one 16 of its 24. They are summed as the others.
 */
const STANDARD_LAYOUT_CHANNELS = new Set([2, 3, 4, 5, 6, 7, 8]);

/**
 * What comes before the resampler: mono on both sides; a count without a standard layout summed by parity
 * (even channels left, odd right; `<` keeps the sum's level, so no clipping); the others as ffmpeg downmixes them.
 */
function toStereo(channels: number): string[] {
  if (channels === 1) return ['pan=stereo|c0=c0|c1=c0'];
  if (STANDARD_LAYOUT_CHANNELS.has(channels)) return [];
  const side = (from: number) =>
    Array.from({ length: Math.ceil((channels - from) / 2) }, (_, k) => `c${from + 2 * k}`).join('+');
  return [`pan=stereo|c0<${side(0)}|c1<${side(1)}`];
}

/**
 * A file's sound as footage time sees it: mono on both sides at its own level (the default upmix would lower
 * it 3 dB), then moved by its offset so that sample 0 is the first picture's time (silence before a sound that
 * starts later; a sound that starts earlier loses what comes before the picture).
 */
function fileChain(clip: AudioClip): string {
  const chain = [...toStereo(clip.channels), CANON];
  const shift = samples(Math.abs(clip.offset));
  if (clip.offset > 0 && shift > 0) chain.push(`adelay=delays=${shift}S:all=1`);
  if (clip.offset < 0 && shift > 0) chain.push(`atrim=start_sample=${shift}`, RESTAMP);
  return chain.join(',');
}

/** A clip's branches of the graph: its segments, a loop's repeats taken together (memoised: asked twice). */
const branches = new WeakMap<AudioClip, Branch[]>();
function branchesOf(clip: AudioClip): Branch[] {
  let found = branches.get(clip);
  if (!found) branches.set(clip, (found = loopRuns(clip.segments)));
  return found;
}

/** One audio stream of one file: what is decoded once. */
const sourceKey = (clip: AudioClip) => `${clip.stream}:${clip.path}`;

/**
 * The graph mixing `mix`; with no clips, silence of the item's length. `firstInput`: the ffmpeg input index of
 * its first file (1 in a video's encoder, whose input 0 is the picture).
 */
/**
 * The clip meter (clip-meter.ts), in the mix's own chain: the peak of each audio frame, and only frames above
 * silence (SILENCE_DB) printed, to the ffmpeg's fd 4 (FfmpegProcess's `onMeter`); every frame passes on
 * unchanged. The meter finds the frames above 0 dBFS among them (clipping), and a mix that prints nothing is
 * silence from end to end (a silent file, levels near -96 dB), which the item's result says: until 2026-12-07
 * only frames above 0 dBFS were printed, and such a render ended done without a word. Not a branch of its
 * own (asplit): a branch that falls behind holds every frame the mix has written since, and one fed by a loop
 * (aloop pushes as fast as it can) held the whole output: a 20-minute looped bed took 390 MB and 6.2 s, its
 * progress stuck at 0 until the end; inline, 89 MB and 3.0 s (0.7 s without a meter).
 */
const METER =
  // Frames of a fixed length, so that each printed time places the clipping to 20 ms (the mix's own frames run
  // to 4096 samples: a click at 1.00 s was reported at 0.93 s, and a clip ending at 1.70 s as ending at 1.66 s).
  // 20 ms costs nothing: a 20-minute WAV took 4.2 s either way (10 ms frames took 9.2 s: astats per frame).
  `asetnsamples=n=${Math.round(MIX_RATE * METER_FRAME)}:p=0,` +
  'astats=metadata=1:reset=1:measure_perchannel=none:measure_overall=Peak_level,' +
  `ametadata=mode=print:key=lavfi.astats.Overall.Peak_level:value=${SILENCE_DB}:function=greater:file='pipe\\:4'`;

/** `meter`: also measure the mix for clipping (a render's: its ffmpeg then needs the meter's pipe on fd 4). */
export function mixGraph(mix: AudioMix, firstInput = 0, meter = false): MixGraph {
  const total = Math.max(1, samples(mix.duration));
  const fit = `apad=whole_len=${total},atrim=end_sample=${total}`;
  if (!mix.clips.length)
    return { inputs: [], graph: `anullsrc=r=${MIX_RATE}:cl=stereo,atrim=end_sample=${total}[mix]` };
  const paths = [...new Set(mix.clips.map((c) => c.path))];
  const inputs = paths.flatMap((p) => footageInput(p));
  const lines: string[] = [];
  // Each file is an input once; each of its streams that is heard is decoded once and split into as many
  // branches as its segments and loop groups take (loop-runs.ts).
  const sourceOf = new Map<string, number>();
  const sources: AudioClip[] = [];
  const uses: number[] = [];
  for (const clip of mix.clips) {
    let i = sourceOf.get(sourceKey(clip));
    if (i === undefined) {
      i = sources.push(clip) - 1;
      sourceOf.set(sourceKey(clip), i);
      uses.push(0);
    }
    uses[i]! += branchWidth(branchesOf(clip));
  }
  sources.forEach((clip, i) => {
    const outs = Array.from({ length: uses[i]! }, (_, k) => `[f${i}s${k}]`).join('');
    lines.push(
      `[${firstInput + paths.indexOf(clip.path)}:a:${clip.stream}]${fileChain(clip)},asplit=${uses[i]}${outs}`,
    );
  });
  const next = sources.map(() => 0);
  mix.clips.forEach((clip, c) => {
    const file = sourceOf.get(sourceKey(clip))!;
    const take = () => `[f${file}s${next[file]!++}]`;
    const parts = branchesOf(clip).map((b, k) => {
      if ('run' in b) lines.push(...runLines(b.run, take, `c${c}p${k}`));
      else lines.push(`${take()}${segmentChain(b.segment)}[c${c}p${k}]`);
      return `[c${c}p${k}]`;
    });
    const gain = gainFilter(clip.levels);
    const joined =
      parts.length > 1
        ? `amix=inputs=${parts.length}:normalize=0:duration=longest:dropout_transition=0,`
        : '';
    const tail = gain ? `${RESTAMP},${ENVELOPE_FRAMES},${gain},${AFTER_ENVELOPE}` : 'anull';
    lines.push(`${parts.join('')}${joined}${tail}[c${c}]`);
  });
  const all = mix.clips.map((_, c) => `[c${c}]`).join('');
  const sum =
    mix.clips.length > 1
      ? `amix=inputs=${mix.clips.length}:normalize=0:duration=longest:dropout_transition=0,`
      : '';
  lines.push(`${all}${sum}${fit}${meter ? `,${METER}` : ''}[mix]`);
  return { inputs, graph: lines.join(';\n') };
}
