/**
 * Scrubbing a video clip over stdio as an agent does (built CLI): render_preview at random times shows the
 * source frame each time (after the first seek, from the scrub cache), and SIGTERM leaves no ffmpeg behind,
 * the scrub cache's background decoder included.
 */
import sharp from 'sharp';
import { expect } from 'vitest';
import { describeWithFfmpeg, itWithFfmpeg } from '../helpers/ffmpeg.js';
import { frameOf, numberedClip } from '../helpers/media.js';
import { ffmpegChildren, processExists } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';
import { RawServer, type Message } from './mcp-helpers.js';

const call = (s: RawServer, id: number, name: string, args: Record<string, unknown>) =>
  s.request(id, 'tools/call', { name, arguments: args });

async function shownFrame(m: Message): Promise<number> {
  const content = (m.result as { content: { type: string; data?: string }[] }).content;
  const png = Buffer.from(content.find((c) => c.type === 'image')!.data!, 'base64');
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * 4;
  return frameOf(data[i]!, data[i + 1]!, data[i + 2]!);
}

describeWithFfmpeg('mcp: scrubbing video footage (built CLI)', () => {
  itWithFfmpeg(
    'render_preview at random times shows each source frame; SIGTERM ends every decoder',
    async () => {
      // 30 s of clip: the scrub cache's run (up to 900 frames from the first preview) is still decoding when the
      // decoders are counted below; with 4 s it could finish first on a fast day, leaving none to count.
      const clip = await numberedClip(await tempDir(), 'h264', '30', 900, { size: '320x240' });
      const s = new RawServer();
      await s.initialize();
      const setup = await call(s, 1, 'command_batch', {
        steps: [
          { id: 'comp.new', params: { name: 'Scrub', width: 320, height: 240, frameRate: 30, duration: 4 } },
          { id: 'file.import', params: { path: clip } },
          { id: 'layer.addFootage', params: { comp: 'Scrub', footage: 'clip-h264-30' } },
        ],
      });
      expect((setup.result as { isError?: boolean }).isError).toBeUndefined();
      let id = 2;
      for (const frame of [60, 5, 100, 33, 119, 0, 77]) {
        const r = await call(s, id++, 'render_preview', { comp: 'Scrub', time: frame / 30 });
        expect(await shownFrame(r)).toBe(frame);
      }
      // The decoders of this server now (the scrub cache's run, a seeking decoder): after SIGTERM each has
      // ended and been reaped by the server (not left a zombie for init to reap).
      const decoders = ffmpegChildren(s.child.pid!);
      expect(decoders.length).toBeGreaterThan(0);
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
      for (const pid of decoders) expect(processExists(pid)).toBe(false);
    },
  );
});
