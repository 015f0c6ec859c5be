/** The upload decoder: strings and body bytes decode alike, and text that is not padded base64 is refused. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeBase64 } from '../../../src/mcp/base64.js';

describe('decodeBase64', () => {
  it('decodes a string and its bytes alike, across the slice boundary and with each padding', () => {
    for (const size of [0, 1, 2, 3, 48 * 1024, 48 * 1024 + 1, 200_000]) {
      const data = randomBytes(size);
      const text = data.toString('base64');
      expect(decodeBase64(text)?.equals(data)).toBe(true);
      expect(decodeBase64(Buffer.from(text, 'latin1'))?.equals(data)).toBe(true);
    }
  });

  it('refuses unpadded text, unknown characters, base64url and padding in the middle, as a string or as bytes', () => {
    const good = randomBytes(100_000).toString('base64');
    for (const bad of [
      'QUJ',
      `${good.slice(0, 40)}@@@@${good.slice(44)}`,
      `${good.slice(0, 70_000)}==${good.slice(70_002)}`,
      // base64url, unpadded or padded: only the standard alphabet is taken.
      '-_-_',
      'QQ-_',
      `${good.slice(0, 90_000)}-_${good.slice(90_002)}`,
    ]) {
      expect(decodeBase64(bad)).toBeNull();
      expect(decodeBase64(Buffer.from(bad, 'latin1'))).toBeNull();
    }
  });
});
