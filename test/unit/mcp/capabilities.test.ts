import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CapabilityProbe, describeTools, which, type HostFacts } from '../../../src/mcp/capabilities.js';
import { tempDir } from '../../helpers/tmp.js';

const OK: HostFacts = { ffmpeg: { path: '/x/ffmpeg' }, sharp: null, canvas: null, font: null };

describe('which', () => {
  it('finds an executable on PATH and ignores non-executables', async () => {
    const a = await tempDir();
    const b = await tempDir();
    await writeFile(join(a, 'tool'), 'x');
    await writeFile(join(b, 'tool'), '#!/bin/sh\n');
    await chmod(join(b, 'tool'), 0o755);
    expect(await which('tool', `${a}:${b}`)).toBe(join(b, 'tool'));
    expect(await which('absent', `${a}:${b}`)).toBeNull();
  });
});

describe('describeTools', () => {
  it('reports everything available on a complete host', () => {
    const d = describeTools(['command_run', 'render_preview', 'doc_inspect'], OK);
    expect(d.every((t) => t.available && !t.without)).toBe(true);
  });

  it('lists video formats under `without` when ffmpeg is missing, with the remedy', () => {
    const [run] = describeTools(['command_run'], { ...OK, ffmpeg: { reason: 'not found' } });
    expect(run!.available).toBe(true);
    expect(run!.without?.[0]).toMatch(/apt-get install ffmpeg/);
  });

  it('marks render_preview unavailable when sharp does not load', () => {
    const [p] = describeTools(['render_preview'], { ...OK, sharp: 'sharp does not load: x' });
    expect(p).toMatchObject({
      available: false,
      reason: 'sharp does not load: x',
      remediation: expect.any(String),
    });
  });
});

describe('CapabilityProbe', () => {
  it('probes once, lazily', async () => {
    let n = 0;
    const p = new CapabilityProbe(async () => (n++, OK));
    expect(n).toBe(0);
    await Promise.all([p.facts(), p.facts()]);
    expect(n).toBe(1);
  });
});
