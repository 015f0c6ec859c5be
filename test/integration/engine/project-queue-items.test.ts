// A project file's render queue items are held to renderQueue.add's rules: a hand-edited item that add
// would refuse makes the file invalid_project, naming the field, and the open project is left unchanged.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newEngine, run } from '../../helpers/engine.js';
import { projectWith } from '../../helpers/projects.js';
import { tempDir } from '../../helpers/tmp.js';

const cases: Array<[string, string, string]> = [
  ['a range far past the end', projectWith({ frameRange: { start: 0, end: 1e9 } }), 'frameRange'],
  ['start after end', projectWith({ frameRange: { start: 5, end: 2 } }), 'frameRange'],
  ['range past the end', projectWith({ frameRange: { start: 0, end: 10 } }), 'frameRange'],
  [
    'a whole composition too long to render',
    projectWith({}, { duration: 1e9, frameRate: 240 }),
    'frameRange',
  ],
  ['mp4 written to a .png template', projectWith({ format: 'mp4' }), 'format'],
  ['png without a frame field', projectWith({ output: 'out/o.png' }), 'output'],
  ['mp4 with a frame field', projectWith({ format: 'mp4', output: 'out/o_[##].mp4' }), 'output'],
  ['a frame field in a folder name', projectWith({ output: 'out_[##]/o.png' }), 'output'],
  ['an unknown extension', projectWith({ output: 'out/o_[##].xyz' }), 'format'],
  ['frames above 8192 pixels', projectWith({ scale: 4 }, { width: 4096, height: 100 }), 'scale'],
  ['alpha in JPEG', projectWith({ format: 'jpeg', output: 'o_[##].jpg', alpha: true }), 'alpha'],
  [
    'overflow for a video',
    projectWith({ format: 'mp4', output: 'o.mp4', overflow: [{ dir: 'spill', minFreeBytes: 0 }] }),
    'overflow',
  ],
];

describe('render queue items in project files', () => {
  it.each(cases)('refuses %s, naming the field', async (_name, text, field) => {
    const dir = await tempDir();
    const good = join(dir, 'good.ecproj');
    await writeFile(good, projectWith({ frameRange: { start: 2, end: 9 } }));
    const engine = newEngine();
    await run(engine, 'project.open', { path: good });
    const before = engine.document;
    const path = join(dir, 'bad.ecproj');
    await writeFile(path, text);
    const r = await engine.execute('project.open', { path });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_project' } });
    if (!r.ok) expect(r.error.message).toContain(`renderQueue[0].${field}`);
    expect(engine.document).toBe(before);
    expect(engine.projectPath).toBe(good);
  });

  it('opens the items renderQueue.add would accept (relative paths resolved against the file)', async () => {
    const dir = await tempDir();
    const path = join(dir, 'ok.ecproj');
    await writeFile(
      path,
      projectWith({
        format: 'webm',
        output: 'clip.webm',
        alpha: true,
        frameRange: { start: 0, end: 9 },
        scale: 4,
      }),
    );
    const engine = newEngine();
    await run(engine, 'project.open', { path });
    expect(engine.document.renderQueue[0]).toMatchObject({ output: join(dir, 'clip.webm'), format: 'webm' });
  });
});
