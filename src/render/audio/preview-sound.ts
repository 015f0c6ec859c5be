/**
 * A composition's whole sound for a person listening along while it plays (the studio's transport): the mix a
 * render makes (clips.ts, graph.ts: the same levels, time maps and precomps), decoded by one ffmpeg to 16-bit
 * PCM on a pipe and wrapped as a WAV in memory, so nothing is written to disk. Keyed by what it is mixed from,
 * so an edit that changes no sound (a title's colour) reuses the last mix.
 */
import { createHash } from 'node:crypto';
import { dirname } from 'node:path';
import { EngineError, type EnginePorts, type Project } from '../../engine/index.js';
import { findComp } from '../../engine/resolve.js';
import { findExecutable } from '../../node-io/search-path.js';
import { collectAudio, type AudioMix } from './clips.js';
import { MIX_RATE } from './graph.js';
import { AudioMixRun } from './mix.js';
import { untilStopped } from '../queue/exporters/ffmpeg.js';
import { openMix, type MixWarning } from './open-mix.js';

/** 16-bit stereo: what every browser decodes, half the float mix's size. */
const CHANNELS = 2;
const BYTES_PER_SAMPLE = 2;
/** Longest composition whose sound is mixed for listening: 20 minutes is 230 MB of PCM. */
export const MAX_PREVIEW_SOUND_SECONDS = 20 * 60;

/** What a composition's sound is mixed from, and its key; null when nothing in it is heard. */
export interface SoundPlan {
  key: string;
  mix: AudioMix;
}

export function planPreviewSound(doc: Project, compRef: string): SoundPlan | null {
  const comp = findComp(doc, compRef);
  const mix = collectAudio(doc, comp.id, 0, comp.duration);
  if (!mix.clips.length) return null;
  if (comp.duration > MAX_PREVIEW_SOUND_SECONDS)
    throw new EngineError(
      'bad_argument',
      `Composition "${comp.name}" lasts ${Math.round(comp.duration)} s; its sound is played along only up to ${MAX_PREVIEW_SOUND_SECONDS / 60} minutes.`,
      'Listen to a render instead: renderQueue.add with format "wav", "mp3" or "m4a", then renderQueue.render.',
    );
  const key = createHash('sha256').update(JSON.stringify(mix)).digest('hex').slice(0, 32);
  return { key, mix };
}

export interface MixedSound {
  wav: Buffer;
  /** Files whose sound is left out (missing, or changed since their import), one sentence and code each. */
  warnings: MixWarning[];
}

export interface PreviewSoundDeps {
  ports: EnginePorts;
  ffmpeg: string | null;
  signal?: AbortSignal;
}

/** Mixes the plan's sound to a 48 kHz 16-bit stereo WAV; every file it reads is opened through `ports`. */
export async function mixPreviewSound(
  doc: Project,
  plan: SoundPlan,
  { ports, ffmpeg, signal }: PreviewSoundDeps,
): Promise<MixedSound> {
  if (!ffmpeg)
    throw new EngineError(
      'missing_dependency',
      'Playing a composition with its sound needs ffmpeg, which was not found on PATH.',
      'Install it: apt-get install ffmpeg.',
    );
  const closes: (() => Promise<void>)[] = [];
  try {
    const ffprobe = await findExecutable('ffprobe', dirname(ffmpeg));
    const { mix, warnings } = await openMix(doc, plan.mix, ports, (c) => closes.push(c), 'skip', ffprobe);
    const pcm = await decodeMix(ffmpeg, mix, signal);
    return { wav: Buffer.concat([wavHeader(pcm.length), pcm]), warnings };
  } finally {
    await Promise.all(closes.map((close) => close().catch(() => undefined)));
  }
}

/** 16-bit stereo PCM at the mix's rate, raw, on ffmpeg's stdout. */
const PCM_ARGS = ['-c:a', 'pcm_s16le', '-f', 's16le', '-ar', String(MIX_RATE), '-ac', String(CHANNELS)];

/** Runs the mix (the render's AudioMixRun) into raw PCM on a pipe and collects it; `signal` kills it. */
async function decodeMix(ffmpeg: string, mix: AudioMix, signal?: AbortSignal): Promise<Buffer> {
  signal?.throwIfAborted();
  const chunks: Buffer[] = [];
  const run = new AudioMixRun(ffmpeg, mix, PCM_ARGS, 'pipe:1', "the studio's sound", {
    onStdout: (chunk) => chunks.push(chunk),
  });
  await untilStopped(
    run,
    signal,
    () => new EngineError('cancelled', 'The sound mix was stopped.', 'Ask for it again.'),
  );
  return Buffer.concat(chunks);
}

/** The 44-byte header of a PCM WAV holding `dataBytes` bytes of 48 kHz 16-bit stereo. */
export function wavHeader(dataBytes: number): Buffer {
  const h = Buffer.alloc(44);
  const blockAlign = CHANNELS * BYTES_PER_SAMPLE;
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(CHANNELS, 22);
  h.writeUInt32LE(MIX_RATE, 24);
  h.writeUInt32LE(MIX_RATE * blockAlign, 28);
  h.writeUInt16LE(blockAlign, 32);
  h.writeUInt16LE(BYTES_PER_SAMPLE * 8, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}
