import { describe, expect, it } from 'vitest';
import { fillOutputFields, outputFields } from '../../../src/engine/output-template.js';

describe('output row fields', () => {
  it('names each {field} once and fills it from the row', () => {
    expect(outputFields('/out/{name}/{name}_{size}_[###].png')).toEqual(['name', 'size']);
    expect(outputFields('/out/plain_[#].png')).toEqual([]);
    expect(fillOutputFields('/out/{name}_{size}.mp4', { name: 'Ada', size: 'L' })).toEqual({
      ok: true,
      path: '/out/Ada_L.mp4',
    });
  });

  it('refuses a value that is empty or could leave the output folder, naming the field', () => {
    for (const value of ['', '../x', 'a/b', 'a\\b', '..', 'a\nb'])
      expect(fillOutputFields('/out/{name}.mp4', { name: value })).toMatchObject({
        ok: false,
        field: 'name',
      });
    expect(fillOutputFields('/out/{name}.mp4', {})).toMatchObject({ ok: false, field: 'name' });
    // Dots that are not ".." are names like any other.
    expect(fillOutputFields('/out/{v}.mp4', { v: 'v1.2' })).toEqual({ ok: true, path: '/out/v1.2.mp4' });
  });

  it('refuses a value that makes a file name longer than a render can write, naming the field', () => {
    // Every name a render writes gets 17 bytes more in its temporary (.NAME.<10 hex>.part): 238 of NAME_MAX 255.
    // A one-file output's manifest (clip.mp4.manifest.json) is its longest name: 224 + 14.
    expect(fillOutputFields('/out/{name}.mp4', { name: 'a'.repeat(220) })).toMatchObject({ ok: true });
    expect(fillOutputFields('/out/{name}.mp4', { name: 'a'.repeat(221) })).toMatchObject({
      ok: false,
      field: 'name',
      message: expect.stringMatching(/239 bytes long, over the 238/),
    });
    // A sequence's manifest drops the frame field: a.png.manifest.json, 220 + 18.
    expect(fillOutputFields('/out/{name}_[##].png', { name: 'a'.repeat(220) })).toMatchObject({ ok: true });
    expect(fillOutputFields('/out/{name}_[##].png', { name: 'a'.repeat(221) })).toMatchObject({ ok: false });
    // Bytes, not characters (É is 2); a folder's name may be 255; the longest value is the one named.
    expect(fillOutputFields('/out/{t}.wav', { t: 'É'.repeat(110) })).toMatchObject({ ok: true });
    expect(fillOutputFields('/out/{t}.wav', { t: 'É'.repeat(111) })).toMatchObject({ ok: false });
    expect(fillOutputFields('/out/{t}/x.mp4', { t: 'a'.repeat(255) })).toMatchObject({ ok: true });
    expect(fillOutputFields('/out/{t}/x.mp4', { t: 'a'.repeat(256) })).toMatchObject({
      ok: false,
      field: 't',
    });
    expect(fillOutputFields('/out/{a}_{b}.mp4', { a: 'x', b: 'a'.repeat(230) })).toMatchObject({
      field: 'b',
    });
  });
});
