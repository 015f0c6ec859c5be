/**
 * Small previews of video footage: a grainy clip's frame is a PNG of hundreds of kilobytes at the default size,
 * more than an agent's context should take for a look. render_preview and frame.preview take format jpeg or
 * webp (and quality), come back as image content of that type, and write that format to `output`; PNG stays the
 * default. Built CLI over raw stdio.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { describe, expect } from 'vitest';
import { itWithFfmpeg } from '../helpers/ffmpeg.js';
import { tempDir } from '../helpers/tmp.js';
import { RawServer } from './mcp-helpers.js';

const exec = promisify(execFile);

type Content = { type: string; data?: string; text?: string; mimeType?: string };

async function preview(s: RawServer, id: string, name: string, args: Record<string, unknown>) {
  const r = await s.request(id, 'tools/call', { name, arguments: args });
  const content = (r.result?.content ?? []) as Content[];
  const image = content.find((c) => c.type === 'image');
  return {
    isError: r.result?.isError === true,
    text: content.find((c) => c.type === 'text')?.text ?? '',
    mimeType: image?.mimeType,
    bytes: image ? Buffer.from(image.data!, 'base64') : null,
  };
}

describe('preview formats (built CLI, raw stdio)', () => {
  itWithFfmpeg('jpeg and webp previews of grainy footage, a fraction of the PNG', async () => {
    const dir = await tempDir();
    const clip = join(dir, 'grain.mp4');
    // Film grain: every pixel its own random grey, as sensor noise makes real footage hard for PNG.
    await exec('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
      ...['-i', "nullsrc=s=1280x720:r=25:d=1,geq=lum='128+60*(random(1)-0.5)':cb=128:cr=128"],
      ...['-c:v', 'libx264', '-crf', '10', '-pix_fmt', 'yuv420p', clip],
    ]);
    const s = new RawServer();
    await s.initialize();
    const steps = [
      { id: 'comp.new', params: { name: 'Main', width: 1280, height: 720, frameRate: 25, duration: 1 } },
      { id: 'file.import', params: { path: clip } },
      { id: 'layer.addFootage', params: { comp: 'Main', footage: 'grain' } },
    ];
    const built = await s.request('build', 'tools/call', { name: 'command_batch', arguments: { steps } });
    expect(built.result?.isError).toBeUndefined();

    const png = await preview(s, 'png', 'render_preview', { time: 0.5 });
    expect(png.mimeType).toBe('image/png');
    const jpeg = await preview(s, 'jpeg', 'render_preview', { time: 0.5, format: 'jpeg' });
    expect(jpeg.mimeType).toBe('image/jpeg');
    expect((await sharp(jpeg.bytes!).metadata()).format).toBe('jpeg');
    expect(JSON.parse(jpeg.text)).toMatchObject({ format: 'jpeg', size: { width: 768, height: 432 } });
    expect(jpeg.bytes!.length * 3).toBeLessThan(png.bytes!.length);
    // A lower quality is smaller still.
    const rough = await preview(s, 'rough', 'render_preview', { time: 0.5, format: 'jpeg', quality: 40 });
    expect(rough.bytes!.length).toBeLessThan(jpeg.bytes!.length);

    // Through command_run too: the image's type, and its base64 not in the text.
    const webp = await preview(s, 'webp', 'command_run', {
      id: 'frame.preview',
      params: { time: 0.5, format: 'webp' },
    });
    expect(webp.mimeType).toBe('image/webp');
    expect((await sharp(webp.bytes!).metadata()).format).toBe('webp');
    expect(webp.text).not.toContain('"webp":"');

    // output's extension names the format; one that contradicts format is refused, and nothing is written.
    const out = join(dir, 'look.jpg');
    const written = await preview(s, 'out', 'render_preview', { time: 0.5, output: out });
    expect(written.mimeType).toBe('image/jpeg');
    expect((await sharp(await readFile(out)).metadata()).format).toBe('jpeg');
    const clash = await preview(s, 'clash', 'render_preview', {
      time: 0.5,
      format: 'jpeg',
      output: join(dir, 'look.png'),
    });
    expect(clash.isError).toBe(true);
    expect(JSON.parse(clash.text)).toMatchObject({ code: 'bad_argument' });
    await expect(readFile(join(dir, 'look.png'))).rejects.toThrow();
    s.endInput();
    expect(await s.exited).toBe(0);
  });
});
