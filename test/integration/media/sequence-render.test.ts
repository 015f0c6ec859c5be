/**
 * Image sequences in final renders: the render queue's workers get each frame file when they draw it, through
 * the session's ports, not the whole sequence up front (a sequence may be thousands of large files). Proved by
 * counting the reads a render makes, by the pixels each output frame shows, and by a missing file failing the
 * render only when a frame needs it, with no_such_file naming it.
 */
import { rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { afterEach, expect } from 'vitest';
import { sequenceFrame } from '../../../src/engine/index.js';
import { createNodePorts } from '../../../src/node-io/engine-ports.js';
import type { JobResult } from '../../../src/render/queue/service.js';
import { createSession, type Session } from '../../../src/session.js';
import { frameOf, numberedSequence } from '../../helpers/media.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

const sessions: Session[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) {
    s.renderQueue.stop();
    await s.renderQueue.idle();
  }
});

/** A session whose every file read is recorded (the real filesystem underneath). */
function countingSession(reads: string[]): Session {
  const ports = createNodePorts();
  const s = createSession({
    ports: { ...ports, readFile: (path) => (reads.push(path), ports.readFile(path)) },
    renderQueue: { maxWorkers: 2 },
  });
  sessions.push(s);
  return s;
}

/** A 64x48 comp at 30 fps holding the sequence at `pattern` (imported at 30 fps); returns the comp id. */
async function sequenceComp(s: Session, pattern: string): Promise<string> {
  const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
    width: 64,
    height: 48,
    frameRate: 30,
    duration: 4,
  });
  const { id: footage } = await run<{ id: string }>(s, 'file.import', { path: pattern, frameRate: 30 });
  await run(s, 'layer.addFootage', { comp, footage });
  return comp;
}

describeWithFfmpeg('image sequences in final renders', () => {
  itWithFfmpeg(
    'reads only the frame files the rendered frames show, and each shows its own file',
    async () => {
      const dir = await tempDir();
      const pattern = await numberedSequence(dir, 100, 1);
      const reads: string[] = [];
      const s = countingSession(reads);
      const comp = await sequenceComp(s, pattern);
      reads.length = 0;
      const out = join(dir, 'out', 'f_[##].png');
      await run(s, 'renderQueue.add', { comp, output: out, frameRange: { start: 10, end: 14 } });
      const job = await run<JobResult>(s, 'renderQueue.render', {});
      expect(job.completed).toBe(1);
      const sequenceReads = new Set(reads.filter((p) => p.includes('seq')));
      // Frames 10-14 show files 11-15 (the sequence starts at 1): those five, not the hundred.
      expect([...sequenceReads].sort()).toEqual([11, 12, 13, 14, 15].map((n) => sequenceFrame(pattern, n)));
      for (const f of [10, 12, 14]) {
        const { data } = await sharp(join(dir, 'out', `f_${f}.png`))
          .raw()
          .toBuffer({ resolveWithObject: true });
        const i = (24 * 64 + 32) * 4;
        expect(frameOf(data[i]!, data[i + 1]!, data[i + 2]!)).toBe(f);
      }
    },
  );

  itWithFfmpeg(
    'a missing file fails the render when a frame needs it, with no_such_file naming it',
    async () => {
      const dir = await tempDir();
      const pattern = await numberedSequence(dir, 30, 1);
      const s = countingSession([]);
      const comp = await sequenceComp(s, pattern);
      const gone = sequenceFrame(pattern, 21);
      await rm(gone);
      // Frames 0-9 need files 1-10: the missing 21st is not needed, the render completes.
      await run(s, 'renderQueue.add', {
        comp,
        output: join(dir, 'a', 'f_[##].png'),
        frameRange: { start: 0, end: 9 },
      });
      expect((await run<JobResult>(s, 'renderQueue.render', {})).completed).toBe(1);
      await run(s, 'renderQueue.clear');
      await run(s, 'renderQueue.add', {
        comp,
        output: join(dir, 'b', 'f_[##].png'),
        frameRange: { start: 15, end: 25 },
      });
      const job = await run<JobResult>(s, 'renderQueue.render', {});
      expect(job.completed).toBe(0);
      expect(job.items[0]!.error).toMatchObject({ code: 'no_such_file' });
      expect(job.items[0]!.error!.message).toContain(gone);
      // The run is where the footage says: the remedy is that frame, not a relink of the whole sequence.
      expect(job.items[0]!.error!.remediation).toMatch(
        /^That frame of the image sequence is gone: put it back/,
      );
    },
  );

  itWithFfmpeg(
    'a frame file that is not an image fails the render naming that file, not the first',
    async () => {
      const dir = await tempDir();
      const pattern = await numberedSequence(dir, 30, 1);
      const s = countingSession([]);
      const comp = await sequenceComp(s, pattern);
      const bad = sequenceFrame(pattern, 12);
      await writeFile(bad, 'not a png');
      await run(s, 'renderQueue.add', {
        comp,
        output: join(dir, 'c', 'f_[##].png'),
        frameRange: { start: 5, end: 15 },
      });
      const job = await run<JobResult>(s, 'renderQueue.render', {});
      expect(job.completed).toBe(0);
      expect(job.items[0]!.error!.message).toContain(`Frame "${bad}" of the image sequence`);
      expect(job.items[0]!.error!.message).not.toContain(sequenceFrame(pattern, 1));
    },
  );

  itWithFfmpeg(
    'an empty frame file (0 bytes) fails the render naming that file, with unsupported_format',
    async () => {
      const dir = await tempDir();
      const pattern = await numberedSequence(dir, 30, 1);
      const s = countingSession([]);
      const comp = await sequenceComp(s, pattern);
      // A render or copy that never wrote this frame: sharp refuses an empty buffer at once (not through its
      // promise), and that was reported as "Cannot read <the first frame> (unknown error)", io_error.
      const empty = sequenceFrame(pattern, 12);
      await writeFile(empty, '');
      await run(s, 'renderQueue.add', {
        comp,
        output: join(dir, 'e', 'f_[##].png'),
        frameRange: { start: 5, end: 15 },
      });
      const job = await run<JobResult>(s, 'renderQueue.render', {});
      expect(job.completed).toBe(0);
      expect(job.items[0]!.error).toMatchObject({ code: 'unsupported_format' });
      expect(job.items[0]!.error!.message).toContain(`Frame "${empty}" of the image sequence`);
      expect(job.items[0]!.error!.remediation).toContain(basename(empty));
    },
  );
});
