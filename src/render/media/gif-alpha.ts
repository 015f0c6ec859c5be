/**
 * Whether a GIF shows through anywhere. ffmpeg decodes every GIF to BGRA, so ffprobe names a format with alpha
 * for all of them; but most GIFs are opaque (their transparent colour, when they have one, only lets the frame
 * before show through). A GIF recorded as having alpha read as a cut-out in inspect and kept its previews out
 * of the scrub cache (which keeps JPEGs), so an opaque one scrubbed as slowly as a seek each time.
 *
 * Decided by decoding it, not by reading the file's flags: whether a transparent index shows through depends on
 * each frame's disposal and on what lies under it, which only composing the frames tells. ffmpeg composes them
 * as the decoders do, and signalstats gives each frame's lowest alpha.
 */
import type { MediaProbe } from '../../engine/ports.js';
import { runBounded } from './child-output.js';
import { footageInput } from './input-formats.js';

/** A GIF that takes longer to decode keeps ffprobe's answer (alpha): the check is a nicety, not an import's cost. */
const CHECK_TIMEOUT_MS = 15_000;
/** Each frame prints one line of about 40 bytes: this is ~50,000 frames. */
const CHECK_MAX_BYTES = 2 * 1024 * 1024;

const LOWEST_ALPHA = 'alphaextract,signalstats,metadata=mode=print:key=lavfi.signalstats.YMIN:file=-';

/** True when every frame of the GIF at `input` is opaque; false when any is not, or when that cannot be told. */
export async function opaqueGif(ffmpeg: string, input: string): Promise<boolean> {
  const run = await runBounded(
    ffmpeg,
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      ...footageInput(input),
      '-map',
      '0:v:0',
      '-vf',
      LOWEST_ALPHA,
      '-f',
      'null',
      '-',
    ],
    { timeoutMs: CHECK_TIMEOUT_MS, maxBytes: CHECK_MAX_BYTES, what: 'Checking the GIF for transparency' },
  ).catch(() => null);
  if (!run || run.code !== 0) return false;
  const lowest = [...run.stdout.toString('latin1').matchAll(/YMIN=(\d+)/g)].map((m) => Number(m[1]));
  return lowest.length > 0 && lowest.every((v) => v === 255);
}

/**
 * `probe` with alpha cleared when it is a GIF that is opaque throughout. ffmpeg is looked for only then (none
 * found: left as it is), not for every file imported.
 */
export async function settleGifAlpha(
  probe: MediaProbe,
  findFfmpeg: () => Promise<string | null>,
  input: string,
): Promise<MediaProbe> {
  const media = probe.media;
  if (media.kind !== 'video' || media.codec !== 'gif' || !media.alpha) return probe;
  const ffmpeg = await findFfmpeg();
  if (!ffmpeg || !(await opaqueGif(ffmpeg, input))) return probe;
  return { ...probe, media: { ...media, alpha: false } };
}
