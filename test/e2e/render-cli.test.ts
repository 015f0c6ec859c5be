import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { copyFile, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cliPath, repoRoot } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';
import sharp from 'sharp';
import { probeVideo } from '../helpers/probe.js';
import { itWithFfmpeg } from '../helpers/ffmpeg.js';
import { newEngine, run } from '../helpers/engine.js';
import { projectWith } from '../helpers/projects.js';
import { hashFiles } from '../helpers/queue.js';
import { streamsOf, tone } from '../helpers/audio.js';
import type { JobResult } from '../../src/render/queue/service.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A 1 s composition "Spot" whose one layer is a 440 Hz tone, in an engine to save as a project in `dir`. */
async function spotWithSound(): Promise<{ dir: string; engine: ReturnType<typeof newEngine> }> {
  const dir = await tempDir();
  const engine = newEngine();
  await run(engine, 'comp.new', { name: 'Spot', width: 32, height: 18, frameRate: 10, duration: 1 });
  const { id: footage } = await run<{ id: string }>(engine, 'file.import', {
    path: await tone(dir, { freq: 440, seconds: 1 }),
  });
  await run(engine, 'layer.addFootage', { comp: 'Spot', footage });
  return { dir, engine };
}

/** Runs the built CLI; `onStderr` may act on the output as it streams (e.g. send SIGINT). */
function cli(
  args: string[],
  cwd: string,
  onStderr?: (text: string, kill: () => void) => void,
  signal: NodeJS.Signals = 'SIGINT',
): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      onStderr?.(stderr, () => child.kill(signal));
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function sampleCopy(): Promise<string> {
  const dir = await tempDir();
  await copyFile(join(repoRoot, 'fixtures/sample/sample.ecproj'), join(dir, 'sample.ecproj'));
  return dir;
}

describe('effectcraft-cli render', () => {
  it('renders the bundled sample next to the project, with plain progress lines when not a terminal', async () => {
    const dir = await sampleCopy();
    const r = await cli(['render', 'sample.ecproj'], dir);
    expect(r.code).toBe(0);
    const names = await readdir(join(dir, 'out'));
    expect(names).toContain('sample.png.manifest.json');
    const files = names.filter((n) => n.endsWith('.png')).sort();
    expect(files).toHaveLength(75);
    expect(files[0]).toBe('sample_000.png');
    expect(r.stdout).toContain(`manifest ${join(dir, 'out', 'sample.png.manifest.json')}`);
    expect(r.stderr).toMatch(/^render: .* 75\/75 frames/m);
    expect(r.stdout).toMatch(/1 done, 0 failed/);
  });

  itWithFfmpeg('renders one comp with --comp/--output (relative to the cwd) as MP4', async () => {
    const dir = await sampleCopy();
    const r = await cli(
      [
        'render',
        'sample.ecproj',
        '--comp',
        'Sample',
        '--output',
        'clip.mp4',
        '--frames',
        '0-14',
        '--scale',
        '0.5',
        '--json',
      ],
      dir,
    );
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as {
      completed: number;
      items: Array<{ sha256: Record<string, string> }>;
    };
    expect(result.completed).toBe(1);
    expect(Object.keys(result.items[0]!.sha256)).toEqual([join(dir, 'clip.mp4')]);
    expect(await probeVideo(join(dir, 'clip.mp4'))).toMatchObject({ frames: 15, width: 320, height: 180 });
    expect((await readdir(dir)).sort()).toEqual(['clip.mp4', 'clip.mp4.manifest.json', 'sample.ecproj']);
  });

  it.each([
    [[]],
    [['a.ecproj', 'b.ecproj']],
    [['sample.ecproj', '--comp', 'Sample']],
    [['sample.ecproj', '--scale', '2']],
    [['sample.ecproj', '--comp', 'Sample', '--output', 'x_[##].png', '--frames', '9-2']],
    [['sample.ecproj', '--bogus']],
    [['sample.ecproj', '--alpha']],
    [['sample.ecproj', '--comp', 'Sample', '--output', 'x_[##].jpg', '--alpha']],
    [['sample.ecproj', '--comp', 'Sample', '--output', 'x.mp4', '--alpha']],
    [['sample.ecproj', '--comp', 'Sample', '--output', 'z.xyz']],
    [['sample.ecproj', '--comp', 'Sample', '--output', 'x_[##].png', '--scale', '5']],
  ])('exits 2 on usage errors: %j', async (args) => {
    const dir = await sampleCopy();
    const r = await cli(['render', ...args], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
    // Messages and remedies name the flags, not the engine's params or commands.
    expect(r.stderr).not.toContain('renderQueue.add');
    if (args.includes('z.xyz')) expect(r.stderr).toMatch(/or pass --format\./);
    if (args.includes('5')) expect(r.stderr).toMatch(/Invalid --scale: .*\n.*Fix --scale to match/);
  });

  it.each([
    ['frameRange', { frameRange: { start: 0, end: 1e9 } }],
    ['frameRange', { frameRange: { start: 5, end: 2 } }],
    ['format', { format: 'mp4' }],
  ])(
    'a project file with a queue item renderQueue.add refuses (%s) exits 1 naming it, never aborting',
    async (field, item) => {
      const dir = await tempDir();
      await writeFile(join(dir, 'bad.ecproj'), projectWith({ output: 'o_[##].png', ...item }));
      const r = await cli(['render', 'bad.ecproj'], dir);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`renderQueue[0].${field}`);
      expect(r.stderr).not.toMatch(/at .*\.js:\d+|heap/i);
      expect(await readdir(dir)).toEqual(['bad.ecproj']);
    },
  );

  it.each([
    ['a folder', 'folder.ecproj'],
    ['missing', 'missing.ecproj'],
  ])(
    'a project that cannot be opened (%s) exits 1 for render and still as for inspect',
    async (_what, name) => {
      const dir = await tempDir();
      await mkdir(join(dir, 'folder.ecproj'));
      const still = ['--comp', 'Main', '--frame', '0', '-o', 'f.png'];
      for (const args of [
        ['render', name],
        ['inspect', name],
        ['still', name, ...still],
      ]) {
        const r = await cli(args, dir);
        const verb = args[0];
        expect(r.code, `${verb}: ${r.stderr}`).toBe(1);
        expect(r.stderr).toContain(name);
      }
    },
  );

  it('--frames N renders that one frame', async () => {
    const dir = await sampleCopy();
    const r = await cli(
      ['render', 'sample.ecproj', '--comp', 'Sample', '--output', 'f_[##].png', '--frames', '7'],
      dir,
    );
    expect(r.code, r.stderr).toBe(0);
    expect((await readdir(dir)).filter((n) => n.endsWith('.png'))).toEqual(['f_07.png']);
  });

  it('--concurrency above the cores renders, with a warning that says what it costs', async () => {
    const dir = await sampleCopy();
    const r = await cli(
      [
        'render',
        'sample.ecproj',
        '--comp',
        'Sample',
        '--output',
        'f_[##].png',
        '--frames',
        '0',
        '--concurrency',
        '256',
      ],
      dir,
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/--concurrency 256 is more workers than this machine's \d+ cores/);
    const ok = await cli(
      [
        'render',
        'sample.ecproj',
        '--comp',
        'Sample',
        '--output',
        'g_[##].png',
        '--frames',
        '0',
        '--concurrency',
        '1',
      ],
      dir,
    );
    expect(ok.stderr).not.toContain('more workers');
  });

  it('exits 1 when an item fails', async () => {
    const dir = await sampleCopy();
    await writeFile(join(dir, 'blocker'), 'a file where a folder should be');
    const r = await cli(
      ['render', 'sample.ecproj', '--comp', 'Sample', '--output', 'blocker/f_[##].png', '--frames', '0-1'],
      dir,
    );
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/0 done, 1 failed/);
    // The failed item's line, then what to do about it (as --json's remediation), indented below it.
    // Its message ends in its code, as on stderr (until 2026-12-08 only stderr had it).
    expect(r.stdout).toMatch(/ failed .*: .+ \[[a-z_]+\]\n {2}\S.+\n/);
    // And on stderr, the diagnostics stream, with its remedy.
    expect(r.stderr).toMatch(/effectcraft-cli render: \S+ failed: .+ \[[a-z_]+\]\n {2}\S.+\n/);
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)(
    '%s stops the render, exits %i and removes exactly the unfinished files',
    async (signal, code) => {
      const dir = await sampleCopy();
      await writeFile(join(dir, 'f_003.png'), 'existing frame');
      let sent = false;
      let renderedBeforeStop: string[] = [];
      const r = await cli(
        [
          'render',
          'sample.ecproj',
          '--comp',
          'Sample',
          '--output',
          'f_[###].png',
          '--scale',
          '3',
          '--skip-existing',
        ],
        dir,
        (_text, kill) => {
          if (sent) return;
          sent = true;
          // Interrupt once the render has written frames of its own (not just started).
          const poll = setInterval(() => {
            void readdir(dir).then((names) => {
              const own = names.filter((n) => /^f_\d+\.png$/.test(n) && n !== 'f_003.png');
              if (own.length < 3) return;
              clearInterval(poll);
              renderedBeforeStop = own;
              kill();
            });
          }, 20);
        },
        signal,
      );
      expect(renderedBeforeStop.length).toBeGreaterThanOrEqual(3);
      expect(r.code).toBe(code);
      expect((await readdir(dir)).sort()).toEqual(['f_003.png', 'sample.ecproj']);
    },
  );

  it('a SIGTERM once every frame is written exits as the files on disk say: 0 with them kept, or 143 with them gone', async () => {
    const dir = await sampleCopy();
    let sent = false;
    const r = await cli(
      ['render', 'sample.ecproj', '--comp', 'Sample', '--output', 'f_[###].png', '--frames', '0-9'],
      dir,
      (text, kill) => {
        // The last progress line: 10 of 10 frames written.
        if (sent || !/10\/10 frames/.test(text)) return;
        sent = true;
        kill();
      },
      'SIGTERM',
    );
    expect(sent).toBe(true);
    const frames = (await readdir(dir)).filter((n) => /^f_\d+\.png$/.test(n));
    if (r.code === 0) {
      expect(frames).toHaveLength(10);
      expect(r.stdout).toMatch(/1 done, 0 failed, 0 stopped/);
    } else {
      expect(r.code).toBe(143);
      expect(frames).toEqual([]);
    }
  });

  it('SIGINT during a re-render puts back every frame of the earlier run it replaced, byte for byte', async () => {
    const dir = await sampleCopy();
    const args = ['render', 'sample.ecproj', '--comp', 'Sample', '--output', 'f_[###].png'];
    expect((await cli([...args, '--frames', '0-29'], dir)).code).toBe(0);
    const before = await hashFiles(dir);
    const inodes = async () =>
      new Map(
        await Promise.all(Object.keys(before).map(async (n) => [n, (await stat(join(dir, n))).ino] as const)),
      );
    const first = await inodes();
    // The same frames at another scale: every replaced frame has other bytes.
    let replaced = 0;
    let sent = false;
    const r = await cli([...args, '--frames', '0-29', '--scale', '3'], dir, (_text, kill) => {
      if (sent) return;
      sent = true;
      const poll = setInterval(() => {
        void inodes().then(
          (now) => {
            replaced = [...now].filter(([n, ino]) => first.get(n) !== ino).length;
            if (replaced < 3) return;
            clearInterval(poll);
            kill();
          },
          () => undefined,
        );
      }, 20);
    });
    expect(replaced).toBeGreaterThanOrEqual(3);
    expect(r.code).toBe(130);
    expect(await hashFiles(dir)).toEqual(before);
  });

  it('--resume: SIGINT keeps the complete frames, and the next --resume run renders only the rest', async () => {
    const dir = await sampleCopy();
    const args = ['render', 'sample.ecproj', '--comp', 'Sample', '--output', 'f_[###].png'];
    const more = ['--frames', '0-29', '--scale', '2', '--resume'];
    const frames = (names: string[]) => names.filter((n) => n.startsWith('f_'));
    let sent = false;
    const r = await cli([...args, ...more], dir, (_text, kill) => {
      if (sent) return;
      sent = true;
      const poll = setInterval(() => {
        void readdir(dir).then((names) => {
          if (frames(names).filter((n) => n.endsWith('.png')).length < 3) return;
          clearInterval(poll);
          kill();
        });
      }, 20);
    });
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/keeping the frames of sequences written/);
    const kept = await hashFiles(dir);
    const keptFrames = frames(Object.keys(kept));
    // The summary says what stays: those frames and their files, not "0 frames, no files".
    expect(r.stdout).toMatch(
      new RegExp(
        `stopped {2}${keptFrames.length} frames {2}\\S+ \\.\\. \\S+ \\(${keptFrames.length} files\\)`,
      ),
    );
    // Complete frames only, under their final names: no temporary (.part) and no earlier-file copy (.prev).
    expect(keptFrames.length).toBeGreaterThanOrEqual(3);
    expect(keptFrames.length).toBeLessThan(30);
    expect(keptFrames.every((n) => /^f_\d{3}\.png$/.test(n))).toBe(true);
    expect(Object.keys(kept).length).toBe(keptFrames.length + 1);

    const again = await cli([...args, ...more, '--json'], dir);
    expect(again.code).toBe(0);
    const result = JSON.parse(again.stdout) as JobResult;
    expect(result.items[0]).toMatchObject({
      status: 'done',
      skipped_frames: keptFrames.length,
      frames: 30 - keptFrames.length,
    });
    const all = await hashFiles(dir);
    expect(frames(Object.keys(all))).toHaveLength(30);
    for (const n of keptFrames) expect(all[n]).toBe(kept[n]);
    expect((await cli(['render', '--help'], dir)).stdout).toMatch(/--resume +resumable render/);
  });

  itWithFfmpeg('SIGTERM during a webm render exits 143 and leaves no .part temporary', async () => {
    const dir = await sampleCopy();
    let sent = false;
    let partSeen = false;
    const r = await cli(
      ['render', 'sample.ecproj', '--comp', 'Sample', '--output', 'clip.webm', '--scale', '2'],
      dir,
      (_text, kill) => {
        if (sent) return;
        sent = true;
        // Terminate once ffmpeg's temporary exists (the encoder is running).
        const poll = setInterval(() => {
          void readdir(dir).then((names) => {
            if (!names.some((n) => n.endsWith('.part'))) return;
            clearInterval(poll);
            partSeen = true;
            kill();
          });
        }, 20);
      },
      'SIGTERM',
    );
    expect(partSeen).toBe(true);
    expect(r.code).toBe(143);
    expect(await readdir(dir)).toEqual(['sample.ecproj']);
  });

  it('--alpha renders RGB + Alpha: straight alpha PNGs, transparent where nothing is drawn', async () => {
    const dir = await tempDir();
    // A 40x20 comp on an opaque background with a centred 20x20 red solid at 50% opacity.
    const engine = newEngine();
    await run(engine, 'comp.new', {
      name: 'Overlay',
      width: 40,
      height: 20,
      frameRate: 10,
      duration: 1,
      backgroundColor: '#00ff00',
    });
    const { id } = await run<{ id: string }>(engine, 'layer.addSolid', {
      color: '#ff0000',
      width: 20,
      height: 20,
    });
    await run(engine, 'property.set', { layer: id, property: 'transform.opacity', value: 50 });
    await run(engine, 'project.save', { path: join(dir, 'o.ecproj') });
    const args = ['render', 'o.ecproj', '--comp', 'Overlay', '--frames', '0-1', '--json'];
    const r = await cli([...args, '--output', 'a_[#].png', '--alpha'], dir);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as { completed: number; items: Array<{ alpha: boolean }> };
    expect(result.items[0]!.alpha).toBe(true);
    const { data, info } = await sharp(join(dir, 'a_1.png')).raw().toBuffer({ resolveWithObject: true });
    expect(info.channels).toBe(4);
    const px = (x: number, y: number) => [...data.subarray((y * 40 + x) * 4, (y * 40 + x) * 4 + 4)];
    expect(px(20, 10)).toEqual([255, 0, 0, 128]);
    expect(px(2, 10)[3]).toBe(0);
    // Without --alpha the same comp is flattened onto its background.
    const flat = await cli([...args, '--output', 'b_[#].png'], dir);
    expect(flat.code).toBe(0);
    expect((JSON.parse(flat.stdout) as { items: Array<{ alpha: boolean }> }).items[0]!.alpha).toBe(false);
    const b = await sharp(join(dir, 'b_1.png')).ensureAlpha().raw().toBuffer();
    expect([...b.subarray((10 * 40 + 2) * 4, (10 * 40 + 2) * 4 + 4)]).toEqual([0, 255, 0, 255]);
    expect((await readdir(dir)).sort()).toEqual([
      'a.png.manifest.json',
      'a_0.png',
      'a_1.png',
      'b.png.manifest.json',
      'b_0.png',
      'b_1.png',
      'o.ecproj',
    ]);
  });

  itWithFfmpeg(
    '--output-dir re-roots the outputs saved inside the project folder, and says which it cannot',
    async () => {
      const { dir, engine } = await spotWithSound();
      const elsewhere = await tempDir();
      await run(engine, 'renderQueue.add', { comp: 'Spot', output: join(dir, 'mix', 'near.wav') });
      const far = await run<{ id: string }>(engine, 'renderQueue.add', {
        comp: 'Spot',
        output: join(elsewhere, 'far.wav'),
      });
      await run(engine, 'project.save', { path: join(dir, 's.ecproj') });
      const renders = await tempDir();
      const r = await cli(['render', 's.ecproj', '--output-dir', renders], dir);
      expect(r.code).toBe(0);
      // Saved as mix/near.wav beside the project: under --output-dir now, not beside the project.
      expect(await readdir(join(renders, 'mix'))).toContain('near.wav');
      expect(await readdir(dir)).not.toContain('mix');
      // Saved absolute (outside the folder): written where it says, and the log says why.
      expect(await readdir(elsewhere)).toContain('far.wav');
      expect(r.stderr).toContain(`item ${far.id} writes to ${join(elsewhere, 'far.wav')}`);
      expect(r.stderr.match(/--output-dir applies to relative outputs only/g)).toHaveLength(1);
      // An absolute --output given on the command line is its own choice: nothing to explain.
      const chosen = await cli(
        [
          'render',
          's.ecproj',
          '--item',
          far.id,
          '--output',
          join(elsewhere, 'x.wav'),
          '--output-dir',
          renders,
        ],
        dir,
      );
      expect(chosen.code, chosen.stderr).toBe(0);
      expect(await readdir(elsewhere)).toContain('x.wav');
      expect(chosen.stderr).not.toMatch(/relative outputs only/);
    },
  );

  itWithFfmpeg(
    'muxes the composition sound into MP4; --no-audio leaves it out (and is in --help)',
    async () => {
      const { dir, engine } = await spotWithSound();
      await run(engine, 'project.save', { path: join(dir, 's.ecproj') });
      const args = ['render', 's.ecproj', '--comp', 'Spot', '--output'];
      expect((await cli([...args, 'with.mp4'], dir)).code).toBe(0);
      const kinds = async (name: string) =>
        (await streamsOf(join(dir, name))).map((x) => x.codec_type).sort();
      expect(await kinds('with.mp4')).toEqual(['audio', 'video']);
      expect((await cli([...args, 'without.mp4', '--no-audio'], dir)).code).toBe(0);
      expect(await kinds('without.mp4')).toEqual(['video']);
      const wav = await cli([...args, 'sound.wav'], dir);
      expect(wav.code).toBe(0);
      expect(await kinds('sound.wav')).toEqual(['audio']);
      // The progress (not a terminal: plain lines) reaches the sound's span once it is written.
      expect(wav.stderr).toMatch(/render: \S+ \(1\/1\) 10\/10 frames {2}done in \d+s\n/);
      // Its end is "done in", not a rate measured from nothing ("0.0 fps -- left").
      expect(wav.stderr).not.toMatch(/10\/10 frames .*-- left/);
      expect((await cli(['render', '--help'], dir)).stdout).toMatch(
        /--no-audio +leave the composition's sound out/,
      );
    },
  );

  itWithFfmpeg(
    '--audio-codec aac puts AAC beside ProRes in a MOV, --audio-bitrate sets its rate; a bitrate for PCM is refused with the remedy',
    async () => {
      const { dir, engine } = await spotWithSound();
      await run(engine, 'project.save', { path: join(dir, 's.ecproj') });
      const args = ['render', 's.ecproj', '--comp', 'Spot', '--output'];
      const sound = async (name: string) =>
        (await streamsOf(join(dir, name))).find((x) => x.codec_type === 'audio')?.codec_name;
      expect((await cli([...args, 'pcm.mov'], dir)).code).toBe(0);
      expect(await sound('pcm.mov')).toBe('pcm_s24le');
      expect(
        (await cli([...args, 'aac.mov', '--audio-codec', 'aac', '--audio-bitrate', '128'], dir)).code,
      ).toBe(0);
      expect(await sound('aac.mov')).toBe('aac');
      const refused = await cli([...args, 'x.mov', '--audio-bitrate', '128'], dir);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('A sound bitrate does not apply to PCM');
      expect(refused.stderr).toContain('Leave out --audio-bitrate, or pick --audio-codec aac.');
      expect(await readdir(dir)).not.toContain('x.mov');
    },
  );

  itWithFfmpeg(
    '--audio-bit-depth sets the PCM of a WAV or MOV; for AAC, or not 16, 24 or 32, it is refused',
    async () => {
      const { dir, engine } = await spotWithSound();
      await run(engine, 'project.save', { path: join(dir, 's.ecproj') });
      const args = ['render', 's.ecproj', '--comp', 'Spot', '--output'];
      const sound = async (name: string) =>
        (await streamsOf(join(dir, name))).find((x) => x.codec_type === 'audio')?.codec_name;
      expect((await cli([...args, 'a.wav', '--audio-bit-depth', '24'], dir)).code).toBe(0);
      expect(await sound('a.wav')).toBe('pcm_s24le');
      expect((await cli([...args, 'f.mov', '--audio-bit-depth', '32'], dir)).code).toBe(0);
      expect(await sound('f.mov')).toBe('pcm_f32le');
      const aac = await cli([...args, 'x.mov', '--audio-codec', 'aac', '--audio-bit-depth', '24'], dir);
      expect(aac.code).toBe(2);
      expect(aac.stderr).toContain('Leave out --audio-bit-depth, or pick --audio-codec pcm.');
      const odd = await cli([...args, 'y.wav', '--audio-bit-depth', '20'], dir);
      expect(odd.code).toBe(2);
      expect(odd.stderr).toContain('--audio-bit-depth must be one of 16, 24, 32');
      expect(await readdir(dir)).not.toContain('x.mov');
    },
  );

  itWithFfmpeg(
    "--no-audio applies to the project's queue items; one that is the sound alone is refused first",
    async () => {
      const { dir, engine } = await spotWithSound();
      const { id: video } = await run<{ id: string }>(engine, 'renderQueue.add', {
        comp: 'Spot',
        output: join(dir, 'out', 'spot.mp4'),
      });
      const { id: sound } = await run<{ id: string }>(engine, 'renderQueue.add', {
        comp: 'Spot',
        output: join(dir, 'out', 'spot.wav'),
      });
      await run(engine, 'project.save', { path: join(dir, 's.ecproj') });
      // The whole queue: the WAV item cannot leave its sound out, so nothing renders.
      const refused = await cli(['render', 's.ecproj', '--no-audio'], dir);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`Item "${sound}"`);
      await expect(readdir(join(dir, 'out'))).rejects.toThrow();
      // The video item alone renders without its sound; the project file keeps the item as it was.
      expect((await cli(['render', 's.ecproj', '--item', video, '--no-audio'], dir)).code).toBe(0);
      expect((await streamsOf(join(dir, 'out', 'spot.mp4'))).map((x) => x.codec_type)).toEqual(['video']);
      expect((await cli(['render', 's.ecproj', '--item', video], dir)).code).toBe(0);
      expect((await streamsOf(join(dir, 'out', 'spot.mp4'))).map((x) => x.codec_type).sort()).toEqual([
        'audio',
        'video',
      ]);
    },
  );
});
