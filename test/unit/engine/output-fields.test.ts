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
});
