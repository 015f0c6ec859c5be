/**
 * footage.relink points a footage item at a file again: its new place, or the same path once the file has
 * changed. The item keeps its id and name, the layers showing it keep their keyframes and timing and show the
 * new file; a file that cannot be read leaves the document as it was; one undo step takes it back.
 */
import { copyFile, mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import type { FootageItem, Layer } from '../../../src/engine/index.js';
import type { Session } from '../../../src/session.js';
import { disposeAll, savedCentre, showing } from '../../helpers/footage-session.js';
import { tone } from '../../helpers/audio.js';
import { frameOf, numberedClip } from '../../helpers/media.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

afterEach(disposeAll);

type Overview = { project: { footage: { missing?: true }[] } };

async function setup(path: string) {
  const shown = await showing(path, { name: 'Plate' });
  const { s, comp, layer } = shown;
  await run(s, 'property.setKeyframe', { comp, layer, property: 'opacity', time: 0.5, value: 100 });
  return shown;
}

const item = (s: Session, id: string) => s.engine.document.items.find((i) => i.id === id) as FootageItem;
const layerOf = (s: Session, comp: string, id: string) =>
  (s.engine.document.items.find((i) => i.id === comp) as { layers: Layer[] }).layers.find(
    (l) => l.id === id,
  )!;

const shownAt = async (s: Session, comp: string, frame: number, dir: string) =>
  frameOf(...(await savedCentre(s, comp, frame / 30, dir)));

/** A 1 s clip and a 0.3 s one (in a folder of its own: the clips are named by codec and rate). */
async function longAndShort(): Promise<{ dir: string; first: string; second: string }> {
  const dir = await tempDir();
  const first = await numberedClip(dir, 'h264', '30', 30);
  const short = join(dir, 'short');
  await mkdir(short);
  return { dir, first, second: await numberedClip(short, 'h264', '30', 9) };
}

describeWithFfmpeg('footage.relink', () => {
  itWithFfmpeg(
    'shows the new file in every layer, keeping the item and the layers as they were',
    async () => {
      const dir = await tempDir();
      const first = await numberedClip(dir, 'h264', '30', 30);
      const other = join(dir, 'v2');
      await mkdir(other);
      // Its frame k shows number k + 10.
      const second = await numberedClip(other, 'vp9', '30', 40, {
        extra: ['-vf', 'trim=start_frame=10,setpts=PTS-STARTPTS'],
      });
      const { s, comp, footage, layer } = await setup(first);
      expect(await shownAt(s, comp, 5, dir)).toBe(5);
      const layerBefore = layerOf(s, comp, layer);
      // The layer is named after its footage item.
      expect(layerBefore.name).toBe('Plate');

      const relinked = await run<{ id: string; path: string; media: { codec: string } }>(
        s,
        'footage.relink',
        {
          footage: 'Plate',
          path: second,
        },
      );
      expect(relinked).toMatchObject({ id: footage, path: second, media: { codec: 'vp9' } });
      expect(item(s, footage)).toMatchObject({ id: footage, name: 'Plate', path: second });
      expect(layerOf(s, comp, layer)).toEqual(layerBefore);
      expect(await shownAt(s, comp, 5, dir)).toBe(15);

      // One undo step: the first file again, as it was.
      await run(s, 'edit.undo', {});
      expect(item(s, footage).path).toBe(first);
      expect(item(s, footage).media?.codec).toBe('h264');
      expect(await shownAt(s, comp, 5, dir)).toBe(5);
    },
  );

  itWithFfmpeg('the same path again reads a file that changed: its sound is gone from the mix', async () => {
    const dir = await tempDir();
    const path = join(dir, 'voice.wav');
    await copyFile(await tone(dir, { freq: 440, seconds: 1 }), path);
    const { s, comp, footage } = await setup(path);
    expect(item(s, footage).media?.audio).not.toBeNull();
    await copyFile(await numberedClip(dir, 'h264', '30', 30), path);
    await run(s, 'footage.relink', { footage, path });
    expect(item(s, footage).media).toMatchObject({ kind: 'video', audio: null });
    await run(s, 'renderQueue.add', { comp, output: join(dir, 'out.mp4') });
    const job = await run<{ completed: number }>(s, 'renderQueue.render', {});
    expect(job.completed).toBe(1);
  });

  itWithFfmpeg(
    'a project opened without its clip lists it as missing; relinked, it shows again',
    async () => {
      const dir = await tempDir();
      const clip = await numberedClip(dir, 'h264', '30', 30);
      const { s, comp, footage } = await setup(clip);
      const project = join(dir, 'shot.ecproj');
      await run(s, 'project.save', { path: project });
      const moved = join(dir, 'moved.mp4');
      await rename(clip, moved);
      const opened = await run<{ missingFootage?: unknown[] }>(s, 'project.open', { path: project });
      expect(opened.missingFootage).toEqual([{ id: footage, name: 'Plate', path: clip }]);
      // The document's view says so too, as long as the file is not there (what doc_inspect returns).
      const marked = async () =>
        (await run<Overview>(s, 'project.inspect', {})).project.footage.map((f) => f.missing);
      expect(await marked()).toEqual([true]);
      await run(s, 'footage.relink', { footage, path: moved });
      expect(await marked()).toEqual([undefined]);
      expect(await shownAt(s, comp, 7, dir)).toBe(7);
      // All there: nothing listed.
      await run(s, 'project.save', {});
      expect(
        (await run<{ missingFootage?: unknown[] }>(s, 'project.open', { path: project })).missingFootage,
      ).toBe(undefined);
    },
  );

  itWithFfmpeg('a file that is not there changes nothing', async () => {
    const dir = await tempDir();
    const first = await numberedClip(dir, 'h264', '30', 30);
    const { s, footage } = await setup(first);
    const before = s.engine.document;
    const r = await s.engine.execute('footage.relink', { footage, path: join(dir, 'gone.mp4') });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('no_such_file');
      expect(r.error.remediation).toBeTruthy();
    }
    expect(s.engine.document).toBe(before);
    const unknown = await s.engine.execute('footage.relink', { footage: 'Nope', path: first });
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.error.code).toBe('not_found');
  });

  itWithFfmpeg(
    'a file of another size keeps a centred anchor centred, leaves one set by hand, and says so',
    async () => {
      const dir = await tempDir();
      const first = await numberedClip(dir, 'h264', '30', 30);
      const small = join(dir, 'small');
      await mkdir(small);
      const second = await numberedClip(small, 'h264', '30', 30, { size: '32x24' });
      const { s, comp, footage, layer } = await setup(first);
      const { id: moved } = await run<{ id: string }>(s, 'layer.addFootage', { comp, footage });
      await run(s, 'property.set', { comp, layer: moved, property: 'anchorPoint', value: [0, 0] });
      const r = await s.engine.execute('footage.relink', { footage, path: second });
      expect(r.ok).toBe(true);
      if (r.ok) expect(r.warnings?.join(' ')).toMatch(/32x24 \(was 64x48\).*"Plate".*moved to its centre/);
      expect(layerOf(s, comp, layer).transform.anchorPoint.value).toEqual([16, 12]);
      expect(layerOf(s, comp, moved).transform.anchorPoint.value).toEqual([0, 0]);
      // The smaller clip sits centred where the first was: its centre pixel at the comp's centre.
      await run(s, 'layer.setEnabled', { comp, layer: moved, enabled: false });
      expect(await shownAt(s, comp, 5, dir)).toBe(5);
      // The relink and its anchors are one undo step (the hide is the step after it).
      await run(s, 'edit.undo', {});
      await run(s, 'edit.undo', {});
      expect(layerOf(s, comp, layer).transform.anchorPoint.value).toEqual([32, 24]);
      expect(item(s, footage).width).toBe(64);
    },
  );

  itWithFfmpeg(
    'a freeze past the end of the new file, a file with sound only for a picture, or without sound for a sound, is warned of',
    async () => {
      const { dir, first, second } = await longAndShort();
      const { s, comp, footage, layer } = await setup(first);
      await run(s, 'layer.setTimeMap', { layer, freezeAt: 0.8 });
      // A layer the clip mattes: with sound only for a matte, it would be hidden in every frame.
      const { id: title } = await run<{ id: string }>(s, 'layer.addSolid', {
        comp,
        name: 'Title',
        color: '#ffffff',
      });
      await run(s, 'layer.setTrackMatte', { comp, layer: title, matte: layer });
      const r = await s.engine.execute('footage.relink', { footage, path: second });
      expect(r.ok && r.warnings?.join(' ')).toMatch(
        /"Plate" freezes at a time past the end of the new file \(0\.3 s long\)/,
      );
      const sound = await s.engine.execute('footage.relink', {
        footage,
        path: await tone(dir, { freq: 440, seconds: 1 }),
      });
      expect(sound.ok && sound.warnings?.join(' ')).toMatch(/sound only: "Plate" shows no picture/);
      expect(sound.ok && sound.warnings?.join(' ')).toMatch(
        /"Title" is matted by a layer that now has no picture: it is hidden in every frame\. Remove the matte/,
      );
      // Sound for sound: nothing to say (it never showed a picture). A silent clip for it: the layer goes quiet.
      const again = await s.engine.execute('footage.relink', {
        footage,
        path: await tone(dir, { freq: 660, seconds: 1 }),
      });
      expect(again.ok && (again.warnings ?? [])).toEqual([]);
      const silent = await s.engine.execute('footage.relink', { footage, path: first });
      expect(silent.ok && silent.warnings?.join(' ')).toMatch(/no sound: "Plate" now plays silence/);
      // ...and it appears in the picture it did not draw before.
      expect(silent.ok && silent.warnings?.join(' ')).toMatch(
        /a picture \(video\): "Plate", which played sound only, now shows it/,
      );
    },
  );

  itWithFfmpeg('names same-named layers of one file by number and composition in its warnings', async () => {
    const dir = await tempDir();
    const { s, footage } = await showing(await tone(dir, { freq: 440, seconds: 1 }), { name: 'Music' });
    const { id: other } = await run<{ id: string }>(s, 'comp.new', { name: 'Cut B', width: 64, height: 48 });
    await run(s, 'layer.addSolid', { comp: other, name: 'Bg', color: '#000000' });
    await run(s, 'layer.addFootage', { comp: other, footage });
    const picture = await s.engine.execute('footage.relink', {
      footage,
      path: await numberedClip(dir, 'h264', '30', 9),
    });
    const said = picture.ok && picture.warnings?.join(' ');
    // A music bed used in two cuts is two layers named "Music": which is which, not "Music", "Music".
    expect(said).toMatch(
      /"Music" \(layer 1 of "Comp"\), "Music" \(layer 1 of "Cut B"\), which played sound only/,
    );
    expect(said).not.toMatch(/"Music", "Music"/);
  });

  itWithFfmpeg(
    'a shorter file is warned of where a layer outlasts it; a sound file says nothing of anchors and keeps them',
    async () => {
      const { dir, first, second } = await longAndShort();
      const { s, comp, footage, layer } = await setup(first);
      const shorter = await s.engine.execute('footage.relink', { footage, path: second });
      expect(shorter.ok && shorter.warnings?.join(' ')).toMatch(
        /0\.3 s long \(was 1 s\).*nothing shows after "Plate" at 0\.3 s.*layer\.setTiming/,
      );
      // A sound for the picture: no word of a 1x1 size or of anchors, and the anchor stays the picture's.
      const sound = await s.engine.execute('footage.relink', {
        footage,
        path: await tone(dir, { freq: 440, seconds: 1 }),
      });
      expect(sound.ok && sound.warnings?.join(' ')).not.toMatch(/1x1|anchor/);
      expect(layerOf(s, comp, layer).transform.anchorPoint.value).toEqual([32, 24]);
      // A shorter sound: the layer plays silence after it ends.
      const clipped = await s.engine.execute('footage.relink', {
        footage,
        path: await tone(dir, { freq: 440, seconds: 0.5 }),
      });
      expect(clipped.ok && clipped.warnings?.join(' ')).toMatch(/nothing plays after "Plate" at 0\.5 s/);
      // Looping, it never runs out: nothing to say.
      await run(s, 'layer.setTimeMap', { layer, loop: true });
      const looped = await s.engine.execute('footage.relink', {
        footage,
        path: await tone(dir, { freq: 440, seconds: 0.25 }),
      });
      expect(looped.ok && (looped.warnings ?? [])).toEqual([]);
    },
  );
});
