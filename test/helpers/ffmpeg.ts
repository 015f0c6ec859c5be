/**
 * Video tests need ffmpeg and ffprobe (Debian's ffmpeg package). Where they are missing those tests skip with
 * this reason, so `npm test` passes on a machine without them; CI installs ffmpeg and sets
 * EFFECTCRAFT_REQUIRE_FFMPEG=1, which turns a missing ffmpeg into a failure instead of a skip.
 */
import { execFileSync } from 'node:child_process';
import { describe, it } from 'vitest';

/** Whether `cmd` is on PATH. */
export function onPath(cmd: string): boolean {
  try {
    execFileSync('which', [cmd], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const hasFfmpeg = onPath('ffmpeg') && onPath('ffprobe');

if (!hasFfmpeg && process.env.EFFECTCRAFT_REQUIRE_FFMPEG === '1') {
  throw new Error(
    'EFFECTCRAFT_REQUIRE_FFMPEG=1 but ffmpeg/ffprobe are not on PATH: install them (apt-get install ffmpeg).',
  );
}

/** `it` for tests that encode or decode video: skipped (not failed) without ffmpeg. */
export const itWithFfmpeg = it.skipIf(!hasFfmpeg);
export const describeWithFfmpeg = describe.skipIf(!hasFfmpeg);

/** This process's ffmpeg children (decoders and encoders, zombies included), from ps: pid and command line. */
export function ffmpegChildren(): { pid: number; args: string }[] {
  const out = execFileSync('ps', ['-o', 'pid=,comm=,args=', '--ppid', String(process.pid)], {
    encoding: 'utf8',
  });
  return out.split('\n').flatMap((line) => {
    const [pid, comm, ...args] = line.trim().split(/\s+/);
    return comm === 'ffmpeg' ? [{ pid: Number(pid), args: args.join(' ') }] : [];
  });
}
