/**
 * Frame numbers as SMPTE-style timecode (HH:MM:SS:FF), as After Effects shows them. Pure and import-free, so
 * the pages in the browser (the studio, the MCP Apps preview player) use the same rule as the server.
 */

/**
 * The timecode of frame `frame` at `frameRate` frames per second. Fractional rates count whole frames of the
 * rounded rate (29.97 counts 30 per second, non-drop-frame), the convention of the studio's transport bar.
 */
export function timecode(frameRate: number, frame: number): string {
  const fps = Math.max(1, Math.round(frameRate));
  const whole = Math.max(0, Math.floor(frame));
  const seconds = Math.floor(whole / fps);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}:${pad(whole % fps)}`;
}
