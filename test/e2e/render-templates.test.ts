/**
 * `effectcraft-cli render` with template values: --props, and --data rows (CSV, JSON Lines) through the built
 * CLI. A bad row fails alone with its row and line named; the project file is never changed.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { tone } from '../helpers/audio.js';
import { newEngine, run } from '../helpers/engine.js';
import { itWithFfmpeg } from '../helpers/ffmpeg.js';
import { runCli } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';

/** A saved 32x16 template: a bar whose colour is the input "accent", a text whose text is "name". */
async function templateProject(dir: string, output: string): Promise<string> {
  const engine = newEngine();
  await run(engine, 'comp.new', { name: 'T', width: 32, height: 16, frameRate: 10, duration: 1 });
  await run(engine, 'layer.addSolid', { name: 'Bar', color: '#008080', width: 8, height: 16 });
  await run(engine, 'property.set', { layer: 'Bar', property: 'transform.position', value: [4, 8] });
  await run(engine, 'layer.addText', { name: 'Name', text: 'x', fontSize: 10 });
  await run(engine, 'input.define', {
    name: 'accent',
    type: 'color',
    bind: [{ layer: 'Bar', property: 'solid.color' }],
  });
  await run(engine, 'input.define', {
    name: 'name',
    type: 'text',
    bind: [{ layer: 'Name', property: 'text.text' }],
  });
  await run(engine, 'renderQueue.add', {
    comp: 'T',
    output: join(dir, output),
    frameRange: { start: 0, end: 0 },
  });
  const path = join(dir, 'template.ecproj');
  await run(engine, 'project.save', { path });
  return path;
}

async function pixel(path: string, x = 2, y = 2): Promise<number[]> {
  const { data, info } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * info.channels;
  return [...data.subarray(i, i + 3)];
}

describe('effectcraft-cli render with template values', () => {
  it('--data rows.csv: 5 rows, one bad: 4 outputs, one failure naming its row, line and input, exit 1, project unchanged', async () => {
    const dir = await tempDir();
    const project = await templateProject(dir, 'out/{name}_[#].png');
    const before = await readFile(project);
    await writeFile(
      join(dir, 'rows.csv'),
      'name,accent\nAda,#ff0000\nGrace,teal\nBad,not-a-colour\nLinus,blue\n"Ken",#00ff00\n',
    );
    const r = await runCli(['render', project, '--data', 'rows.csv'], { cwd: dir, timeoutMs: 120_000 });
    expect(r.code).toBe(1);
    expect((await readdir(join(dir, 'out'))).filter((n) => n.endsWith('.png')).sort()).toEqual([
      'Ada_0.png',
      'Grace_0.png',
      'Ken_0.png',
      'Linus_0.png',
    ]);
    expect(r.stdout).toMatch(
      /row 3 \(line 4\) {2}failed: Row 3 \(line 4\): Input "accent" \(color\) accepts a colour/,
    );
    // The row's line ends in its code, as on stderr (until 2026-12-08 only stderr had it).
    expect(r.stdout).toMatch(/row 3 \(line 4\) {2}failed: .+ \[bad_argument\]\n/);
    expect(r.stdout).toMatch(/\n {2}Fix the row in the data file \("accent": a colour/);
    expect(r.stdout).not.toMatch(/--props/);
    expect(r.stdout).toMatch(/4 rows done, 1 failed/);
    // Why, on stderr too (a pipeline's log), as for a failed item.
    expect(r.stderr).toMatch(
      /effectcraft-cli render: row 3 \(line 4\) failed: Row 3 \(line 4\): Input "accent"/,
    );
    expect(r.stderr).toMatch(/\n {2}Fix the row in the data file/);
    expect(await pixel(join(dir, 'out/Ada_0.png'))).toEqual([255, 0, 0]);
    expect(await pixel(join(dir, 'out/Linus_0.png'))).toEqual([0, 0, 255]);
    expect(await readFile(project)).toEqual(before);
  });

  it('--data rows.jsonl --json lists each row; every row done is exit 0', async () => {
    const dir = await tempDir();
    const project = await templateProject(dir, 'out/{name}_[#].png');
    await writeFile(join(dir, 'rows.jsonl'), '{"name": "Ada", "accent": "#ff0000"}\n{"name": "Bo"}\n');
    const r = await runCli(['render', project, '--data', 'rows.jsonl', '--json'], {
      cwd: dir,
      timeoutMs: 120_000,
    });
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as {
      completed: number;
      rows: {
        row: number;
        status: string;
        outputs: string[];
        items: Array<{ manifest: string } & Record<string, unknown>>;
      }[];
    };
    expect(result.completed).toBe(2);
    expect(result.rows.map((row) => [row.row, row.status, row.outputs])).toEqual([
      [1, 'done', [join(dir, 'out/Ada_0.png')]],
      [2, 'done', [join(dir, 'out/Bo_0.png')]],
    ]);
    // Each row's items as a render without --data reports them: files, bytes, manifest, every file's sha256.
    for (const [row, name] of [
      [result.rows[0]!, 'Ada'],
      [result.rows[1]!, 'Bo'],
    ] as const) {
      const file = join(dir, `out/${name}_0.png`);
      const bytes = await readFile(file);
      expect(row.items).toHaveLength(1);
      expect(row.items[0]).toMatchObject({
        status: 'done',
        files: { first: file, last: file, count: 1 },
        bytes: bytes.length,
        sha256: { [file]: createHash('sha256').update(bytes).digest('hex') },
      });
      const manifest = JSON.parse(await readFile(row.items[0]!.manifest, 'utf8')) as { files: unknown[] };
      expect(manifest.files).toHaveLength(1);
    }
    // Bo keeps the default accent.
    expect(await pixel(join(dir, 'out/Bo_0.png'))).toEqual([0, 128, 128]);
  });

  it("without --data, fills the output's {field}s from --props, else from the inputs' defaults; refuses a field nothing fills", async () => {
    const dir = await tempDir();
    const project = await templateProject(dir, 'out/{name}_[#].png');
    const given = await runCli(['render', project, '--props', '{"name": "Ada"}'], {
      cwd: dir,
      timeoutMs: 120_000,
    });
    expect(given.code).toBe(0);
    const plain = await runCli(['render', project], { cwd: dir, timeoutMs: 120_000 });
    expect(plain.code).toBe(0);
    // "x" is the name input's default (the text layer's text when it was defined).
    expect((await readdir(join(dir, 'out'))).filter((n) => n.endsWith('.png')).sort()).toEqual([
      'Ada_0.png',
      'x_0.png',
    ]);
    const other = await templateProject(await tempDir(), 'out/{shot}_[#].png');
    const refused = await runCli(['render', other], { timeoutMs: 120_000 });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/whose \{shot\} no input of its composition and no --props value fills/);
    expect(refused.stderr).toMatch(/--data rows\.csv \(with a column named "shot"\)/);
    // The remedy's "shot" with --props works: a value that only fills the output is no input's (until
    // 2026-12-07 it was refused, exit 2: '"T" has no input "shot"').
    const followed = await runCli(['render', other, '--props', '{"shot": "s1"}'], { timeoutMs: 120_000 });
    expect(followed.code).toBe(0);
    expect(await readdir(join(dirname(other), 'out'))).toContain('s1_0.png');
  });

  it('--data --resume: a row whose output is all there says it kept it', async () => {
    const dir = await tempDir();
    const project = await templateProject(dir, 'out/{name}_[#].png');
    await writeFile(join(dir, 'rows.csv'), 'name\nAda\n');
    expect(
      (await runCli(['render', project, '--data', 'rows.csv'], { cwd: dir, timeoutMs: 120_000 })).code,
    ).toBe(0);
    const again = await runCli(['render', project, '--data', 'rows.csv', '--resume', '--json'], {
      cwd: dir,
      timeoutMs: 120_000,
    });
    expect(again.code).toBe(0);
    const [row] = (JSON.parse(again.stdout) as { rows: Array<Record<string, unknown>> }).rows;
    expect(row).toMatchObject({ status: 'done', outputs: [], kept: [join(dir, 'out/Ada_[#].png')] });
    const text = await runCli(['render', project, '--data', 'rows.csv', '--resume'], {
      cwd: dir,
      timeoutMs: 120_000,
    });
    expect(text.stdout).toContain(
      `row 1 (line 2)  done  ${join(dir, 'out/Ada_[#].png')} (already there, kept)`,
    );
  });

  it("fails a row whose render manifest would replace an earlier row's (a_[#].png and a.[#].png share one)", async () => {
    const dir = await tempDir();
    const project = await templateProject(dir, 'out/{name}[#].png');
    await writeFile(join(dir, 'rows.csv'), 'name\na_\na.\n');
    const r = await runCli(['render', project, '--data', 'rows.csv'], { cwd: dir, timeoutMs: 120_000 });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /row 2 \(line 3\) {2}failed: .*its render manifest would be ".*a\.png\.manifest\.json", which row 1's output has/,
    );
    expect((await readdir(join(dir, 'out'))).sort()).toEqual(['a.png.manifest.json', 'a_0.png']);
  });

  it('refuses, before rendering, an output without a {field}, a stray column and a row value that is a path', async () => {
    const dir = await tempDir();
    const project = await templateProject(dir, 'out/same_[#].png');
    await writeFile(join(dir, 'rows.csv'), 'name\nAda\n');
    const same = await runCli(['render', project, '--data', 'rows.csv'], { cwd: dir });
    expect(same.code).toBe(2);
    expect(same.stderr).toMatch(/\{field\}/);
    const withField = await templateProject(dir, 'out/{name}_[#].png');
    await writeFile(join(dir, 'stray.csv'), 'name,colour\nAda,red\n');
    const stray = await runCli(['render', withField, '--data', 'stray.csv'], { cwd: dir });
    expect(stray.code).toBe(2);
    expect(stray.stderr).toMatch(/"colour"/);
    // What to do, not only what is wrong (until 2026-12-07 the remedy was "See: effectcraft-cli render --help").
    expect(stray.stderr).toContain(
      'Rename it to an input (a misspelt header), use it in the output as {colour}',
    );
    await writeFile(join(dir, 'escape.csv'), 'name\n../../evil\nok\n');
    const escape = await runCli(['render', withField, '--data', 'escape.csv'], {
      cwd: dir,
      timeoutMs: 120_000,
    });
    expect(escape.code).toBe(1);
    expect(escape.stdout).toMatch(/row 1 \(line 2\) {2}failed: .*"name".*path separator/);
    expect(await readdir(join(dir, 'out'))).toContain('ok_0.png');
  });

  it('says what to do with a data file that is missing, empty or of another kind (exit 2, --json too)', async () => {
    const dir = await tempDir();
    const project = await templateProject(dir, 'out/{name}_[#].png');
    const refusal = async (data: string) => {
      const r = await runCli(['render', project, '--data', data, '--json'], { cwd: dir });
      expect(r.code).toBe(2);
      const { error } = JSON.parse(r.stdout) as { error: { code: string; remediation: string } };
      expect(error.code).toBe('bad_argument');
      expect(r.stderr).toContain(error.remediation);
      return error.remediation;
    };
    // Until 2026-12-07 each said only "See: effectcraft-cli render --help".
    expect(await refusal('missing.csv')).toMatch(/^Check the path: the file .* must exist\./);
    await writeFile(join(dir, 'empty.csv'), 'name\n');
    expect(await refusal('empty.csv')).toMatch(/^Add one line per render below the header line/);
    await writeFile(join(dir, 'empty.jsonl'), '\n');
    expect(await refusal('empty.jsonl')).toMatch(/^Add one JSON object per line/);
    await writeFile(join(dir, 'rows.json'), '[]');
    expect(await refusal('rows.json')).toMatch(/^Give --data a \.csv file .* or a \.jsonl file/);
    await writeFile(join(dir, 'twice.csv'), 'name,name\nAda,Bo\n');
    expect(await refusal('twice.csv')).toMatch(/^Give each column its own name/);
  });

  it('fails, before rendering, a row whose value makes a file name longer than a render can write', async () => {
    const dir = await tempDir();
    const project = await templateProject(dir, 'out/{name}_[#].png');
    // 220 + ".png.manifest.json" is 238 bytes, the longest name whose temporary (17 bytes more) fits in 255.
    await writeFile(join(dir, 'rows.csv'), `name\n${'a'.repeat(220)}\n${'a'.repeat(221)}\n`);
    const r = await runCli(['render', project, '--data', 'rows.csv'], { cwd: dir, timeoutMs: 120_000 });
    expect(r.code).toBe(1);
    // Until 2026-12-07 the row rendered and then failed: 'Cannot write the render manifest ... (ENAMETOOLONG).'
    expect(r.stdout).toMatch(/row 2 \(line 3\) {2}failed: .*value of "name" makes .* 239 bytes long/);
    expect(await readdir(join(dir, 'out'))).toEqual([
      `${'a'.repeat(220)}.png.manifest.json`,
      `${'a'.repeat(220)}_0.png`,
    ]);
  });

  it('--props renders the value; a value of the wrong type is a usage error naming the input and --props', async () => {
    const dir = await tempDir();
    const project = await templateProject(dir, 'out/{name}_[#].png');
    const args = ['render', project, '--comp', 'T', '--output', 'one_[#].png', '--frames', '0-0'];
    const ok = await runCli([...args, '--props', '{"accent": "#0000ff"}'], { cwd: dir, timeoutMs: 120_000 });
    expect(ok.code).toBe(0);
    expect(await pixel(join(dir, 'one_0.png'))).toEqual([0, 0, 255]);
    await writeFile(join(dir, 'props.json'), '{"accent": 7}');
    const bad = await runCli([...args, '--props', 'props.json'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/"accent".*colour/);
    expect(bad.stderr).toMatch(/--props/);
    const inspect = await runCli(['inspect', project], { cwd: dir });
    expect(inspect.stdout).toMatch(/input accent {2}color {2}default "#008080" {2}-> Bar\/solid\.color/);
  });

  it("render PROJECT fills a saved item's output {field}s from its stored props, as renderQueue.render does", async () => {
    // Until 2026-12-07 the command line filled them from the inputs' defaults: an item saved with props
    // {"name": "Ada"} and output out/{name}_[#].png rendered Ada's values into out/x_0.png (MCP wrote Ada_0.png).
    const dir = await tempDir();
    const project = await templateProject(dir, 'out/{name}_[#].png');
    const engine = newEngine();
    await run(engine, 'project.open', { path: project });
    const { id } = await run<{ id: string }>(engine, 'renderQueue.add', {
      comp: 'T',
      output: join(dir, 'saved/{name}_[#].png'),
      frameRange: { start: 0, end: 0 },
      props: { name: 'Ada', accent: '#ff0000' },
    });
    await run(engine, 'project.save', { path: project });
    const r = await runCli(['render', project, '--item', id], { cwd: dir, timeoutMs: 120_000 });
    expect(r.code).toBe(0);
    expect((await readdir(join(dir, 'saved'))).sort()).toEqual(['Ada.png.manifest.json', 'Ada_0.png']);
    expect(await pixel(join(dir, 'saved/Ada_0.png'))).toEqual([255, 0, 0]);
    // --props still goes over the stored value.
    const over = await runCli(['render', project, '--item', id, '--props', '{"name": "Bo"}'], {
      cwd: dir,
      timeoutMs: 120_000,
    });
    expect(over.code).toBe(0);
    expect(await readdir(join(dir, 'saved'))).toContain('Bo_0.png');
  });

  it("a footage field of a row may be relative: it resolves against the data file's folder", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'data'));
    for (const [name, colour] of [
      ['red', '#ff0000'],
      ['data/blue', '#0000ff'],
    ] as const)
      await sharp({ create: { width: 8, height: 8, channels: 3, background: colour } })
        .png()
        .toFile(join(dir, `${name}.png`));
    const engine = newEngine();
    await run(engine, 'comp.new', { name: 'T', width: 8, height: 8, frameRate: 10, duration: 1 });
    await run(engine, 'file.import', { path: join(dir, 'red.png'), name: 'Tile' });
    await run(engine, 'layer.addFootage', { footage: 'Tile', name: 'Tile' });
    await run(engine, 'input.define', {
      name: 'tile',
      type: 'footage',
      bind: [{ layer: 'Tile', property: 'source' }],
    });
    await run(engine, 'renderQueue.add', {
      comp: 'T',
      output: join(dir, 'out/{id}_[#].png'),
      frameRange: { start: 0, end: 0 },
    });
    const project = join(dir, 'tiles.ecproj');
    await run(engine, 'project.save', { path: project });
    await writeFile(join(dir, 'data/rows.csv'), 'id,tile\nb,blue.png\nr,\n');
    const r = await runCli(['render', project, '--data', 'data/rows.csv'], { cwd: dir, timeoutMs: 120_000 });
    expect(r.code).toBe(0);
    expect(await pixel(join(dir, 'out/b_0.png'))).toEqual([0, 0, 255]);
    // An empty field keeps the default file.
    expect(await pixel(join(dir, 'out/r_0.png'))).toEqual([255, 0, 0]);
  });

  itWithFfmpeg(
    "--data: a row's mix above full scale is warned of on stderr, naming the row and its output",
    async () => {
      // Until 2026-12-07 a row's item warnings were only in --json: the text log said nothing of a clipped file.
      const dir = await tempDir();
      const music = await tone(dir, { freq: 440, seconds: 1, amplitude: 0.5 });
      const engine = newEngine();
      await run(engine, 'comp.new', { name: 'T', width: 8, height: 8, frameRate: 10, duration: 0.5 });
      await run(engine, 'file.import', { path: music, name: 'Music' });
      await run(engine, 'layer.addFootage', { footage: 'Music', name: 'Bed' });
      await run(engine, 'input.define', {
        name: 'gain',
        type: 'number',
        bind: [{ layer: 'Bed', property: 'audio.level' }],
      });
      await run(engine, 'renderQueue.add', { comp: 'T', output: join(dir, 'out/{id}.wav') });
      const project = join(dir, 'bed.ecproj');
      await run(engine, 'project.save', { path: project });
      await writeFile(join(dir, 'rows.csv'), 'id,gain\nquiet,0\nloud,12\n');
      const r = await runCli(['render', project, '--data', 'rows.csv'], { cwd: dir, timeoutMs: 120_000 });
      expect(r.code).toBe(0);
      expect(r.stderr).toContain(
        `row 2 (line 3) ${join(dir, 'out/loud.wav')}: The sound's mix goes above full scale`,
      );
      expect(r.stderr).not.toMatch(/row 1 \(line 2\)/);
    },
  );
});
