// The output format table is the one home of the formats: these tests fail when a format is added (or
// changed) in one place only: a schema enum, extension inference, the alpha/overflow rules, or the docs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ALPHA_FORMATS,
  OUTPUT_FORMAT_TABLE,
  OUTPUT_FORMATS,
  OutputFormat,
  RenderQueueItem,
  STILL_FORMATS,
  formatSpec,
  isSequenceFormat,
  resolveOutputFormat,
  type OutputFormatId,
} from '../../../src/engine/index.js';
import { createSession } from '../../../src/session.js';
import { repoRoot } from '../../helpers/cli.js';
import { fails, newEngine, run } from '../../helpers/engine.js';

const KEYS = Object.keys(OUTPUT_FORMAT_TABLE);

/** An output template of the right kind for `format`, ending in `ext`. */
const template = (format: OutputFormatId, ext: string) =>
  isSequenceFormat(format) ? `/out/shot_[####]${ext}` : `/out/clip${ext}`;

/** The JSON Schema enum of `param` of command `id`, as clients see it (command_list). */
function schemaEnum(id: string, param: string): unknown {
  const command = createSession()
    .engine.list({ schemas: true, filter: id })
    .find((c) => c.id === id)!;
  return (command.params as { properties: Record<string, { enum?: unknown }> }).properties[param]!.enum;
}

async function withComp() {
  const engine = newEngine();
  await run(engine, 'comp.new', { name: 'Main', width: 16, height: 16, frameRate: 10, duration: 1 });
  return engine;
}

describe('output format table', () => {
  it('every schema enum equals the table', () => {
    expect(OUTPUT_FORMATS).toEqual(KEYS);
    expect(OutputFormat.options).toEqual(KEYS);
    expect(RenderQueueItem.shape.format.options).toEqual(KEYS);
    expect(schemaEnum('renderQueue.add', 'format')).toEqual(KEYS);
    expect(schemaEnum('frame.save', 'format')).toEqual(
      KEYS.filter((f) => formatSpec(f as OutputFormatId).still),
    );
    expect(STILL_FORMATS.length).toBeGreaterThan(0);
  });

  it('entries are consistent: sharp formats are sequences, ffmpeg formats single files', () => {
    for (const f of OUTPUT_FORMATS) {
      const spec = formatSpec(f);
      expect(spec.extensions.length, f).toBeGreaterThan(0);
      for (const ext of spec.extensions) expect(ext, f).toMatch(/^\.[a-z0-9]+$/);
      // The two built-in exporters: SequenceExporter (sharp, one file a frame), VideoExporter (ffmpeg, one file).
      // AudioExporter (ffmpeg mixing sound alone, one file) too: every ffmpeg encoder writes one file.
      expect(spec.kind, f).toBe(typeof spec.encoder === 'string' ? 'file' : 'sequence');
      // Sound is the ffmpeg formats' only: muxed beside a picture, or alone for an audio-only encoder.
      if (spec.encoder === 'ffmpeg-audio') expect(spec.sound, f).toBe('only');
      else if (spec.sound !== 'none') expect(spec.encoder, f).toBe('ffmpeg');
      // frame.save encodes stills with sharp; overflow volumes are for sequences.
      if (spec.still) expect(spec.encoder, f).not.toBe('ffmpeg');
      if (spec.overflow) expect(spec.kind, f).toBe('sequence');
      expect(spec.mime, f).toMatch(/^(image|video|audio)\/[a-z0-9.+-]+$/);
    }
  });

  it('extension inference round-trips: every format accepts its extensions, inference picks the table’s', () => {
    for (const f of OUTPUT_FORMATS) {
      for (const ext of formatSpec(f).extensions) {
        expect(resolveOutputFormat(template(f, ext), f)).toBe(f);
        expect(resolveOutputFormat(template(f, ext.toUpperCase()), f)).toBe(f);
        const inferred = resolveOutputFormat(template(f, ext), undefined);
        if (formatSpec(f).inferred) expect(inferred).toBe(f);
        else {
          // Not inferred (png-fast): the output infers the inferable format of the same extension and kind.
          expect(formatSpec(inferred).extensions).toContain(ext);
          expect(isSequenceFormat(inferred)).toBe(isSequenceFormat(f));
        }
      }
    }
    expect(() => resolveOutputFormat('/out/clip.xyz', undefined)).toThrow(
      expect.objectContaining({ code: 'unsupported_format' }),
    );
    // A sound container no format writes: the remedy names the sound formats there are, not "pass format".
    for (const ext of ['ogg', 'flac', 'aac'])
      expect(() => resolveOutputFormat(`/out/mix.${ext}`, undefined)).toThrow(
        expect.objectContaining({
          code: 'unsupported_format',
          message: expect.stringMatching(/not written: sound alone is written as WAV, MP3 or M4A/),
          remediation: expect.stringMatching(/\.wav, \.mp3 or \.m4a/),
        }),
      );
  });

  it('renderQueue.add infers the format, and takes alpha and overflow exactly where the table says', async () => {
    const engine = await withComp();
    for (const f of OUTPUT_FORMATS) {
      const output = template(f, formatSpec(f).extensions[0]!);
      const added = await run<{ format: string }>(engine, 'renderQueue.add', {
        comp: 'Main',
        output,
        format: f,
      });
      expect(added.format).toBe(f);
      const alpha = { comp: 'Main', output, format: f, alpha: true };
      if (formatSpec(f).alpha) await run(engine, 'renderQueue.add', alpha);
      else expect(await fails(engine, 'renderQueue.add', alpha)).toBe('bad_argument');
      const overflow = { comp: 'Main', output, format: f, overflow: [{ dir: '/more' }] };
      if (formatSpec(f).overflow) await run(engine, 'renderQueue.add', overflow);
      else expect(await fails(engine, 'renderQueue.add', overflow)).toBe('bad_argument');
    }
    expect(ALPHA_FORMATS).toEqual(OUTPUT_FORMATS.filter((f) => formatSpec(f).alpha));
  });

  it('refuses a file name with two frame fields (only the first would be numbered)', async () => {
    const engine = await withComp();
    const r = await engine.execute('renderQueue.add', { comp: 'Main', output: '/out/a_[###]_b_[##].png' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain('more than one frame-number field');
  });

  it('docs/exporters.md lists every format in its format table and its RGB + Alpha table', () => {
    const doc = readFileSync(join(repoRoot, 'docs/exporters.md'), 'utf8');
    /** The format ids in the first column of the table under `heading`. */
    const firstColumn = (heading: string) => {
      const section = doc.split(`\n## ${heading}\n`)[1]!.split('\n## ')[0]!;
      const rows = section.split('\n').filter((l) => l.startsWith('| `'));
      return rows.map((row) => [...row.split('|')[1]!.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]!));
    };
    expect(firstColumn('Formats').map((ids) => ids[0])).toEqual(KEYS);
    const alphaRows = firstColumn('RGB + Alpha');
    expect(alphaRows.flat().sort()).toEqual([...KEYS].sort());
    // The last row is the refused formats: exactly those without alpha.
    expect(alphaRows.at(-1)).toEqual(KEYS.filter((f) => !formatSpec(f as OutputFormatId).alpha));
  });
});
