/** Reads rendered outputs back with independent decoders: ffprobe for video, sharp for images. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import sharp from 'sharp';

const exec = promisify(execFile);

export interface Decoded {
  frames: number;
  width: number;
  height: number;
  codec?: string;
}

/** Decodes every frame of a video with ffprobe (-count_frames). */
export async function probeVideo(path: string): Promise<Decoded> {
  const { stdout } = await exec('ffprobe', [
    '-v',
    'error',
    '-count_frames',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=nb_read_frames,width,height,codec_name',
    '-of',
    'json',
    path,
  ]);
  const s = (JSON.parse(stdout) as { streams: Array<Record<string, string | number>> }).streams[0]!;
  return {
    frames: Number(s.nb_read_frames),
    width: Number(s.width),
    height: Number(s.height),
    codec: String(s.codec_name),
  };
}

/** Decodes an (animated) image with sharp: frame count is the number of pages. */
export async function probeImage(path: string): Promise<Decoded> {
  const meta = await sharp(path, { animated: true }).metadata();
  await sharp(path, { animated: true }).raw().toBuffer();
  return {
    frames: meta.pages ?? 1,
    width: meta.width!,
    height: meta.pageHeight ?? meta.height!,
    codec: meta.format,
  };
}
