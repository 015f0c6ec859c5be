/**
 * One bounded ffprobe child printing entries of one stream of the descriptor the ports opened: the closer looks
 * at files whose headers cannot be trusted (packet-scan.ts, vfr-end.ts) each spell only what they ask.
 */
import { runBounded } from './child-output.js';
import { FOOTAGE_INPUT_OPTIONS } from './input-formats.js';

export interface StreamProbe {
  /** ffprobe's `-select_streams`: an absolute index, or a specifier such as `v:0`. */
  select: string;
  /** ffprobe's `-show_entries` (`packet=pts,duration`). */
  entries: string;
  /** ffprobe's `-of`. */
  format: 'csv=p=0' | 'json';
  /** ffprobe's `-read_intervals` (`%+#4`, `12.000000%`): a part of the file instead of all of it. */
  readIntervals?: string;
  timeoutMs: number;
  /** Output past this ends the child (a seek that fails reads from the start). */
  maxBytes: number;
  /** What is done, for the bound's message (`Reading the packets of a stream`). */
  what: string;
}

/** ffprobe's output as text, or null when it fails or overruns (the caller then keeps what the headers say). */
export async function probeStream(
  ffprobe: string,
  childPath: string,
  probe: StreamProbe,
): Promise<string | null> {
  const run = await runBounded(
    ffprobe,
    [
      ...['-v', 'error', '-select_streams', probe.select],
      ...(probe.readIntervals === undefined ? [] : ['-read_intervals', probe.readIntervals]),
      ...['-show_entries', probe.entries, '-of', probe.format],
      ...FOOTAGE_INPUT_OPTIONS,
      childPath,
    ],
    { timeoutMs: probe.timeoutMs, maxBytes: probe.maxBytes, what: probe.what },
  ).catch(() => null);
  return run && run.code === 0 ? run.stdout.toString('utf8') : null;
}
