// The sound's files and processes live and die with their item: a stop mid-render leaves exactly the files
// promised and no ffmpeg; without ffmpeg, sound formats fail with missing_dependency and image sequences keep
// working; under confinement a sound file outside the roots is refused before anything is written.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { createConfinement } from '../../../src/confinement/index.js';
import { createSession } from '../../../src/session.js';
import { tone } from '../../helpers/audio.js';
import { ffmpegChildren, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { listDir, renderStoppedAt, run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';
import { addSound, soundComp, soundSession } from './sound-helpers.js';

describe('sound and the render lifecycle', () => {
  itWithFfmpeg('a stop mid-render removes the output, and leaves no ffmpeg running', async () => {
    const dir = await tempDir();
    const out = await tempDir();
    const s = soundSession();
    const comp = await soundComp(s, 10, 30, 64);
    await run(s, 'layer.addSolid', { comp, color: '#804020' });
    await addSound(s, comp, await tone(dir, { freq: 440, seconds: 30 }));
    // A finished earlier item stays: exactly its file is left.
    await run(s, 'renderQueue.add', { comp, output: join(out, 'kept.wav') });
    await run(s, 'renderQueue.add', { comp, output: join(out, 'stopped.mp4') });
    // While the video renders, its encoder (which mixes the sound too) writes a tracked temporary, and nothing
    // else: no intermediate sound file.
    const seen = new Set<string>();
    const off = s.renderQueue.onProgress((p) => {
      if (p.itemsDone === 1 && p.framesDone > 10) for (const n of readdirSync(out)) seen.add(n);
    });
    // Stopped in the video: the WAV before it reports its 300 frames once written.
    const r = await renderStoppedAt(s, 60, {}, 1).finally(off);
    expect(r.items.map((i) => i.status)).toEqual(['done', 'stopped']);
    const during = [...seen].filter((n) => !n.startsWith('kept.wav'));
    expect(during.length).toBeGreaterThan(0);
    expect(during.every((n) => /^\.stopped\.mp4\.[0-9a-f]+\.part$/.test(n))).toBe(true);
    expect(await listDir(out)).toEqual(['kept.wav', 'kept.wav.manifest.json']);
    expect(ffmpegChildren()).toEqual([]);
  });

  itWithFfmpeg('a sound-only item reports its progress, and a stop ends its mix at once', async () => {
    const dir = await tempDir();
    const out = await tempDir();
    const s = soundSession();
    // Half an hour of sound to MP3: minutes of ffmpeg's time, all of it in the exporter's finish.
    const comp = await soundComp(s, 10, 1800);
    await addSound(s, comp, await tone(dir, { freq: 440, seconds: 2 }));
    await run(s, 'renderQueue.add', { comp, output: join(out, 'long.mp3') });
    const r = await renderStoppedAt(s, 50);
    expect(r.items[0]).toMatchObject({ status: 'stopped', error: { code: 'cancelled' } });
    expect(await listDir(out)).toEqual([]);
    expect(ffmpegChildren()).toEqual([]);
  });

  itWithFfmpeg(
    'without ffmpeg: sound formats fail with missing_dependency, image sequences render',
    async () => {
      const dir = await tempDir();
      const s = createSession({ renderQueue: { maxWorkers: 1, findFfmpeg: async () => null } });
      const comp = await soundComp(s, 10, 0.5);
      await addSound(s, comp, await tone(dir, { freq: 440, seconds: 1 }));
      await run(s, 'renderQueue.add', { comp, output: join(dir, 'a.wav') });
      await run(s, 'renderQueue.add', { comp, output: join(dir, 'f_[##].png') });
      const r = await run<{
        items: Array<{ status: string; error?: { code: string; remediation: string } }>;
      }>(s, 'renderQueue.render');
      expect(r.items[0]).toMatchObject({ status: 'failed', error: { code: 'missing_dependency' } });
      expect(r.items[0]!.error!.remediation).toMatch(/apt-get install ffmpeg/);
      // A picture format is no way round for a sound file: the remedy does not offer one.
      expect(r.items[0]!.error!.remediation).not.toMatch(/PNG/);
      expect(r.items[1]!.status).toBe('done');
      expect((await listDir(dir)).filter((n) => n.endsWith('.png'))).toHaveLength(5);
    },
  );

  itWithFfmpeg('confined: a sound file outside the read roots is refused, nothing is written', async () => {
    const root = await tempDir();
    const outside = await tempDir();
    const sound = await tone(outside, { freq: 440, seconds: 1 });
    // Built unconfined (the project may point anywhere), saved inside the root, opened confined.
    const free = soundSession();
    const comp = await soundComp(free, 10, 1);
    await addSound(free, comp, sound);
    await run(free, 'renderQueue.add', { comp, output: join(root, 'out.wav') });
    await run(free, 'project.save', { path: join(root, 'p.ecproj') });
    const confinement = createConfinement({ readRoots: [root], writeRoots: [root] });
    const s = createSession({ confinement, renderQueue: { maxWorkers: 1 } });
    await run(s, 'project.open', { path: join(root, 'p.ecproj') });
    const r = await s.engine.execute('renderQueue.render', {});
    expect(r.ok ? 'ok' : r.error.code).toBe('path_outside_roots');
    expect(await listDir(root)).toEqual(['p.ecproj']);
  });
});
