/**
 * A minor (young-generation) garbage collection on demand, for the threads that draw frames. Each frame's
 * pixels leave Skia in a native buffer of their own (`canvas.data()` copies: 8 MB at 1080p) that is freed only
 * when its small JS wrapper is collected. A render worker allocates few JS objects, so its young generation
 * fills slowly, and V8 collects for native memory only once about 64 MB more is held: five to seven frames of
 * pixels stayed alive for nothing. One minor collection a frame costs well under a millisecond; on the 1080p
 * MP4 benchmark it took Node's peak from 256 to 194 MB at the same speed.
 *
 * Node refuses --expose-gc for worker threads (ERR_WORKER_INVALID_EXEC_ARGV), so the flag is turned on just long
 * enough to take `gc` from a fresh context, and off again: V8 flags are process-wide, and no other context
 * (the scripting sandbox's included) is to see a `gc` global.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options: { type: 'minor' | 'major' }) => void;

let gc: Gc | null | undefined;

function takeGc(): Gc | null {
  try {
    setFlagsFromString('--expose-gc');
    const fn = runInNewContext('gc') as unknown;
    return typeof fn === 'function' ? (fn as Gc) : null;
  } catch {
    // A runtime without the flag: frames are freed by V8's own collections, as before.
    return null;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

/** Collects the young generation now (frees the native pixel buffers of frames already handed on). */
export function collectYoungGarbage(): void {
  gc ??= takeGc();
  gc?.({ type: 'minor' });
}
