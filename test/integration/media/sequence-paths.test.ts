/**
 * Where a sequence's frames are looked for: in its first frame's folder (`path`), so a project moved with its
 * footage, or whose path was edited by hand, still finds them; a `%d` in a folder's name is that folder's
 * name; and a file whose own name holds `%d` imports as that file. Proved by the pixels each frame shows.
 */
import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, expect } from 'vitest';
import { disposeAll, trackedSession } from '../../helpers/footage-session.js';
import { frameOf, numberedSequence } from '../../helpers/media.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

afterEach(disposeAll);

const session = () => trackedSession();

/** Saves, in `dir`, a project whose 64x48 comp shows the sequence at `pattern`; returns the project's path. */
async function sequenceProject(dir: string, pattern: string): Promise<string> {
  const s = session();
  const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
    name: 'Main',
    width: 64,
    height: 48,
    frameRate: 30,
    duration: 1,
  });
  const { id: footage } = await run<{ id: string }>(s, 'file.import', { path: pattern, frameRate: 30 });
  await run(s, 'layer.addFootage', { comp, footage });
  const path = join(dir, 'shot.ecproj');
  await run(s, 'project.save', { path });
  return path;
}

/** The frame number the centre of comp frame `frame` shows, previewed after opening `project`. */
async function shownAfterOpening(project: string, frame: number): Promise<number> {
  const s = session();
  await run(s, 'project.open', { path: project });
  const out = join(project, '..', `frame-${frame}.png`);
  await run(s, 'frame.save', { comp: 'Main', time: frame / 30, path: out });
  const { data } = await sharp(out).raw().toBuffer({ resolveWithObject: true });
  const i = (24 * 64 + 32) * 4;
  return frameOf(data[i]!, data[i + 1]!, data[i + 2]!);
}

describeWithFfmpeg('where an image sequence is read from', () => {
  itWithFfmpeg('a project moved with its sequence finds the frames in its new folder', async () => {
    const root = await tempDir();
    const a = join(root, 'A');
    await mkdir(a);
    const pattern = await numberedSequence(a, 12, 1);
    const project = await sequenceProject(a, pattern);
    await rename(a, join(root, 'B'));
    // Frame 5 of the comp shows file 6 (the sequence starts at 1): read from B, though the file names A.
    expect(await shownAfterOpening(join(root, 'B', 'shot.ecproj'), 5)).toBe(5);

    // The final render reads the frames through its own path (the queue's footage input): also from B.
    const s = session();
    await run(s, 'project.open', { path: join(root, 'B', 'shot.ecproj') });
    const out = join(root, 'out', 'f_[##].png');
    await run(s, 'renderQueue.add', { comp: 'Main', output: out, frameRange: { start: 3, end: 4 } });
    const job = await run<{ completed: number; items: { error?: { message: string } }[] }>(
      s,
      'renderQueue.render',
      {},
    );
    expect(job.items[0]?.error).toBeUndefined();
    expect(job.completed).toBe(1);
    const { data } = await sharp(join(root, 'out', 'f_04.png'))
      .raw()
      .toBuffer({ resolveWithObject: true });
    const i = (24 * 64 + 32) * 4;
    expect(frameOf(data[i]!, data[i + 1]!, data[i + 2]!)).toBe(4);
    // What made it portable: the saved file names its footage relative to its own folder.
    const saved = JSON.parse(await readFile(project.replace('/A/', '/B/'), 'utf8')) as {
      items: { type: string; path?: string; media?: { sequence?: { pattern: string } } }[];
    };
    const footage = saved.items.find((item) => item.type === 'footage')!;
    expect([footage.path, footage.media?.sequence?.pattern]).toEqual(['seq/f_0001.png', 'seq/f_%04d.png']);
  });

  itWithFfmpeg('a path edited to be relative is read against the project folder, not the cwd', async () => {
    const root = await tempDir();
    const pattern = await numberedSequence(root, 12, 1);
    const project = await sequenceProject(root, pattern);
    const doc = JSON.parse(await readFile(project, 'utf8')) as {
      items: { type: string; path?: string; media?: { sequence?: { pattern: string } } }[];
    };
    const footage = doc.items.find((i) => i.type === 'footage')!;
    footage.path = 'seq/f_0001.png';
    footage.media!.sequence!.pattern = 'seq/f_%04d.png';
    const moved = join(root, 'elsewhere');
    await mkdir(moved);
    const edited = join(root, 'edited.ecproj');
    await writeFile(edited, JSON.stringify(doc));
    const cwd = process.cwd();
    process.chdir(moved);
    try {
      expect(await shownAfterOpening(edited, 7)).toBe(7);
    } finally {
      process.chdir(cwd);
    }
  });

  itWithFfmpeg("a %d in a folder's name is part of the folder, not the frame field", async () => {
    const root = await tempDir();
    // ffmpeg would read the folder's %d as its own field: the frames are made elsewhere and the folder renamed.
    const made = await numberedSequence(join(root, 'take'), 6, 1);
    await rename(join(root, 'take'), join(root, 'take%d'));
    const project = await sequenceProject(root, made.replace('/take/', '/take%d/'));
    expect(await shownAfterOpening(project, 2)).toBe(2);
  });

  itWithFfmpeg('a file named with %d imports as that file, not as a pattern', async () => {
    const root = await tempDir();
    const pattern = await numberedSequence(root, 4, 1);
    const literal = join(root, 'logo%d.png');
    await copyFile(pattern.replace('%04d', '0003'), literal);
    const s = session();
    const imported = await run<{ id: string }>(s, 'file.import', { path: literal });
    const item = s.engine.document.items.find((i) => i.id === imported.id) as {
      path: string;
      media?: { kind: string };
    };
    expect(item.path).toBe(literal);
    expect(item.media?.kind).toBe('still');
  });

  itWithFfmpeg(
    'a missing clip or sound named with %d is no_such_file, not "not an image sequence"',
    async () => {
      const root = await tempDir();
      const s = session();
      for (const name of ['clip%d.mp4', 'take_%03d.wav']) {
        const r = await s.engine.execute('file.import', { path: join(root, name) });
        // It was bad_argument, remedy 'Import it without "sequence"', which the call had not passed.
        expect(r.ok ? 'ok' : r.error.code).toBe('no_such_file');
      }
      // A pattern of images is still a pattern, and sequence: true on a video is still refused.
      const pattern = await numberedSequence(root, 2, 1);
      const imported = await run<{ media: { kind: string } }>(s, 'file.import', { path: pattern });
      expect(imported.media.kind).toBe('sequence');
      const flagged = await s.engine.execute('file.import', {
        path: join(root, 'clip%d.mp4'),
        sequence: true,
      });
      expect(flagged.ok ? 'ok' : flagged.error.code).toBe('bad_argument');
    },
  );

  itWithFfmpeg(
    'a numbered file whose name holds a % sign is refused for the %, not for a missing number',
    async () => {
      const root = await tempDir();
      const pattern = await numberedSequence(root, 2, 1);
      const literal = join(root, 'seq', '50%_0001.png');
      await copyFile(pattern.replace('%04d', '0001'), literal);
      const r = await session().engine.execute('file.import', { path: literal, sequence: true });
      expect(r.ok ? 'ok' : r.error.code).toBe('bad_argument');
      // It said the name had no frame number, which it has.
      if (!r.ok) expect(r.error.message).not.toMatch(/no frame number/);
      if (!r.ok) expect(r.error.remediation).toMatch(/without the % sign/);
    },
  );

  itWithFfmpeg('a folder or a FIFO named like the next frame ends the run: it is no frame', async () => {
    const root = await tempDir();
    const pattern = await numberedSequence(root, 4, 1);
    await mkdir(pattern.replace('%04d', '0005'));
    execFileSync('mkfifo', [pattern.replace('%04d', '0006')]);
    await writeFile(pattern.replace('%04d', '0007'), await readFile(pattern.replace('%04d', '0001')));
    const s = session();
    const { id } = await run<{ id: string }>(s, 'file.import', { path: pattern, frameRate: 30 });
    const item = s.engine.document.items.find((i) => i.id === id) as {
      media?: { frames?: number; sequence?: { first: number; last: number } };
    };
    expect(item.media?.sequence).toMatchObject({ first: 1, last: 4 });
    // And every frame it counts renders (the folder, counted as frame 5, failed the final render).
    const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
      width: 64,
      height: 48,
      frameRate: 30,
      duration: 0.2,
    });
    await run(s, 'layer.addFootage', { comp, footage: id });
    await run(s, 'renderQueue.add', { comp, output: join(root, 'out', 'f_[##].png') });
    const r = await run<{ items: Array<{ status: string }> }>(s, 'renderQueue.render');
    expect(r.items[0]).toMatchObject({ status: 'done' });
  });
});
