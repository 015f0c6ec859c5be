// What a video render does before its first frame, off the path to it: the encoder starts while the workers
// load (exporters/video.ts, begin), and every video file is checked against its footage item once, by the job,
// not by each worker's first decoder (footage-input.ts). Wrappers around ffmpeg and ffprobe log each run.
import { execFileSync } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasFfmpeg } from '../../helpers/ffmpeg.js';
import { numberedClip, numberedClipComp } from '../../helpers/media.js';
import { tempDir } from '../../helpers/tmp.js';
import { renderTo, soundSession } from '../audio/sound-helpers.js';

/**
 * Wrappers for ffmpeg and ffprobe in one folder (the job finds ffprobe beside ffmpeg), each logging
 * "<nanoseconds> <role>" as it starts: encoder, decoder, header-check (ffprobe without counting packets), other.
 */
async function loggingTools(dir: string) {
  const log = join(dir, 'runs.log');
  for (const tool of ['ffmpeg', 'ffprobe']) {
    const real = execFileSync('which', [tool], { encoding: 'utf8' }).trim();
    const roles =
      tool === 'ffmpeg'
        ? 'for a in "$@"; do [ "$a" = pipe:1 ] && role=decoder; [ "$a" = pipe:0 ] && role=encoder; done'
        : 'role=header-check; for a in "$@"; do [ "$a" = -count_packets ] && role=other; done';
    await writeFile(
      join(dir, tool),
      [
        '#!/bin/sh',
        'role=other',
        roles,
        `echo "$(date +%s%N) $role" >> '${log}'`,
        `exec '${real}' "$@"`,
      ].join('\n') + '\n',
    );
    await chmod(join(dir, tool), 0o755);
  }
  return {
    ffmpeg: join(dir, 'ffmpeg'),
    clear: () => writeFile(log, ''),
    runs: async () =>
      (await readFile(log, 'utf8'))
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => ({ at: BigInt(line.split(' ')[0]!), role: line.split(' ')[1]! })),
  };
}

const itWithFfmpeg = it.skipIf(!hasFfmpeg || process.platform === 'win32');

describe('before the first frame', () => {
  itWithFfmpeg('the encoder starts while the workers load, before any frame is drawn', async () => {
    const dir = await tempDir();
    const tools = await loggingTools(dir);
    const s = soundSession({ findFfmpeg: async () => tools.ffmpeg });
    const { comp } = await numberedClipComp(s, await numberedClip(dir, 'h264', '24', 48));
    await tools.clear();

    expect((await renderTo(s, comp, join(dir, 'out.mp4'))).completed).toBe(1);
    const runs = await tools.runs();
    const encoders = runs.filter((r) => r.role === 'encoder');
    const decoders = runs.filter((r) => r.role === 'decoder');
    expect(encoders).toHaveLength(1);
    expect(decoders.length).toBeGreaterThan(0);
    // A frame is drawn only once a worker has started a decoder for it: the encoder came first.
    expect(decoders.every((d) => d.at > encoders[0]!.at)).toBe(true);
  });

  itWithFfmpeg('each video file is checked once by the job, however many workers decode it', async () => {
    const dir = await tempDir();
    const tools = await loggingTools(dir);
    const s = soundSession({ findFfmpeg: async () => tools.ffmpeg, maxWorkers: 2 });
    const { comp } = await numberedClipComp(s, await numberedClip(dir, 'h264', '24', 48));
    await tools.clear();

    // A PNG sequence: two workers, each with a decoder of its own.
    expect((await renderTo(s, comp, join(dir, 'png', 'f_[##].png'))).completed).toBe(1);
    const runs = await tools.runs();
    expect(runs.filter((r) => r.role === 'decoder').length).toBeGreaterThanOrEqual(2);
    expect(runs.filter((r) => r.role === 'header-check')).toHaveLength(1);
  });
});
