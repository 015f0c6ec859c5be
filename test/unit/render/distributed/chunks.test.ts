import { describe, expect, it } from 'vitest';
import { chunkSpans, segmentPath, splitOf } from '../../../../src/render/distributed/chunks.js';
import { redisOptions } from '../../../../src/render/distributed/connection.js';
import { decodeFailure, encodeFailure } from '../../../../src/render/distributed/protocol.js';

describe('chunks of an item', () => {
  it('split a span by frame index into ranges of chunkSize, the last one shorter, covering every frame once', () => {
    expect(chunkSpans({ start: 5, end: 79 }, 20, 'frames')).toEqual([
      { start: 5, end: 24 },
      { start: 25, end: 44 },
      { start: 45, end: 64 },
      { start: 65, end: 79 },
    ]);
    expect(chunkSpans({ start: 0, end: 0 }, 100, 'segments')).toEqual([{ start: 0, end: 0 }]);
  });

  it('are one chunk for items that render whole', () => {
    expect(chunkSpans({ start: 0, end: 299 }, 20, 'whole')).toEqual([{ start: 0, end: 299 }]);
  });

  it('split sequences by frame, MP4, MOV and WebM into segments, and render the rest whole', () => {
    expect(splitOf('png')).toBe('frames');
    expect(splitOf('jpeg')).toBe('frames');
    expect(splitOf('mp4')).toBe('segments');
    expect(splitOf('mov')).toBe('segments');
    expect(splitOf('webm')).toBe('segments');
    expect(splitOf('gif')).toBe('whole');
    expect(splitOf('webp-anim')).toBe('whole');
    expect(splitOf('wav')).toBe('whole');
  });

  it('write video segments to hidden names beside the output, by render and range', () => {
    expect(segmentPath('/out/clip.mp4', 'abcdef0123-4567', { start: 10, end: 19 })).toBe(
      '/out/.clip.mp4.abcdef01.10-19.seg.mp4',
    );
  });
});

describe('redis URLs', () => {
  it('give host, port, db and credentials; anything but redis://HOST is bad_argument', () => {
    expect(redisOptions('redis://10.0.0.2:6380/2')).toMatchObject({ host: '10.0.0.2', port: 6380, db: 2 });
    expect(redisOptions('redis://u:p%40ss@h')).toMatchObject({
      host: 'h',
      port: 6379,
      username: 'u',
      password: 'p@ss',
    });
    for (const bad of ['http://h:1', 'h:6379', 'redis://', 'redis://h/x'])
      expect(() => redisOptions(bad)).toThrow(expect.objectContaining({ code: 'bad_argument' }));
  });
});

describe('job failures', () => {
  it('carry an ErrorInfo through the failed reason; any other reason is render_failed', () => {
    const error = { code: 'cancelled', message: 'm', remediation: 'r' } as const;
    expect(decodeFailure(encodeFailure(error))).toEqual(error);
    expect(decodeFailure('job stalled more than allowable limit').code).toBe('render_failed');
    expect(decodeFailure(undefined).code).toBe('render_failed');
  });
});
