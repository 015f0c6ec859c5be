import { describe, expect, it } from 'vitest';
import { chunkSpans, splitsByFrame } from '../../../../src/render/distributed/chunks.js';
import { redisOptions } from '../../../../src/render/distributed/connection.js';
import { decodeFailure, encodeFailure } from '../../../../src/render/distributed/protocol.js';

describe('chunks of an item', () => {
  it('split a span by frame index into ranges of chunkSize, the last one shorter, covering every frame once', () => {
    expect(chunkSpans({ start: 5, end: 79 }, 20, true)).toEqual([
      { start: 5, end: 24 },
      { start: 25, end: 44 },
      { start: 45, end: 64 },
      { start: 65, end: 79 },
    ]);
    expect(chunkSpans({ start: 0, end: 0 }, 100, true)).toEqual([{ start: 0, end: 0 }]);
  });

  it('are one chunk for formats that are not a file per frame', () => {
    expect(chunkSpans({ start: 0, end: 299 }, 20, false)).toEqual([{ start: 0, end: 299 }]);
    expect(splitsByFrame('png')).toBe(true);
    expect(splitsByFrame('jpeg')).toBe(true);
    expect(splitsByFrame('mp4')).toBe(false);
    expect(splitsByFrame('gif')).toBe(false);
    expect(splitsByFrame('wav')).toBe(false);
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
