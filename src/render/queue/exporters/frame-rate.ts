/**
 * A composition's frame rate as ffmpeg is told it. The broadcast rates a person types as 23.976, 29.97, 59.94
 * (and 47.952, 119.88) are really 24000/1001, 30000/1001, 60000/1001...: a file tagged 2997/100 is a rate no
 * player, editor or QC tool expects. So a rate within 0.0005 fps of N*1000/1001 (N whole, the rate itself not
 * whole) is written as that fraction; any other rate as it is. The frames are the composition's either way:
 * 29.97 against 30000/1001 moves a frame by 3.6 ms an hour, far under one audio frame.
 */
const TOLERANCE = 0.0005;

export function ffmpegRate(fps: number): string {
  const whole = Math.round((fps * 1001) / 1000);
  if (!Number.isInteger(fps) && Math.abs(fps - (whole * 1000) / 1001) < TOLERANCE)
    return `${whole * 1000}/1001`;
  return String(fps);
}

/** The rate ffmpegRate names, as a number (30000/1001 for 29.97): what the written file's timestamps follow. */
export function exactRate(fps: number): number {
  const [num, den] = ffmpegRate(fps).split('/').map(Number);
  return den ? num! / den : num!;
}
