/** Video under confinement: the media port opens only inside the roots, never through a link that points out. */
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createConfinement } from '../../../src/confinement/index.js';
import { createSession } from '../../../src/session.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { numberedClip } from '../../helpers/media.js';
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
