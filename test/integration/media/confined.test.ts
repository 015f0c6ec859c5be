/** Video under confinement: the media port opens only inside the roots, never through a link that points out. */
import { readdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createConfinement } from '../../../src/confinement/index.js';
import { createSession } from '../../../src/session.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { numberedClip, numberedClipComp } from '../../helpers/media.js';
import type { JobResult } from '../../../src/render/queue/service.js';
import { layout } from '../confinement/fixture.js';

describeWithFfmpeg('confined video', () => {
  itWithFfmpeg(
    'imports inside the roots; refuses a clip outside, directly or through a symlink',
    async () => {
      const l = await layout();
      const inside = await numberedClip(l.root, 'h264', '24', 4);
      const outside = await numberedClip(l.outside, 'h264', '24', 4);
      const link = join(l.root, 'link.mp4');
      await symlink(outside, link);
      const { engine } = createSession({
        confinement: createConfinement({ readRoots: [l.ro], writeRoots: [l.root] }),
      });
      const code = async (path: string) => {
        const r = await engine.execute('file.import', { path });
        return r.ok ? 'ok' : r.error.code;
      };
      expect(await code(inside)).toBe('ok');
      expect(await code(outside)).toBe('path_outside_roots');
      expect(await code(link)).toBe('path_outside_roots');
      await expect(engine.ports.openMedia(outside)).rejects.toMatchObject({ code: 'path_outside_roots' });
    },
  );
});

/** Files inside a root that name media elsewhere: an HLS playlist, a DASH manifest, an ffconcat list. */
async function namingFiles(root: string, secret: string): Promise<Record<string, string>> {
  const hls = [
    '#EXTM3U',
    '#EXT-X-TARGETDURATION:1',
    '#EXTINF:1.0,',
    `file://${secret}`,
    '#EXTINF:1.0,',
    secret,
  ];
  const mpd =
    '<?xml version="1.0"?><MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" ' +
    'mediaPresentationDuration="PT0.2S" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011"><Period>' +
    '<AdaptationSet mimeType="video/mp4"><Representation id="1" bandwidth="1000" width="64" height="48">' +
    `<BaseURL>file://${secret}</BaseURL></Representation></AdaptationSet></Period></MPD>`;
  const files: Record<string, string> = {
    'list.m3u8': [...hls, '#EXT-X-ENDLIST', ''].join('\n'),
    // The same playlist under a video's name: ffmpeg picks the demuxer by the bytes, not the name.
    'renamed-playlist.mp4': [...hls, '#EXT-X-ENDLIST', ''].join('\n'),
    'manifest.mpd': mpd,
    // A relative name resolves against /proc/<pid>/fd/: "0" is the server's own stdin.
    'concat.mp4': 'ffconcat version 1.0\nfile 0\n',
  };
  for (const [name, text] of Object.entries(files)) await writeFile(join(root, name), text);
  return Object.fromEntries(Object.keys(files).map((name) => [name, join(root, name)]));
}

describeWithFfmpeg('footage that names other files', () => {
  itWithFfmpeg(
    'refuses an HLS playlist, a DASH manifest and an ffconcat list inside the roots, naming what it is',
    async () => {
      const l = await layout();
      const secret = await numberedClip(l.outside, 'h264', '24', 4);
      const { engine } = createSession({
        confinement: createConfinement({ readRoots: [l.ro], writeRoots: [l.root] }),
      });
      for (const [name, path] of Object.entries(await namingFiles(l.root, secret))) {
        const r = await engine.execute('file.import', { path });
        expect(r.ok, name).toBe(false);
        if (r.ok) continue;
        expect(r.error.code, name).toBe('unsupported_format');
        expect(r.error.message, name).toMatch(
          /is (an HLS playlist|a DASH manifest|an ffconcat list): it names other media files/,
        );
        expect(r.error.remediation, name).toMatch(/Import the media files themselves/);
      }
      expect(engine.document.items.filter((i) => i.type === 'footage')).toEqual([]);
    },
  );

  itWithFfmpeg(
    'renders nothing from outside when an imported clip is replaced by a playlist that names a file outside',
    async () => {
      const l = await layout();
      const secret = await numberedClip(l.outside, 'h264', '24', 4);
      const clip = await numberedClip(l.root, 'h264', '24', 4);
      const session = createSession({
        confinement: createConfinement({ readRoots: [l.ro], writeRoots: [l.root] }),
      });
      const { engine } = session;
      const { comp } = await numberedClipComp(session, clip);
      const playlist = (await namingFiles(l.root, secret))['renamed-playlist.mp4']!;
      await rename(playlist, clip);
      await engine.execute('renderQueue.add', { comp, output: join(l.root, 'out_[##].png') });
      const r = await engine.execute<JobResult>('renderQueue.render', {});
      if (!r.ok) throw new Error(r.error.message);
      expect(r.result.items[0]).toMatchObject({ status: 'failed', error: { code: 'unsupported_format' } });
      expect(r.result.items[0]!.error?.message).toMatch(/an HLS playlist/);
      expect((await readdir(l.root)).filter((f) => f.startsWith('out_'))).toEqual([]);
    },
  );
});
