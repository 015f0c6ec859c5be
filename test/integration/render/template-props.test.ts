// Template props with the real compositor: the pixels change where an input is bound, nowhere else, and the
// document the render started from is left as it was.
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { createSession, type Session } from '../../../src/session.js';
import { serializeProject } from '../../../src/engine/project-file.js';
import type { JobResult } from '../../../src/render/queue/service.js';
import { createNodePorts } from '../../../src/node-io/engine-ports.js';
import { tempDir } from '../../helpers/tmp.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { frameOf, numberedClip, numberedSequence } from '../../helpers/media.js';
import { run } from '../../helpers/queue.js';
import { decodeSound, frequency, tone } from '../../helpers/audio.js';

const W = 64;
const H = 32;

/** A 64x32 template: left half a bar (accent), a badge at the right (on/off), a footage tile, a name text. */
async function template(s: Session, dir: string) {
  const red = join(dir, 'red.png');
  const blue = join(dir, 'blue.png');
  await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ff0000' } })
    .png()
    .toFile(red);
  await sharp({ create: { width: 8, height: 8, channels: 3, background: '#0000ff' } })
    .png()
    .toFile(blue);
  await run(s, 'comp.new', { name: 'T', width: W, height: H, frameRate: 10, duration: 1 });
  await run(s, 'layer.addSolid', { name: 'Bar', color: '#008080', width: 32, height: 32 });
  await run(s, 'property.set', { layer: 'Bar', property: 'transform.position', value: [16, 16] });
  await run(s, 'layer.addSolid', { name: 'Badge', color: '#ffffff', width: 8, height: 8 });
  await run(s, 'property.set', { layer: 'Badge', property: 'transform.position', value: [60, 4] });
  await run(s, 'file.import', { path: red, name: 'Tile' });
  await run(s, 'layer.addFootage', { footage: 'Tile', name: 'Tile' });
  await run(s, 'property.set', { layer: 'Tile', property: 'transform.position', value: [60, 28] });
  await run(s, 'layer.addText', { name: 'Name', text: '', fontSize: 12 });
  await run(s, 'property.set', { layer: 'Name', property: 'transform.position', value: [44, 16] });
  await run(s, 'input.define', {
    name: 'accent',
    type: 'color',
    bind: [{ layer: 'Bar', property: 'solid.color' }],
  });
  await run(s, 'input.define', {
    name: 'badge',
    type: 'boolean',
    bind: [{ layer: 'Badge', property: 'enabled' }],
  });
  await run(s, 'input.define', {
    name: 'tile',
    type: 'footage',
    bind: [{ layer: 'Tile', property: 'source' }],
  });
  await run(s, 'input.define', {
    name: 'name',
    type: 'text',
    bind: [{ layer: 'Name', property: 'text.text' }],
  });
  return { blue };
}

async function pixels(path: string): Promise<Buffer> {
  return sharp(path).ensureAlpha().raw().toBuffer();
}

function at(px: Buffer, x: number, y: number): number[] {
  const i = (y * W + x) * 4;
  return [...px.subarray(i, i + 3)];
}

/** Pixels that differ in the rectangle [x0, x1) x [y0, y1). */
function changed(a: Buffer, b: Buffer, x0: number, x1: number, y0: number, y1: number): number {
  let n = 0;
  for (let y = y0; y < y1; y++)
    for (let x = x0; x < x1; x++) if (at(a, x, y).join() !== at(b, x, y).join()) n++;
  return n;
}

describe('template props with the real renderer', () => {
  it('props change the rendered pixels where bound and leave the document unchanged', async () => {
    const dir = await tempDir();
    const s = createSession({ renderQueue: { maxWorkers: 1 } });
    const { blue } = await template(s, dir);
    const frame = { frameRange: { start: 0, end: 0 } };
    await run(s, 'renderQueue.add', { comp: 'T', output: join(dir, 'plain_[#].png'), ...frame });
    await run(s, 'renderQueue.add', {
      comp: 'T',
      output: join(dir, 'props_[#].png'),
      ...frame,
      props: { accent: '#ff0000', badge: false, tile: blue, name: 'Ada' },
    });
    const before = serializeProject(s.engine.document);
    const r = await run<JobResult>(s, 'renderQueue.render', {});
    expect(r.completed).toBe(2);
    expect(serializeProject(s.engine.document)).toBe(before);
    const plain = await pixels(join(dir, 'plain_0.png'));
    const props = await pixels(join(dir, 'props_0.png'));
    // The bar: the default teal, then the prop's red.
    expect(at(plain, 8, 8)).toEqual([0, 128, 128]);
    expect(at(props, 8, 8)).toEqual([255, 0, 0]);
    // The badge: shown by default, hidden by the prop (the black background shows).
    expect(at(plain, 60, 4)).toEqual([255, 255, 255]);
    expect(at(props, 60, 4)).toEqual([0, 0, 0]);
    // The footage tile: the imported red file, then the prop's blue one.
    expect(at(plain, 60, 28)).toEqual([255, 0, 0]);
    expect(at(props, 60, 28)).toEqual([0, 0, 255]);
    // The name: empty by default, "Ada" drawn between the bar and the badge.
    expect(changed(plain, props, 34, 54, 8, 24)).toBeGreaterThan(10);
    // Nothing that is not bound changed: the background between the bar and the tile.
    expect(changed(plain, props, 32, 56, 26, 32)).toBe(0);
  });

  it('props are checked again when the job starts: an item whose props do not fit fails alone', async () => {
    const dir = await tempDir();
    const s = createSession({ renderQueue: { maxWorkers: 1 } });
    await template(s, dir);
    const frame = { frameRange: { start: 0, end: 0 } };
    await run(s, 'renderQueue.add', {
      comp: 'T',
      output: join(dir, 'bad_[#].png'),
      ...frame,
      props: { badge: true },
    });
    await run(s, 'renderQueue.add', { comp: 'T', output: join(dir, 'ok_[#].png'), ...frame });
    // The commands keep stored props fitting (input.define refuses a change that breaks them, a file that breaks
    // them does not open); a snapshot that got past both still renders every other item.
    const doc = structuredClone(s.engine.document);
    doc.renderQueue[0]!.props = { badge: 'yes' };
    const r = await s.renderQueue.start(doc, doc.renderQueue, createNodePorts()).done;
    expect(r.completed).toBe(1);
    expect(r.items[0]).toMatchObject({ status: 'failed', error: { code: 'bad_argument' } });
    expect(r.items[0]!.error!.message).toMatch(/"badge"/);
    expect(r.items[1]!.status).toBe('done');
  });

  it('a file of another size given to a footage input is centred where the default was (its anchor kept centred)', async () => {
    const dir = await tempDir();
    const square = async (name: string, size: number, colour: string) => {
      const path = join(dir, name);
      await sharp({ create: { width: size, height: size, channels: 3, background: colour } })
        .png()
        .toFile(path);
      return path;
    };
    const plate = await square('plate.png', 32, '#ff0000');
    const small = await square('small.png', 16, '#0000ff');
    const s = createSession({ renderQueue: { maxWorkers: 1 } });
    await run(s, 'comp.new', { name: 'C', width: 32, height: 32, frameRate: 10, duration: 0.1 });
    await run(s, 'file.import', { path: plate, name: 'Plate' });
    await run(s, 'layer.addFootage', { footage: 'Plate', name: 'Plate' });
    await run(s, 'input.define', {
      name: 'plate',
      type: 'footage',
      bind: [{ layer: 'Plate', property: 'source' }],
    });
    await run(s, 'renderQueue.add', { comp: 'C', output: join(dir, 'c_[#].png'), props: { plate: small } });
    expect((await run<JobResult>(s, 'renderQueue.render', {})).completed).toBe(1);
    const { data } = await sharp(join(dir, 'c_0.png')).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [...data.subarray((y * 32 + x) * 4, (y * 32 + x) * 4 + 3)];
    // The 16x16 file covers 8..23 in both directions: the centre is blue, the corners the black background.
    expect(at(16, 16)).toEqual([0, 0, 255]);
    expect(at(9, 9)).toEqual([0, 0, 255]);
    expect(at(2, 2)).toEqual([0, 0, 0]);
    expect(at(29, 29)).toEqual([0, 0, 0]);
    // The document (and its anchor) is untouched: the props went to the render's copy only.
    const layer = (
      s.engine.document.items.find((i) => i.id === s.engine.document.activeComp) as {
        layers: { transform: { anchorPoint: { value: number[] } } }[];
      }
    ).layers[0]!;
    expect(layer.transform.anchorPoint.value).toEqual([16, 16]);
  });

  itWithFfmpeg(
    'a video file given to a footage input plays frame by frame in place of the default still',
    async () => {
      const dir = await tempDir();
      const clip = await numberedClip(dir, 'h264', '10', 10, { size: '16x16' });
      const still = join(dir, 'still.png');
      await sharp({ create: { width: 16, height: 16, channels: 3, background: '#ff0000' } })
        .png()
        .toFile(still);
      const s = createSession({ renderQueue: { maxWorkers: 1 } });
      await run(s, 'comp.new', { name: 'V', width: 16, height: 16, frameRate: 10, duration: 1 });
      await run(s, 'file.import', { path: still, name: 'Plate' });
      await run(s, 'layer.addFootage', { footage: 'Plate', name: 'Plate' });
      await run(s, 'input.define', {
        name: 'plate',
        type: 'footage',
        bind: [{ layer: 'Plate', property: 'source' }],
      });
      await run(s, 'renderQueue.add', {
        comp: 'V',
        output: join(dir, 'v_[#].png'),
        frameRange: { start: 3, end: 3 },
        props: { plate: clip },
      });
      const r = await run<JobResult>(s, 'renderQueue.render', {});
      expect(r.completed).toBe(1);
      const { data } = await sharp(join(dir, 'v_3.png')).raw().toBuffer({ resolveWithObject: true });
      expect(frameOf(data[0]!, data[1]!, data[2]!)).toBe(3);
    },
  );

  itWithFfmpeg(
    "a numbered image or a pattern given for an image sequence plays as a sequence at the replaced one's rate",
    async () => {
      const dir = await tempDir();
      // The default: a 10-frame sequence at 5 fps; the values: one numbered from 1001 by its first file, and
      // one numbered from 1 by its pattern.
      const base = await numberedSequence(join(dir, 'base'), 10);
      const shot = await numberedSequence(join(dir, 'shot'), 10, 1001);
      const other = await numberedSequence(join(dir, 'other'), 10);
      const s = createSession({ renderQueue: { maxWorkers: 1 } });
      await run(s, 'comp.new', { name: 'V', width: 16, height: 16, frameRate: 10, duration: 1 });
      await run(s, 'file.import', { path: base, name: 'Plate', frameRate: 5 });
      await run(s, 'layer.addFootage', { footage: 'Plate', name: 'Plate' });
      await run(s, 'input.define', {
        name: 'plate',
        type: 'footage',
        bind: [{ layer: 'Plate', property: 'source' }],
      });
      for (const [name, value] of [
        ['first', shot.replace('%04d', '1001')],
        ['pattern', other],
      ])
        await run(s, 'renderQueue.add', {
          comp: 'V',
          output: join(dir, `${name}_[#].png`),
          frameRange: { start: 6, end: 6 },
          props: { plate: value },
        });
      const r = await run<JobResult>(s, 'renderQueue.render', {});
      expect(r.items.map((i) => i.error?.message ?? i.status)).toEqual(['done', 'done']);
      // Comp frame 6 at 10 fps is 0.6 s: frame 3 of a 5 fps sequence (a still would show frame 0 throughout).
      for (const name of ['first', 'pattern']) {
        const { data } = await sharp(join(dir, `${name}_6.png`))
          .raw()
          .toBuffer({ resolveWithObject: true });
        expect(frameOf(data[0]!, data[1]!, data[2]!), name).toBe(3);
      }
    },
  );

  itWithFfmpeg(
    'a sound-only file for a layer that shows a picture, or a file without sound for a music bed, fails the item, naming the input and the layer; a sound layer takes a sound file',
    async () => {
      const dir = await tempDir();
      const still = join(dir, 'still.png');
      await sharp({ create: { width: 16, height: 16, channels: 3, background: '#ff0000' } })
        .png()
        .toFile(still);
      const [music, voice] = [
        await tone(dir, { freq: 440, seconds: 1 }),
        await tone(dir, { freq: 660, seconds: 1 }),
      ];
      const s = createSession({ renderQueue: { maxWorkers: 1 } });
      await run(s, 'comp.new', { name: 'V', width: 16, height: 16, frameRate: 10, duration: 1 });
      await run(s, 'file.import', { path: still, name: 'Plate' });
      await run(s, 'layer.addFootage', { footage: 'Plate', name: 'Plate' });
      await run(s, 'file.import', { path: music, name: 'Music' });
      await run(s, 'layer.addFootage', { footage: 'Music', name: 'Bed' });
      for (const [name, layer] of [
        ['plate', 'Plate'],
        ['bed', 'Bed'],
      ])
        await run(s, 'input.define', { name, type: 'footage', bind: [{ layer, property: 'source' }] });
      await run(s, 'renderQueue.add', { comp: 'V', output: join(dir, 'a.mp4'), props: { plate: voice } });
      await run(s, 'renderQueue.add', { comp: 'V', output: join(dir, 'b.mp4'), props: { bed: voice } });
      const silent = await numberedClip(dir, 'h264', '10', 10, { size: '16x16' });
      await run(s, 'renderQueue.add', { comp: 'V', output: join(dir, 'c.mp4'), props: { bed: silent } });
      await run(s, 'renderQueue.add', { comp: 'V', output: join(dir, 'd.mp4'), props: { bed: still } });
      const r = await run<JobResult>(s, 'renderQueue.render', {});
      expect(r.items[0]).toMatchObject({ status: 'failed', error: { code: 'bad_argument' } });
      expect(r.items[0]!.error!.message).toBe(
        `Input "plate" was given "${voice}", which has sound only, for layer "Plate", which shows a picture (its default "Plate").`,
      );
      expect(r.items[0]!.error!.remediation).toMatch(/Give "plate" an image or a video file/);
      expect(r.items[1]!.status).toBe('done');
      expect(frequency(await decodeSound(join(dir, 'b.mp4')), 0.1, 0.9)).toBeCloseTo(660, -1);
      for (const [item, given] of [
        [r.items[2]!, silent],
        [r.items[3]!, still],
      ] as const) {
        expect(item).toMatchObject({ status: 'failed', error: { code: 'bad_argument' } });
        expect(item.error!.message).toBe(
          `Input "bed" was given "${given}", which has no sound, for layer "Bed", which plays sound only (its default "Music"): it would render silence.`,
        );
        expect(item.error!.remediation).toMatch(/Give "bed" a sound file/);
      }
    },
  );

  itWithFfmpeg(
    'a music bed given a video with sound plays its sound and shows none of its picture',
    async () => {
      const dir = await tempDir();
      const still = join(dir, 'plate.png');
      await sharp({ create: { width: 16, height: 16, channels: 3, background: '#ff0000' } })
        .png()
        .toFile(still);
      const clip = join(dir, 'clip.mp4');
      await promisify(execFile)('ffmpeg', [
        ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=blue:s=16x16:r=10:d=1'],
        ...['-f', 'lavfi', '-i', 'sine=f=660:d=1', '-pix_fmt', 'yuv420p', '-shortest', clip],
      ]);
      const s = createSession({ renderQueue: { maxWorkers: 1 } });
      await run(s, 'comp.new', { name: 'V', width: 16, height: 16, frameRate: 10, duration: 1 });
      await run(s, 'file.import', { path: still, name: 'Plate' });
      await run(s, 'layer.addFootage', { footage: 'Plate', name: 'Plate' });
      await run(s, 'file.import', { path: await tone(dir, { freq: 440, seconds: 1 }), name: 'Music' });
      await run(s, 'layer.addFootage', { footage: 'Music', name: 'Bed' });
      await run(s, 'input.define', {
        name: 'bed',
        type: 'footage',
        bind: [{ layer: 'Bed', property: 'source' }],
      });
      await run(s, 'renderQueue.add', { comp: 'V', output: join(dir, 'v.mp4'), props: { bed: clip } });
      const r = await run<JobResult>(s, 'renderQueue.render', {});
      expect(r.items[0]!.status).toBe('done');
      expect(frequency(await decodeSound(join(dir, 'v.mp4')), 0.1, 0.9)).toBeCloseTo(660, -1);
      // The plate (red), not the clip (blue), fills the frame.
      const frame = await promisify(execFile)(
        'ffmpeg',
        [
          '-v',
          'error',
          '-i',
          join(dir, 'v.mp4'),
          '-frames:v',
          '1',
          '-f',
          'rawvideo',
          '-pix_fmt',
          'rgb24',
          '-',
        ],
        { encoding: 'buffer' },
      );
      const [red, , blue] = frame.stdout.subarray((8 * 16 + 8) * 3, (8 * 16 + 8) * 3 + 3);
      expect(red).toBeGreaterThan(200);
      expect(blue).toBeLessThan(60);
    },
  );
});
