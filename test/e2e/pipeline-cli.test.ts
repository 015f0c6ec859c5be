import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { newEngine, run } from '../helpers/engine.js';
import { itWithFfmpeg } from '../helpers/ffmpeg.js';
import { frameOf, numberedClip, numberedSequence } from '../helpers/media.js';
import { probeVideo } from '../helpers/probe.js';
import { projectWith } from '../helpers/projects.js';
import { runCli } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';

async function sampleCopy(): Promise<string> {
  const dir = await tempDir();
  await copyFile(join(repoRoot, 'fixtures/sample/sample.ecproj'), join(dir, 'sample.ecproj'));
  return dir;
}

/** A 10-frame 32x18 project whose one item (rq_2) renders out/o_[##].png beside it. */
async function smallProject(item: Record<string, unknown> = {}): Promise<string> {
  const dir = await tempDir();
  await writeFile(join(dir, 'p.ecproj'), projectWith(item));
  return dir;
}

/** The lowest and highest alpha of RGBA pixels. */
function alphaRange(rgba: Buffer): [number, number] {
  let [lo, hi] = [255, 0];
  for (let i = 3; i < rgba.length; i += 4) [lo, hi] = [Math.min(lo, rgba[i]!), Math.max(hi, rgba[i]!)];
  return [lo, hi];
}

describe('effectcraft-cli inspect', () => {
  it('lists compositions with their layers, and queue items, for people and as JSON', async () => {
    const dir = await sampleCopy();
    const text = await runCli(['inspect', 'sample.ecproj'], { cwd: dir });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(
      /comp_1 {2}"Sample" {2}640x360 {2}30 fps {2}2\.5 s \(75 frames\) {2}6 layers/,
    );
    expect(text.stdout).toMatch(/layer_8 {2}text +Title/);
    expect(text.stdout).toContain(`rq_10  "Sample"  png  frames 0-74  ${join(dir, 'out/sample_[###].png')}`);
    const json = await runCli(['inspect', 'sample.ecproj', '--json'], { cwd: dir });
    const r = JSON.parse(json.stdout) as {
      compositions: {
        id: string;
        width: number;
        frameRate: number;
        layers: { name: string; kind: string }[];
      }[];
      footage: unknown[];
      renderQueue: { id: string; comp: { name: string }; format: string; frames: object; output: string }[];
    };
    expect(r.compositions[0]).toMatchObject({ id: 'comp_1', width: 640, frameRate: 30 });
    expect(r.compositions[0]!.layers.map((l) => l.kind)).toEqual([
      'text',
      'text',
      'shape',
      'shape',
      'shape',
      'shape',
    ]);
    expect(r.footage).toEqual([]);
    expect(r.renderQueue[0]).toMatchObject({
      id: 'rq_10',
      comp: { name: 'Sample' },
      format: 'png',
      frames: { start: 0, end: 74 },
    });
  });

  it('says which video items leave the sound out (audio: false), and only those', async () => {
    // Until 2026-12-07 an MP4 item stored with audio: false (render --no-audio's, renderQueue.update's) was
    // listed exactly as one with sound: a pre-flight check could not tell that a deliverable would be silent.
    const dir = await smallProject({ output: 'out/o.mp4', format: 'mp4', audio: false });
    const text = await runCli(['inspect', 'p.ecproj'], { cwd: dir });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`rq_2  "Main"  mp4  frames 0-9  ${join(dir, 'out/o.mp4')}  no sound\n`);
    const json = JSON.parse((await runCli(['inspect', 'p.ecproj', '--json'], { cwd: dir })).stdout) as {
      renderQueue: { audio?: boolean }[];
    };
    expect(json.renderQueue[0]!.audio).toBe(false);
    // With sound (the default), and a format that has none either way: nothing is said.
    for (const item of [{ output: 'out/o.mp4', format: 'mp4' }, { audio: false }]) {
      const other = await smallProject(item);
      const t = await runCli(['inspect', 'p.ecproj'], { cwd: other });
      expect(t.stdout).not.toContain('no sound');
      const j = JSON.parse((await runCli(['inspect', 'p.ecproj', '--json'], { cwd: other })).stdout) as {
        renderQueue: object[];
      };
      expect(j.renderQueue[0]).not.toHaveProperty('audio');
    }
  });

  it('lists footage with its kind and size, and the frame rate and duration of video', async () => {
    const dir = await tempDir();
    const project = JSON.parse(projectWith({})) as { items: object[] };
    const media = {
      kind: 'video',
      duration: 4,
      frameRate: 25,
      frameCount: 100,
      variableFrameRate: false,
      pixelAspect: 1,
      alpha: false,
      rotation: 0,
      codec: 'h264',
      sequence: null,
      audio: null,
    };
    project.items.push(
      {
        type: 'footage',
        id: 'footage_7',
        name: 'clip',
        path: 'clip.mp4',
        width: 320,
        height: 240,
        format: 'mov',
        media,
      },
      {
        type: 'footage',
        id: 'footage_8',
        name: 'logo',
        path: '/abs/logo.png',
        width: 64,
        height: 32,
        format: 'png',
      },
    );
    await writeFile(join(dir, 'p.ecproj'), JSON.stringify(project));
    // The clip is there (its bytes do not matter to inspect); the logo is not, and is marked missing.
    await writeFile(join(dir, 'clip.mp4'), 'stand-in');
    const r = await runCli(['inspect', 'p.ecproj', '--json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { footage: unknown[] }).footage).toEqual([
      {
        id: 'footage_7',
        name: 'clip',
        path: join(dir, 'clip.mp4'),
        kind: 'video',
        width: 320,
        height: 240,
        frameRate: 25,
        duration: 4,
      },
      {
        id: 'footage_8',
        name: 'logo',
        path: '/abs/logo.png',
        kind: 'still',
        width: 64,
        height: 32,
        missing: true,
      },
    ]);
    const text = await runCli(['inspect', 'p.ecproj'], { cwd: dir });
    expect(text.stdout).toContain(
      `footage_7  "clip"  video  320x240  25 fps  4 s  ${join(dir, 'clip.mp4')}\n`,
    );
    expect(text.stdout).toContain(
      `footage_8  "logo"  still  64x32  /abs/logo.png  (missing: no file at that path)`,
    );
  });

  it('lists a variable NTSC rate, the sound of video and audio (and how many streams), and a sequence by its pattern', async () => {
    const dir = await tempDir();
    const project = JSON.parse(projectWith({})) as { items: object[] };
    const still = { pixelAspect: 1, alpha: false, rotation: 0, sequence: null };
    const sound = (codec: string, sampleRate: number, channels: number, duration: number) => ({
      codec,
      sampleRate,
      channels,
      duration,
    });
    const footage = (id: string, name: string, path: string, w: number, h: number, media: object) => ({
      type: 'footage',
      id,
      name,
      path,
      width: w,
      height: h,
      format: 'x',
      media: { ...still, ...media },
    });
    project.items.push(
      footage('footage_7', 'phone', '/abs/phone.mp4', 1080, 1920, {
        kind: 'video',
        duration: 10.01,
        frameRate: 30000 / 1001,
        frameCount: 300,
        variableFrameRate: true,
        codec: 'h264',
        audio: sound('aac', 48000, 2, 10.01),
        // A second language: the layer plays the first unless told.
        audioStreams: [sound('aac', 48000, 2, 10.01), sound('ac3', 48000, 6, 10.01)],
      }),
      footage('footage_8', 'music', '/abs/music.mp3', 1, 1, {
        kind: 'audio',
        duration: 3.5,
        frameRate: null,
        frameCount: null,
        variableFrameRate: false,
        codec: null,
        audio: sound('mp3', 44100, 1, 3.5),
      }),
      footage('footage_9', 'f_0001', '/abs/seq/f_0001.png', 64, 48, {
        kind: 'sequence',
        duration: 1,
        frameRate: 24,
        frameCount: 24,
        variableFrameRate: false,
        codec: null,
        sequence: { pattern: '/abs/seq/f_%04d.png', first: 1, last: 24 },
        audio: null,
      }),
    );
    await writeFile(join(dir, 'p.ecproj'), JSON.stringify(project));
    const text = (await runCli(['inspect', 'p.ecproj'], { cwd: dir })).stdout;
    expect(text).toContain(
      `footage_7  "phone"  video  1080x1920  29.97 fps (variable)  10.01 s  sound aac 48 kHz stereo (1 of 2 audio streams)  /abs/phone.mp4`,
    );
    expect(text).toContain(`footage_8  "music"  audio  3.5 s  sound mp3 44.1 kHz mono  /abs/music.mp3`);
    expect(text).toContain(`footage_9  "f_0001"  sequence  64x48  24 fps  1 s  /abs/seq/f_%04d.png`);
    const json = JSON.parse((await runCli(['inspect', 'p.ecproj', '--json'], { cwd: dir })).stdout) as {
      footage: object[];
    };
    expect(json.footage[0]).toMatchObject({
      variableFrameRate: true,
      audio: { codec: 'aac', channels: 2 },
      audioStreams: 2,
    });
    expect(json.footage[1]).not.toHaveProperty('audioStreams');
    expect(json.footage[2]).toMatchObject({ pattern: '/abs/seq/f_%04d.png' });
  });

  itWithFfmpeg(
    'checks every frame of an image sequence: frames gone from the middle are listed',
    async () => {
      const dir = await tempDir();
      const pattern = await numberedSequence(dir, 12, 3);
      const engine = newEngine();
      await run(engine, 'file.import', { path: pattern, frameRate: 12 });
      await run(engine, 'project.save', { path: join(dir, 's.ecproj') });
      // Frames 5 and 9 (of 3-14) go; the first file is still there.
      for (const n of [5, 9]) await rm(join(dir, 'seq', `f_${String(n).padStart(4, '0')}.png`));
      const r = await runCli(['inspect', 's.ecproj', '--json'], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      const [seq] = (JSON.parse(r.stdout) as { footage: Array<Record<string, unknown>> }).footage;
      expect(seq).toMatchObject({
        kind: 'sequence',
        firstFrame: 3,
        lastFrame: 14,
        missingFrames: { count: 2, first: [5, 9] },
      });
      expect(seq).not.toHaveProperty('missing');
      const text = await runCli(['inspect', 's.ecproj'], { cwd: dir });
      expect(text.stdout).toContain(`${pattern} (frames 3-14)  (missing 2 frames: 5, 9)`);
      // --strict: the same listing, and exit 3 for a pipeline's gate.
      const strict = await runCli(['inspect', 's.ecproj', '--strict'], { cwd: dir });
      expect(strict.code).toBe(3);
      expect(strict.stdout).toBe(text.stdout);
      // Naming the frames that are gone, not the sequence's first file (which is there).
      expect(strict.stderr).toContain(
        `footage missing: ${join(dir, 'seq', 'f_0005.png')}, ${join(dir, 'seq', 'f_0009.png')}\n`,
      );
      // The first file gone too: still frames missing (the others are there), not the whole sequence.
      await rm(join(dir, 'seq', 'f_0003.png'));
      const first = await runCli(['inspect', 's.ecproj', '--json'], { cwd: dir });
      const [gone] = (JSON.parse(first.stdout) as { footage: Array<Record<string, unknown>> }).footage;
      expect(gone).toMatchObject({ missingFrames: { count: 3, first: [3, 5, 9] } });
      expect(gone).not.toHaveProperty('missing');
    },
  );

  itWithFfmpeg(
    '--strict also fails footage a render would refuse: changed since import, not media, a folder; and names each',
    async () => {
      const dir = await tempDir();
      const clip = join(dir, 'clip.mp4');
      await copyFile(await numberedClip(dir, 'h264', '24', 12), clip);
      const pattern = await numberedSequence(dir, 3);
      await writeFile(
        join(dir, 'still.png'),
        await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
          .png()
          .toBuffer(),
      );
      const engine = newEngine();
      await run(engine, 'file.import', { path: clip, name: 'Clip' });
      await run(engine, 'file.import', { path: pattern, frameRate: 12, name: 'Seq' });
      await run(engine, 'file.import', { path: join(dir, 'still.png'), name: 'Still' });
      await run(engine, 'project.save', { path: join(dir, 'g.ecproj') });
      const clean = await runCli(['inspect', 'g.ecproj', '--strict'], { cwd: dir });
      expect(clean.code, clean.stderr).toBe(0);
      // Without ffprobe the clip cannot be checked: the gate does not pass it unchecked.
      const bin = join(dir, 'bin');
      await mkdir(bin);
      await symlink(process.execPath, join(bin, 'node'));
      const blind = await runCli(['inspect', 'g.ecproj', '--strict'], { cwd: dir, env: { PATH: bin } });
      expect(blind.code).toBe(3);
      expect(blind.stderr).toContain('could not be checked: ffprobe (part of ffmpeg) was not found on PATH');
      // The clip re-exported at another rate, a frame in the middle of the sequence at another size, the still
      // made a folder.
      await copyFile(await numberedClip(dir, 'h264', '12', 6), clip);
      await sharp({ create: { width: 32, height: 24, channels: 3, background: '#0f0' } })
        .png()
        .toFile(join(dir, 'seq', 'f_0002.png'));
      await rm(join(dir, 'still.png'));
      await mkdir(join(dir, 'still.png'));
      const r = await runCli(['inspect', 'g.ecproj', '--strict', '--json'], { cwd: dir });
      expect(r.code).toBe(3);
      const listed = (
        JSON.parse(r.stdout) as { footage: Array<{ name: string; problem?: { code: string } }> }
      ).footage;
      expect(Object.fromEntries(listed.map((f) => [f.name, f.problem?.code]))).toEqual({
        Clip: 'unsupported_format',
        Seq: 'unsupported_format',
        Still: 'bad_argument',
      });
      expect(r.stderr).toContain('has changed since it was imported: it was 64x48, 24 fps');
      expect(r.stderr).toMatch(
        /f_0002\.png" of the image sequence "Seq" \(\w+\) is 32x24, but the sequence is 64x48/,
      );
      expect(r.stderr).toContain('still.png" is a folder, not a file');
      // Without --strict, inspect lists without opening the files.
      const plain = await runCli(['inspect', 'g.ecproj'], { cwd: dir });
      expect(plain.code).toBe(0);
    },
  );

  itWithFfmpeg(
    'a remedy naming footage.relink says how to relink at the command line (render, still, inspect)',
    async () => {
      const dir = await tempDir();
      const clip = join(dir, 'clip.mp4');
      await copyFile(await numberedClip(dir, 'h264', '24', 12), clip);
      const engine = newEngine();
      const { id: comp } = await run<{ id: string }>(engine, 'comp.new', {
        name: 'Main',
        width: 64,
        height: 48,
        frameRate: 24,
        duration: 0.5,
      });
      const { id: footage } = await run<{ id: string }>(engine, 'file.import', { path: clip });
      await run(engine, 'layer.addFootage', { comp, footage });
      await run(engine, 'renderQueue.add', { comp, output: join(dir, 'out.mp4') });
      await run(engine, 'project.save', { path: join(dir, 'p.ecproj') });
      // Re-exported at another rate: the footage must be probed again, which only footage.relink does, and the
      // CLI runs no commands. Until 2026-12-07 its remedies named footage.relink alone.
      await copyFile(await numberedClip(dir, 'h264', '12', 6), clip);
      const studio = 'effectcraft-cli app --project PROJECT';
      const render = await runCli(['render', 'p.ecproj', '--json'], { cwd: dir });
      expect(render.code).toBe(1);
      expect(render.stderr).toContain('footage.relink');
      expect(render.stderr).toContain(`At the command line: relink it in the studio (${studio}`);
      const [item] = (JSON.parse(render.stdout) as { items: Array<{ error: { remediation: string } }> })
        .items;
      expect(item!.error.remediation).toContain(studio);
      const still = await runCli(['still', 'p.ecproj', '--frame', '0', '-o', join(dir, 's.png')], {
        cwd: dir,
      });
      expect(still.code).toBe(1);
      expect(still.stderr).toContain(studio);
      const inspect = await runCli(['inspect', 'p.ecproj', '--strict', '--json'], { cwd: dir });
      expect(inspect.code).toBe(3);
      const [listed] = (
        JSON.parse(inspect.stdout) as { footage: Array<{ problem: { remediation: string } }> }
      ).footage;
      expect(listed!.problem.remediation).toContain(studio);
      // Said once, however many times the remedy passes through the CLI's words.
      expect(inspect.stderr.split(studio).length).toBe(2);
    },
  );

  itWithFfmpeg(
    "--strict checks queued items' template values: a missing file, a file that is no media, a still for a music bed",
    async () => {
      const dir = await tempDir();
      const clip = await numberedClip(dir, 'h264', '24', 12);
      const music = join(dir, 'music.wav');
      execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=d=1', music]);
      await writeFile(join(dir, 'notes.txt'), 'not media');
      const still = join(dir, 'logo.png');
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#f00' } })
        .png()
        .toFile(still);
      const engine = newEngine();
      await run(engine, 'comp.new', { name: 'T', width: 64, height: 48, frameRate: 24, duration: 0.5 });
      await run(engine, 'file.import', { path: clip, name: 'Clip' });
      await run(engine, 'layer.addFootage', { footage: 'Clip', name: 'Clip' });
      await run(engine, 'file.import', { path: music, name: 'Music' });
      await run(engine, 'layer.addFootage', { footage: 'Music', name: 'Bed' });
      await run(engine, 'input.define', {
        name: 'clip',
        type: 'footage',
        bind: [{ layer: 'Clip', property: 'source' }],
      });
      await run(engine, 'input.define', {
        name: 'bed',
        type: 'footage',
        bind: [{ layer: 'Bed', property: 'source' }],
      });
      const add = (name: string, props: Record<string, string>) =>
        run(engine, 'renderQueue.add', { comp: 'T', output: join(dir, `${name}.mp4`), props });
      await add('good', { clip, bed: music });
      await run(engine, 'project.save', { path: join(dir, 'ok.ecproj') });
      expect((await runCli(['inspect', 'ok.ecproj', '--strict'], { cwd: dir })).code).toBe(0);
      await add('gone', { clip: join(dir, 'gone.mp4') });
      await add('text', { clip: join(dir, 'notes.txt') });
      await add('still', { bed: still });
      await run(engine, 'project.save', { path: join(dir, 'p.ecproj') });
      const r = await runCli(['inspect', 'p.ecproj', '--strict', '--json'], { cwd: dir });
      expect(r.code).toBe(3);
      const items = (
        JSON.parse(r.stdout) as { renderQueue: { output: string; problem?: { code: string } }[] }
      ).renderQueue;
      expect(items.map((q) => q.problem?.code)).toEqual([
        undefined,
        'no_such_file',
        'unsupported_format',
        'bad_argument',
      ]);
      expect(r.stderr).toMatch(/item \w+: .*which has no sound, for layer "Bed"/);
    },
  );

  itWithFfmpeg(
    "--strict fails a queued item whose music has fewer audio streams than the template's layer plays",
    async () => {
      // Until 2026-12-07 the gate passed it (exit 0) and every render of the item then failed at its sound.
      const dir = await tempDir();
      const two = join(dir, 'two.m4a');
      execFileSync('ffmpeg', [
        ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=f=200:d=1'],
        ...['-f', 'lavfi', '-i', 'sine=f=800:d=1', '-map', '0', '-map', '1', two],
      ]);
      const one = join(dir, 'one.wav');
      execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=d=1', one]);
      const engine = newEngine();
      await run(engine, 'comp.new', { name: 'T', width: 32, height: 16, frameRate: 10, duration: 0.5 });
      await run(engine, 'file.import', { path: two, name: 'Music' });
      await run(engine, 'layer.addFootage', { footage: 'Music', name: 'Bed' });
      await run(engine, 'layer.setAudioStream', { layer: 'Bed', stream: 1 });
      await run(engine, 'input.define', {
        name: 'music',
        type: 'footage',
        bind: [{ layer: 'Bed', property: 'source' }],
      });
      await run(engine, 'renderQueue.add', {
        comp: 'T',
        output: join(dir, 'out.wav'),
        props: { music: one },
      });
      // A picture-only output mixes no sound: its stream does not matter.
      await run(engine, 'renderQueue.add', {
        comp: 'T',
        output: join(dir, 'frame_[#].png'),
        frameRange: { start: 0, end: 0 },
        props: { music: one },
      });
      await run(engine, 'project.save', { path: join(dir, 'p.ecproj') });
      const r = await runCli(['inspect', 'p.ecproj', '--strict', '--json'], { cwd: dir });
      expect(r.code).toBe(3);
      const items = (JSON.parse(r.stdout) as { renderQueue: { problem?: { code: string } }[] }).renderQueue;
      expect(items.map((q) => q.problem?.code)).toEqual(['bad_argument', undefined]);
      expect(r.stderr).toMatch(
        /item \w+: Input "music" .* 1 audio stream, for layer "Bed", which plays stream 1/,
      );
      // The render refuses it as the gate did, before any sound is mixed; the picture-only item renders.
      const render = await runCli(['render', 'p.ecproj', '--json'], { cwd: dir });
      expect(render.code).toBe(1);
      const rendered = (
        JSON.parse(render.stdout) as { items: { status: string; error?: { code: string } }[] }
      ).items;
      expect(rendered.map((i) => [i.status, i.error?.code])).toEqual([
        ['failed', 'bad_argument'],
        ['done', undefined],
      ]);
    },
  );

  itWithFfmpeg(
    '--strict fails an MP4 cut off after its index (moov first: its headers read as whole)',
    async () => {
      const dir = await tempDir();
      const clip = join(dir, 'clip.mp4');
      execFileSync('ffmpeg', [
        ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=24:d=4'],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-movflags', '+faststart', clip],
      ]);
      const engine = newEngine();
      await run(engine, 'file.import', { path: clip, name: 'Clip' });
      await run(engine, 'project.save', { path: join(dir, 'c.ecproj') });
      expect((await runCli(['inspect', 'c.ecproj', '--strict'], { cwd: dir })).code).toBe(0);
      // A copy stopped half-way: the index at the front is whole, the frames it points to are not all there.
      await truncate(clip, Math.floor((await stat(clip)).size * 0.6));
      const r = await runCli(['inspect', 'c.ecproj', '--strict'], { cwd: dir });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/clip\.mp4" is incomplete: .*"mdat" box runs \d+ bytes past its end/);
    },
  );

  itWithFfmpeg('--strict names a sequence frame of 0 bytes as empty', async () => {
    const dir = await tempDir();
    const pattern = await numberedSequence(dir, 5, 1);
    const engine = newEngine();
    await run(engine, 'file.import', { path: pattern, frameRate: 30 });
    await run(engine, 'project.save', { path: join(dir, 'e.ecproj') });
    // A render or copy that never wrote frame 3: it was "not an image EffectCraft can read", remedy "put it back".
    await writeFile(pattern.replace('%04d', '0003'), '');
    const r = await runCli(['inspect', 'e.ecproj', '--strict'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/f_0003\.png" is empty \(0 bytes\)/);
  });

  it('--strict exits 0 when every footage file is there', async () => {
    const dir = await tempDir();
    const engine = newEngine();
    await run(engine, 'comp.new', { name: 'C', width: 8, height: 8, frameRate: 10, duration: 1 });
    await run(engine, 'project.save', { path: join(dir, 'ok.ecproj') });
    const r = await runCli(['inspect', 'ok.ecproj', '--strict'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
  });

  it('a missing project exits 1 with the reason', async () => {
    const r = await runCli(['inspect', '/nonexistent/x.ecproj']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('x.ecproj');
    // Nothing on stdout without --json (a script reading it gets no half answer).
    expect(r.stdout).toBe('');
  });
});

describe('--json failures', () => {
  it('a command that fails before it has a result prints one JSON object with the error on stdout', async () => {
    const dir = await sampleCopy();
    const cases: Array<[string[], number, string]> = [
      [['inspect', '/nonexistent/x.ecproj', '--json'], 1, 'no_such_file'],
      [['render', '/nonexistent/x.ecproj', '--json'], 1, 'no_such_file'],
      [['render', 'sample.ecproj', '--frames', 'soon', '--json'], 2, 'bad_argument'],
      [['still', 'sample.ecproj', '--comp', 'Nope', '--frame', '0', '-o', 'x.png', '--json'], 2, 'not_found'],
    ];
    for (const [args, exitCode, code] of cases) {
      const r = await runCli(args, { cwd: dir });
      expect(r.code, args.join(' ')).toBe(exitCode);
      const out = JSON.parse(r.stdout) as {
        error: { code: string; message: string; remediation: string };
        exitCode: number;
      };
      expect(out, args.join(' ')).toMatchObject({ exitCode, error: { code } });
      expect(out.error.message.length).toBeGreaterThan(10);
      expect(out.error.remediation.length).toBeGreaterThan(5);
      // The words for people stay on stderr; a failure that is not the command line's (exit 1) ends its message
      // with its code (what a log search quotes), the remedy on the line below.
      expect(r.stderr).toContain(out.error.message.slice(0, 20));
      if (exitCode === 1) expect(r.stderr, args.join(' ')).toContain(`${out.error.message} [${code}]\n  `);
    }
  });
});

describe('effectcraft-cli still', () => {
  it('renders a frame by number or by time, format from the extension, with --scale and --alpha', async () => {
    const dir = await sampleCopy();
    const still = (...args: string[]) =>
      runCli(['still', 'sample.ecproj', '--comp', 'Sample', ...args], { cwd: dir });
    expect((await still('--frame', '30', '-o', 'f30.png')).code).toBe(0);
    expect((await still('--time', '1', '-o', 't1.png')).code).toBe(0);
    // Frame 30 at 30 fps is t = 1 s: the same pixels.
    expect(await readFile(join(dir, 'f30.png'))).toEqual(await readFile(join(dir, 't1.png')));
    const jpg = await still('--frame', '0', '-o', 'a.jpg', '--scale', '0.5', '--json');
    expect(JSON.parse(jpg.stdout)).toMatchObject({
      width: 320,
      height: 180,
      comp: 'Sample',
      frame: 0,
      time: 0,
    });
    // --json says which frame a time drew; a folder that is not there is made, as render does.
    const timed = await still('--time', '1.02', '-o', 'deep/er/t.png', '--json');
    expect(timed.code, timed.stderr).toBe(0);
    expect(JSON.parse(timed.stdout)).toMatchObject({ frame: 30, time: 1 });
    await rm(join(dir, 'deep'), { recursive: true });
    // Decimal seconds only: "0x1" is no time.
    const hex = await still('--time', '0x1', '-o', 'h.png');
    expect(hex.code).toBe(2);
    expect(hex.stderr).toContain('--time wants seconds from 0 (such as 1.5); got "0x1"');
    expect(await sharp(join(dir, 'a.jpg')).metadata()).toMatchObject({
      format: 'jpeg',
      width: 320,
      height: 180,
    });
    // The sample's background layer covers the frame: --alpha is seen on a composition with no layers.
    const empty = await smallProject();
    const alpha = await runCli(
      ['still', 'p.ecproj', '--comp', 'Main', '--frame', '0', '-o', 'a.webp', '--alpha'],
      {
        cwd: empty,
      },
    );
    expect(alpha.code, alpha.stderr).toBe(0);
    const webp = sharp(join(empty, 'a.webp'));
    expect(await webp.metadata()).toMatchObject({ format: 'webp', hasAlpha: true });
    const { data } = await webp.raw().toBuffer({ resolveWithObject: true });
    expect(alphaRange(data)).toEqual([0, 0]);
    const opaque = await sharp(join(dir, 'f30.png')).raw().toBuffer();
    expect(alphaRange(opaque)).toEqual([255, 255]);
    // Written atomically: no temporary is left beside the outputs.
    expect((await readdir(dir)).sort()).toEqual(['a.jpg', 'f30.png', 'sample.ecproj', 't1.png']);
  });

  it("draws the project's active composition when --comp is left out, and names the choices when none is", async () => {
    // Two compositions: a red "Back" and a blue "Front", the active one.
    const engine = newEngine();
    await run(engine, 'comp.new', { name: 'Back', width: 8, height: 8, backgroundColor: '#ff0000' });
    await run(engine, 'comp.new', { name: 'Front', width: 8, height: 8, backgroundColor: '#0000ff' });
    const dir = await tempDir();
    await run(engine, 'project.save', { path: join(dir, 'two.ecproj') });
    const still = (...args: string[]) =>
      runCli(['still', 'two.ecproj', '--frame', '0', ...args], { cwd: dir });
    const centre = async (name: string) => [
      ...(await sharp(join(dir, name)).raw().toBuffer()).subarray(0, 3),
    ];
    const active = await still('-o', 'active.png', '--json');
    expect(active.code, active.stderr).toBe(0);
    expect(JSON.parse(active.stdout)).toMatchObject({ comp: 'Front' });
    expect(await centre('active.png')).toEqual([0, 0, 255]);
    expect((await still('--comp', 'Back', '-o', 'back.png')).code).toBe(0);
    expect(await centre('back.png')).toEqual([255, 0, 0]);
    // A file with no active composition (written by hand) and two to choose from: a usage error naming them.
    const doc = JSON.parse(await readFile(join(dir, 'two.ecproj'), 'utf8'));
    await writeFile(join(dir, 'two.ecproj'), JSON.stringify({ ...doc, activeComp: null }));
    const none = await still('-o', 'none.png');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('The project has 2 compositions and none is active: "Back" and "Front".');
    expect(none.stderr).toContain('--comp NAME');
  });

  itWithFfmpeg('draws video footage in-process (the frame the asked time falls in) and exits', async () => {
    const dir = await tempDir();
    const clip = await numberedClip(dir, 'h264', '25', 50);
    const engine = newEngine();
    await run(engine, 'comp.new', { name: 'V', width: 64, height: 48, frameRate: 25, duration: 2 });
    const footage = await run<{ id: string }>(engine, 'file.import', { path: clip });
    await run(engine, 'layer.addFootage', { footage: footage.id });
    await run(engine, 'project.save', { path: join(dir, 'v.ecproj') });
    const r = await runCli(['still', 'v.ecproj', '--comp', 'V', '--time', '1.2', '-o', 'f.png'], {
      cwd: dir,
    });
    expect(r.code, r.stderr).toBe(0);
    const { data } = await sharp(join(dir, 'f.png')).raw().toBuffer({ resolveWithObject: true });
    expect(frameOf(data[0]!, data[1]!, data[2]!)).toBe(30);
    // A time late in a frame is that frame, as a render writes it (1.239 s at 25 fps is frame 30, drawn at
    // 1.2 s), not the source frame nearest the exact time (31).
    const late = await runCli(['still', 'v.ecproj', '--comp', 'V', '--time', '1.239', '-o', 'g.png'], {
      cwd: dir,
    });
    expect(late.code, late.stderr).toBe(0);
    const g = await sharp(join(dir, 'g.png')).raw().toBuffer();
    expect(frameOf(g[0]!, g[1]!, g[2]!)).toBe(30);
  });

  it('refuses bad requests with exit 2, in CLI words', async () => {
    const dir = await sampleCopy();
    const still = (...args: string[]) => runCli(['still', 'sample.ecproj', ...args], { cwd: dir });
    const noComp = await still('--comp', 'Nope', '--frame', '0', '-o', 'x.png');
    expect(noComp.code).toBe(2);
    expect(noComp.stderr).toContain('effectcraft-cli inspect PROJECT lists them');
    expect(noComp.stderr).not.toContain('doc_inspect');
    for (const args of [
      ['--comp', 'Sample', '--frame', '75', '-o', 'x.png'],
      ['--comp', 'Sample', '--frame', '1', '--time', '1', '-o', 'x.png'],
      ['--comp', 'Sample', '--frame', '0', '-o', 'x.jpg', '--alpha'],
      ['--comp', 'Sample', '--frame', '0', '-o', 'x.gif'],
      ['--comp', 'Sample', '--time', '9', '-o', 'x.png'],
    ]) {
      const r = await still(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect((await readdir(dir)).sort()).toEqual(['sample.ecproj']);
  });
});

describe('effectcraft-cli render pipeline flags', () => {
  it('--output-dir puts relative outputs there instead of beside the project', async () => {
    const dir = await smallProject();
    const out = await tempDir();
    const r = await runCli(['render', 'p.ecproj', '--output-dir', out, '--concurrency', '1'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    // Ten frames and their manifest.
    expect(await readdir(join(out, 'out'))).toHaveLength(11);
    expect(await readdir(dir)).toEqual(['p.ecproj']);
  });

  it('--item X --output Y renders that item to Y; the project file is not changed', async () => {
    const dir = await smallProject();
    const before = await readFile(join(dir, 'p.ecproj'), 'utf8');
    const r = await runCli(['render', 'p.ecproj', '--item', 'rq_2', '--output', 'elsewhere/f_[###].jpg'], {
      cwd: dir,
    });
    expect(r.code, r.stderr).toBe(0);
    const files = (await readdir(join(dir, 'elsewhere'))).filter((n) => n.endsWith('.jpg')).sort();
    expect(files).toHaveLength(10);
    expect(files[0]).toBe('f_000.jpg');
    expect(await readFile(join(dir, 'p.ecproj'), 'utf8')).toBe(before);
    const many = await runCli(['render', 'p.ecproj', '--output', 'x_[##].png'], { cwd: dir });
    expect(many.code).toBe(2);
    const unknown = await runCli(['render', 'p.ecproj', '--item', 'rq_9', '--output', 'x_[##].png'], {
      cwd: dir,
    });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('effectcraft-cli inspect PROJECT');
    // The same item given twice is rendered once (its second pass refused to write over the first's files).
    const twice = await runCli(['render', 'p.ecproj', '--item', 'rq_2', '--item', 'rq_2', '--json'], {
      cwd: dir,
    });
    expect(twice.code, twice.stderr).toBe(0);
    expect(JSON.parse(twice.stdout)).toMatchObject({ completed: 1, failed: 0, items: [{ id: 'rq_2' }] });
  });

  itWithFfmpeg(
    'says on stderr what the queue says of an item (an odd size padded), stored or given by --comp',
    async () => {
      const dir = await tempDir();
      const engine = newEngine();
      await run(engine, 'comp.new', { name: 'Odd', width: 33, height: 17, frameRate: 10, duration: 0.2 });
      await run(engine, 'renderQueue.add', { comp: 'Odd', output: join(dir, 'stored.mp4') });
      await run(engine, 'project.save', { path: join(dir, 'odd.ecproj') });
      // The project's own items, named by id.
      const stored = await runCli(['render', 'odd.ecproj'], { cwd: dir });
      expect(stored.code, stored.stderr).toBe(0);
      expect(stored.stderr).toMatch(/effectcraft-cli render: item rq_\d+: 33x17 is odd: MP4 video is 4:2:0/);
      // A --comp item: its own warning, once.
      const given = await runCli(['render', 'odd.ecproj', '--comp', 'Odd', '--output', 'given.webm'], {
        cwd: dir,
      });
      expect(given.code, given.stderr).toBe(0);
      expect(given.stderr.match(/33x17 is odd: WEBM video/g)).toHaveLength(1);
    },
  );

  itWithFfmpeg(
    'a render with ffmpeg but no ffprobe says its footage went unchecked (stderr and --json); with ffprobe, nothing',
    async () => {
      const dir = await tempDir();
      const clip = join(dir, 'clip.mp4');
      await copyFile(await numberedClip(dir, 'h264', '24', 6), clip);
      const engine = newEngine();
      await run(engine, 'comp.new', { name: 'Main', width: 64, height: 48, frameRate: 24, duration: 0.25 });
      await run(engine, 'file.import', { path: clip, name: 'Clip' });
      await run(engine, 'layer.addFootage', { comp: 'Main', footage: 'Clip' });
      await run(engine, 'renderQueue.add', { comp: 'Main', output: join(dir, 'o.mp4') });
      await run(engine, 'project.save', { path: join(dir, 'p.ecproj') });
      const checked = await runCli(['render', 'p.ecproj', '--json'], { cwd: dir });
      expect(checked.code, checked.stderr).toBe(0);
      expect(checked.stderr).not.toContain('not checked');
      expect(JSON.parse(checked.stdout).items[0]).not.toHaveProperty('warnings');
      // A PATH with node and ffmpeg alone.
      const bin = join(dir, 'bin');
      await mkdir(bin);
      await symlink(process.execPath, join(bin, 'node'));
      await symlink('/usr/bin/ffmpeg', join(bin, 'ffmpeg'));
      const blind = await runCli(['render', 'p.ecproj', '--json'], { cwd: dir, env: { PATH: bin } });
      expect(blind.code, blind.stderr).toBe(0);
      expect(blind.stderr).toMatch(
        /render: rq_\d+: Footage "Clip" \(\w+\) was not checked against what its import/,
      );
      expect(blind.stderr).toContain('Install ffprobe');
      const [item] = JSON.parse(blind.stdout).items as Array<{ status: string; warnings?: string[] }>;
      expect(item).toMatchObject({
        status: 'done',
        warnings: [expect.stringContaining('ffprobe was not found')],
      });
    },
  );

  it("an item's failure names what to do at the CLI, not MCP's commands", async () => {
    const dir = await tempDir();
    const engine = newEngine();
    await run(engine, 'comp.new', { name: 'C', width: 8, height: 8, frameRate: 10, duration: 0.2 });
    await run(engine, 'renderQueue.add', { comp: 'C', output: join(dir, 'f_[##].png') });
    // Footage added since the item was queued, at the item's own output: the render refuses to write over it.
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#00f' } })
      .png()
      .toFile(join(dir, 'f_00.png'));
    await run(engine, 'file.import', { path: join(dir, 'f_00.png') });
    await run(engine, 'layer.addFootage', { comp: 'C', footage: 'f_00' });
    await run(engine, 'project.save', { path: join(dir, 'p.ecproj') });
    const r = await runCli(['render', 'p.ecproj'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('would write over');
    expect(r.stderr).toContain('--output-dir DIR');
    expect(r.stderr).not.toContain('renderQueue.update');
  });

  it('--comp with an --output over its footage names --output as the remedy', async () => {
    const dir = await tempDir();
    const engine = newEngine();
    await run(engine, 'comp.new', { name: 'C', width: 8, height: 8, frameRate: 10, duration: 0.2 });
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#00f' } })
      .png()
      .toFile(join(dir, 'f_00.png'));
    await run(engine, 'file.import', { path: join(dir, 'f_00.png') });
    await run(engine, 'layer.addFootage', { comp: 'C', footage: 'f_00' });
    await run(engine, 'project.save', { path: join(dir, 'p.ecproj') });
    // The render is queued by --comp, refused before it has an id: --output-dir and --item do not apply to it.
    const r = await runCli(['render', 'p.ecproj', '--comp', 'C', '--output', 'f_[##].png'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('would write over');
    expect(r.stderr).toContain('give --output another path');
    expect(r.stderr).not.toContain('--item ID');
  });

  it('an empty render queue is explained in CLI terms, as a usage error (exit 2)', async () => {
    const dir = await tempDir();
    const project = JSON.parse(projectWith({})) as { renderQueue: unknown[] };
    project.renderQueue = [];
    await writeFile(join(dir, 'p.ecproj'), JSON.stringify(project));
    const r = await runCli(['render', 'p.ecproj'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--comp NAME --output PATH');
    expect(r.stderr).not.toContain('renderQueue.add');
  });

  it('--concurrency takes a whole number of workers', async () => {
    const dir = await smallProject();
    for (const bad of ['0', 'two', '1.5']) {
      const r = await runCli(['render', 'p.ecproj', '--concurrency', bad], { cwd: dir });
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toContain('--concurrency');
    }
    const ok = await runCli(['render', 'p.ecproj', '--concurrency', '2', '--json'], { cwd: dir });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ completed: 1 });
  });

  it('a quality flag the item cannot take is refused naming the flag, before anything renders', async () => {
    const dir = await smallProject();
    const r = await runCli(['render', 'p.ecproj', '--crf', '20'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--crf');
    expect(r.stderr).not.toContain('"encoding.crf"');
    const bad = await runCli(['render', 'p.ecproj', '--codec', 'mpeg2'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('h264, h265, prores, vp9');
    // Out of every codec's range: each codec's range is named, not VP9's alone.
    const high = await runCli(['render', 'p.ecproj', '--crf', '99'], { cwd: dir });
    expect(high.code).toBe(2);
    expect(high.stderr).toContain('from 0 to 51 for MP4 (h264, h265), or 0 to 63 for WebM (vp9)');
    expect(await readdir(dir)).toEqual(['p.ecproj']);
  });

  itWithFfmpeg('--codec and --crf reach the encoder; a prores codec for an .mp4 names .mov', async () => {
    const dir = await smallProject({ output: 'out/v.mp4', format: 'mp4' });
    const r = await runCli(
      ['render', 'p.ecproj', '--codec', 'h265', '--crf', '30', '--x264-preset', 'ultrafast'],
      {
        cwd: dir,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(await probeVideo(join(dir, 'out/v.mp4'))).toMatchObject({ codec: 'hevc', frames: 10 });
    const prores = await runCli(['render', 'p.ecproj', '--codec', 'prores'], { cwd: dir });
    expect(prores.code).toBe(2);
    expect(prores.stderr).toContain('.mov');
    const mov = await runCli(
      ['render', 'p.ecproj', '--comp', 'Main', '--output', 'c.mov', '--prores-profile', 'proxy'],
      { cwd: dir },
    );
    expect(mov.code, mov.stderr).toBe(0);
    expect((await probeVideo(join(dir, 'c.mov'))).codec).toBe('prores');
  });
});
