/**
 * collectYoungGarbage in a quiet Node process of its own (as a render worker is: little JS allocated, so V8
 * collects nothing by itself), where what frees the pixels can only be the call; the test runner's own process
 * allocates enough to collect at any moment.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/tmp.js';

const exec = promisify(execFile);
const moduleUrl = new URL('../../../src/render/young-gc.ts', import.meta.url).href;
const canvasUrl = pathToFileURL(createRequire(import.meta.url).resolve('@napi-rs/canvas')).href;

/** The probe: native memory held by four dropped 16 MB pixel copies, before and after the call. */
const probe = `
import { runInNewContext } from 'node:vm';
import { createCanvas } from ${JSON.stringify(canvasUrl)};
import { collectYoungGarbage } from ${JSON.stringify(moduleUrl)};
const turns = (n) => new Promise((resolve) => { let i = 0; const t = () => (++i >= n ? resolve() : setTimeout(t, 10)); t(); });
const canvas = createCanvas(2000, 2000);
await turns(5);
const base = process.memoryUsage().external;
for (let i = 0; i < 4; i++) canvas.data().fill(i, 0, 16);
await turns(10);
const held = process.memoryUsage().external - base;
collectYoungGarbage();
await turns(10);
const left = process.memoryUsage().external - base;
console.log(JSON.stringify({ held, left, gcElsewhere: runInNewContext('typeof gc') }));
`;

describe('collectYoungGarbage', () => {
  it('frees the native pixels of dropped frames, which V8 alone leaves, and exposes gc nowhere', async () => {
    const file = join(await tempDir(), 'probe.mts');
    await writeFile(file, probe);
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const { stdout } = await exec(process.execPath, ['--import', 'tsx', file], { cwd: root });
    const { held, left, gcElsewhere } = JSON.parse(stdout) as Record<string, number | string>;
    expect(held).toBeGreaterThanOrEqual(48 * 2 ** 20);
    expect(left).toBeLessThan(Number(held) / 4);
    expect(gcElsewhere).toBe('undefined');
  });
});
