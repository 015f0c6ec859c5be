/**
 * The npm package as a user gets it: `npm pack`, installed from the tarball into an empty folder, then started
 * the way an MCP client configured with {"command": "npx", "args": ["-y", "effectcraft-cli", "mcp"]} starts it,
 * and driven by the official client: list the tools, open the installed sample and render it into a folder of
 * the user's (never into node_modules).
 */
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import sharp from 'sharp';
import { distDir, repoRoot } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const exec = promisify(execFile);

interface Packed {
  filename: string;
  files: Array<{ path: string }>;
}

interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/**
 * Packs the working tree into `dir`. --ignore-scripts: prepack would rebuild dist/ (rm -rf first) under the
 * other e2e tests that are running it; the e2e setup has already refused a dist/ older than the sources.
 */
async function pack(dir: string): Promise<Packed> {
  const { stdout } = await exec('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
    cwd: repoRoot,
  });
  return (JSON.parse(stdout) as Packed[])[0]!;
}

/** What --help and error remedies point to: every docs/*.md named in the built code. */
async function docsNamedByTheCli(): Promise<string[]> {
  const entries = await readdir(distDir, { recursive: true });
  const named = new Set<string>();
  for (const e of entries.filter((n) => n.endsWith('.js'))) {
    const text = await readFile(join(distDir, e), 'utf8');
    for (const m of text.matchAll(/docs\/[a-z-]+\.md/g)) named.add(m[0]);
  }
  return [...named].sort();
}

async function call(c: Client, id: string, params: Record<string, unknown> = {}): Promise<ToolResult> {
  return (await c.callTool({ name: 'command_run', arguments: { id, params } })) as ToolResult;
}

describe('the npm package', () => {
  it('holds dist, docs, fonts, the sample project, README and LICENSE, and nothing else', async () => {
    const { files } = await pack(await tempDir('ec-pack-'));
    const paths = files.map((f) => f.path);
    const top = new Set(
      paths.map((p) => (p.startsWith('fixtures/') ? p.split('/').slice(0, 2).join('/') : p.split('/')[0])),
    );
    expect([...top].sort()).toEqual(
      ['LICENSE', 'README.md', 'dist', 'docs', 'fixtures/fonts', 'fixtures/sample', 'package.json'].sort(),
    );
    // The sample project file alone: not its rendered frames (npm run sample writes out/), not its generator.
    expect(paths.filter((p) => p.startsWith('fixtures/sample/'))).toEqual(['fixtures/sample/sample.ecproj']);
    expect(paths).toContain('dist/cli.js');
    expect(paths).toContain('dist/render/queue/worker.js');
    expect(paths).toContain('dist/studio/page/index.html');
    const named = await docsNamedByTheCli();
    expect(named.length).toBeGreaterThan(3);
    for (const doc of named) expect(paths).toContain(doc);
    expect(await readFile(join(repoRoot, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
  });

  it('installs from the tarball and serves MCP through npx; the installed sample renders into a folder of the user', async () => {
    const work = await tempDir('ec-pack-');
    const { filename } = await pack(work);
    const app = join(work, 'app');
    await mkdir(app);
    await exec('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, filename)], {
      cwd: app,
    });
    const installed = join(app, 'node_modules', 'effectcraft-cli');
    const sampleDir = join(installed, 'fixtures', 'sample');

    const client = new Client({ name: 'package-e2e', version: '1.0.0' });
    clients.push(client);
    await client.connect(
      new StdioClientTransport({
        command: 'npx',
        args: ['-y', 'effectcraft-cli', 'mcp'],
        cwd: app,
        stderr: 'pipe',
      }),
    );
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['command_run', 'doc_inspect', 'render_preview']),
    );

    expect(
      (await call(client, 'project.open', { path: join(sampleDir, 'sample.ecproj') })).isError,
    ).toBeFalsy();
    // As shipped, the sample renders next to itself, i.e. into the package: refused, nothing written there.
    const refused = await call(client, 'renderQueue.render');
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({
      code: 'bad_argument',
      remediation: expect.any(String),
    });
    expect(await readdir(sampleDir)).toEqual(['sample.ecproj']);

    // What the remedy says: queue the composition with an output of one's own and render that item.
    const out = join(await tempDir('ec-pack-out-'), 'sample_[###].png');
    const added = await call(client, 'renderQueue.add', { comp: 'Sample', output: out });
    const id = (added.structuredContent as { id: string }).id;
    const rendered = await call(client, 'renderQueue.render', { items: [id] });
    expect(rendered.isError).toBeFalsy();
    const result = rendered.structuredContent as {
      completed: number;
      items: Array<{ frames: number; manifest: string }>;
    };
    expect(result).toMatchObject({ completed: 1, failed: 0 });
    expect(result.items[0]!.frames).toBe(75);
    // Every file's hash is in the manifest beside the output, not in the result.
    const manifest = JSON.parse(await readFile(result.items[0]!.manifest, 'utf8')) as {
      files: Array<{ path: string; sha256: string }>;
    };
    expect(manifest.files).toHaveLength(75);
    for (const { path, sha256: sum } of manifest.files) {
      const bytes = await readFile(path);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(sum);
    }
    expect(await sharp(manifest.files[0]!.path).metadata()).toMatchObject({
      format: 'png',
      width: 640,
      height: 360,
    });
    expect(await readdir(sampleDir)).toEqual(['sample.ecproj']);
  }, 240_000);
});
