import { describe, expect, it } from 'vitest';
import { parseByteSize, parseCount } from '../../../src/cli/byte-size.js';
import { UsageError } from '../../../src/cli/usage.js';

describe('parseByteSize', () => {
  it.each([
    ['1024', 1024],
    ['64K', 64 * 1024],
    ['16M', 16 * 1024 ** 2],
    ['2G', 2 * 1024 ** 3],
    ['8GiB', 8 * 1024 ** 3],
    ['3m', 3 * 1024 ** 2],
  ])('reads %s as %d bytes', (text, bytes) => {
    expect(parseByteSize(text, '--max-body')).toBe(bytes);
  });

  it('is undefined when the flag is absent', () => {
    expect(parseByteSize(undefined, '--max-body')).toBeUndefined();
  });

  it.each(['', '0', '-1', '1.5M', '12T', 'lots'])('refuses %j with a usage error naming the flag', (text) => {
    expect(() => parseByteSize(text, '--max-upload')).toThrow(UsageError);
    expect(() => parseByteSize(text, '--max-upload')).toThrow(/--max-upload/);
  });

  it('refuses a size under the minimum', () => {
    expect(() => parseByteSize('1K', '--max-body', 64 * 1024)).toThrow(UsageError);
  });
});

describe('parseCount', () => {
  it('reads a whole number >= 1 and refuses the rest', () => {
    expect(parseCount('4', '--max-concurrent')).toBe(4);
    expect(parseCount(undefined, '--max-concurrent')).toBeUndefined();
    for (const bad of ['0', '-2', '1.5', 'four'])
      expect(() => parseCount(bad, '--max-concurrent')).toThrow(UsageError);
  });
});
