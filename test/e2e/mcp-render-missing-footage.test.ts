/**
 * A render whose composition shows several videos, one of them gone from disk since the import: the item fails
 * with no_such_file naming it, and the MCP server lives on with its document. The videos opened before the
 * missing one were being checked (ffprobe through their descriptors) when the item's cleanup closed those
 * descriptors; the checks' failures were unhandled rejections that ended the server after its reply.
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { numberedClip } from '../helpers/media.js';
import { tempDir } from '../helpers/tmp.js';
import { RawServer } from './mcp-helpers.js';

type CallResult = { isError?: boolean; structuredContent?: Record<string, unknown> };

describe('mcp render with a missing video among others', () => {
  it('fails the item with no_such_file and the server keeps serving', async () => {
    const dir = await tempDir('ec-mcp-missing-');
    const gone = await numberedClip(dir, 'h264', '24', 12);
    const present = await Promise.all(['25', '30', '50'].map((rate) => numberedClip(dir, 'h264', rate, 12)));
    const s = new RawServer();
    await s.initialize();
    const call = async (id: string, name: string, args: Record<string, unknown>) =>
      (await s.request(id, 'tools/call', { name, arguments: args })).result as CallResult;
    // The missing clip's layer is added first: the bottom layer, so the render opens the others before it.
    const steps = [
      { id: 'comp.new', params: { name: 'Edit', width: 64, height: 48, frameRate: 25, duration: 0.4 } },
      ...[gone, ...present].flatMap((path, i) => [
        { id: 'file.import', params: { path, name: `clip${i}` } },
        { id: 'layer.addFootage', params: { footage: `clip${i}` } },
      ]),
      { id: 'renderQueue.add', params: { comp: 'Edit', output: join(dir, 'out.mp4') } },
    ];
    const setup = await call('setup', 'command_batch', { steps });
    expect(setup.isError).toBeUndefined();
    await rm(gone);

    const render = await call('render', 'command_run', { id: 'renderQueue.render' });
    const items = render.structuredContent?.items as { status: string; error?: { code: string } }[];
    expect(items[0]).toMatchObject({ status: 'failed', error: { code: 'no_such_file' } });

    // Still there, document and all, well after the checks of the other clips have ended.
    const list = await call('list', 'command_run', { id: 'renderQueue.list' });
    expect(list.isError).toBeUndefined();
    const inspect = await call('inspect', 'doc_inspect', {});
    expect(JSON.stringify(inspect.structuredContent)).toContain('clip3');
    s.endInput();
    expect(await s.exited).toBe(0);
    expect(s.stderr).not.toContain('EngineError');
  });

  it('lists an item whose sound file is gone as failed at 0 of its frames, not 0 of 0', async () => {
    const dir = await tempDir('ec-mcp-missing-');
    const voice = join(dir, 'voice.wav');
    await promisify(execFile)('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=f=440:d=1', voice],
    ]);
    const s = new RawServer();
    await s.initialize();
    const call = async (id: string, name: string, args: Record<string, unknown>) =>
      (await s.request(id, 'tools/call', { name, arguments: args })).result as CallResult;
    const steps = [
      { id: 'comp.new', params: { name: 'Edit', width: 16, height: 16, frameRate: 25, duration: 0.4 } },
      { id: 'file.import', params: { path: voice, name: 'voice' } },
      { id: 'layer.addFootage', params: { footage: 'voice' } },
      { id: 'renderQueue.add', params: { comp: 'Edit', output: join(dir, 'out.mp4') } },
    ];
    expect((await call('setup', 'command_batch', { steps })).isError).toBeUndefined();
    await rm(voice);
    const queued = await call('queued', 'command_run', { id: 'renderQueue.list' });
    expect((queued.structuredContent?.items as unknown[])[0]).toMatchObject({ framesTotal: 10 });

    await call('render', 'command_run', { id: 'renderQueue.render' });
    const list = await call('list', 'command_run', { id: 'renderQueue.list' });
    expect((list.structuredContent?.items as unknown[])[0]).toMatchObject({
      status: 'failed',
      error: { code: 'no_such_file' },
      framesDone: 0,
      framesTotal: 10,
    });
  });
});
