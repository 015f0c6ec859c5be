import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseRenderArgs } from '../../../src/cli/render-args.js';
import { UsageError } from '../../../src/cli/usage.js';

describe('render flags', () => {
  it('normalises the pipeline flags once: workers, output folder, one item to another output, encoding', () => {
    const args = parseRenderArgs([
      ...[
        'p.ecproj',
        '--concurrency',
        '3',
        '--output-dir',
        '/renders',
        '--item',
        'rq_2',
        '--output',
        'x.mov',
      ],
      ...['--prores-profile', 'lt', '--resume'],
    ]);
    expect(args).toMatchObject({
      project: resolve('p.ecproj'),
      items: ['rq_2'],
      itemOutput: { id: 'rq_2', output: '/renders/x.mov' },
      outputDir: '/renders',
      concurrency: 3,
      encoding: { proresProfile: 'lt' },
      resume: true,
    });
    expect(parseRenderArgs(['p.ecproj'])).toMatchObject({
      encoding: {},
      resume: false,
      concurrency: undefined,
    });
  });

  it('--output-dir that is a file is a usage error, said before anything opens (a missing folder is made later)', () => {
    const file = fileURLToPath(import.meta.url);
    expect(() => parseRenderArgs(['p.ecproj', '--output-dir', file])).toThrow(UsageError);
    expect(() => parseRenderArgs(['p.ecproj', '--output-dir', file])).toThrow(/is a file, not a folder/);
    expect(parseRenderArgs(['p.ecproj', '--output-dir', '/no/such/folder/yet'])?.outputDir).toBe(
      '/no/such/folder/yet',
    );
  });

  it('--redis: chunk size, attempts (3) and backoff (1000 ms) by default, as given otherwise; --data is distributed too', () => {
    expect(parseRenderArgs(['p.ecproj', '--redis', 'redis://h:1'])?.distributed).toEqual({
      url: 'redis://h:1',
      chunkSize: 100,
      attempts: 3,
      backoffMs: 1000,
    });
    const args = parseRenderArgs([
      'p.ecproj',
      '--redis',
      'redis://h:1',
      '--attempts',
      '1',
      '--backoff',
      '0',
      '--data',
      'rows.csv',
    ]);
    expect(args).toMatchObject({ data: resolve('rows.csv'), distributed: { attempts: 1, backoffMs: 0 } });
    expect(() => parseRenderArgs(['p.ecproj', '--attempts', '2'])).toThrow(UsageError);
    expect(() => parseRenderArgs(['p.ecproj', '--redis', 'redis://h:1', '--attempts', '0'])).toThrow(
      UsageError,
    );
    expect(() => parseRenderArgs(['p.ecproj', '--redis', 'redis://h:1', '--backoff', '1.5'])).toThrow(
      UsageError,
    );
  });

  it('carries every quality flag into the encoding, typed', () => {
    const args = parseRenderArgs([
      ...['p.ecproj', '--crf', '23', '--codec', 'h265', '--quality', '70', '--x264-preset', 'slow'],
      ...['--gif-palette', 'per-frame', '--gif-dither', 'bayer', '--audio-codec', 'aac'],
      ...['--audio-bitrate', '96'],
    ]);
    expect(args?.encoding).toEqual({
      crf: 23,
      codec: 'h265',
      quality: 70,
      x264Preset: 'slow',
      gifPalette: 'per-frame',
      gifDither: 'bayer',
      audioCodec: 'aac',
      audioBitrate: 96,
    });
  });

  it.each([
    [['p.ecproj', '--output', 'x.mp4']],
    [['p.ecproj', '--item', 'a', '--item', 'b', '--output', 'x.mp4']],
    [['p.ecproj', '--comp', 'Main']],
    [['p.ecproj', '--comp', 'Main', '--item', 'a', '--output', 'x.mp4']],
    [['p.ecproj', '--frames', '1-2']],
    [['p.ecproj', '--concurrency', '0']],
    [['p.ecproj', '--crf', '64']],
    [['p.ecproj', '--quality', '101']],
    [['p.ecproj', '--codec', 'av1']],
    [['p.ecproj', '--gif-dither', 'random']],
    [['p.ecproj', '--audio-codec', 'flac']],
    [['p.ecproj', '--audio-bitrate', '16']],
    [['p.ecproj', '--audio-bitrate', '96k']],
  ])('refuses %j as a usage error', (argv) => {
    expect(() => parseRenderArgs(argv)).toThrow(UsageError);
  });
});

describe('--props FILE that cannot be read', () => {
  it('says why in words and names the path it looked at (a relative one against the current directory)', () => {
    const args = ['project.ecproj', '--props', 'no-such-values.json'];
    expect(() => parseRenderArgs(args)).toThrow(UsageError);
    expect(() => parseRenderArgs(args)).toThrow(
      `--props: Cannot read "${resolve('no-such-values.json')}": no such file or directory; pass a JSON object or a .json file.`,
    );
  });
});
