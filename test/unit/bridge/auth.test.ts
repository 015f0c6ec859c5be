import { stat, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bearerToken,
  checkUpgrade,
  defaultTokenPath,
  newToken,
  readTokenFile,
  removeTokenFile,
  tokenMatches,
  writeTokenFile,
} from '../../../src/bridge/auth.js';
import { tempDir } from '../../helpers/tmp.js';

describe('tokens', () => {
  it('are 32 random bytes in hex, different each time', () => {
    const a = newToken();
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(newToken()).not.toBe(a);
  });

  it('match only exactly', () => {
    const t = newToken();
    expect(tokenMatches(t, t)).toBe(true);
    expect(tokenMatches(t, t.slice(0, -1) + (t.endsWith('0') ? '1' : '0'))).toBe(false);
    expect(tokenMatches(t, t.slice(1))).toBe(false);
    expect(tokenMatches(t, '')).toBe(false);
    expect(tokenMatches(t, null)).toBe(false);
  });

  it('come from a Bearer authorization header', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer abc ')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeNull();
    expect(bearerToken(undefined)).toBeNull();
  });
});

describe('token files', () => {
  it('default to the runtime dir, else the config dir, one per port', () => {
    expect(defaultTokenPath(9877, { runtimeDir: '/run/user/1000', home: '/home/a' })).toBe(
      '/run/user/1000/effectcraft/bridge-9877.token',
    );
    expect(defaultTokenPath(9000, { home: '/home/a' })).toBe('/home/a/.config/effectcraft/bridge-9000.token');
  });

  it('are written with mode 0600 in a 0700 directory and read back', async () => {
    const dir = join(await tempDir(), 'effectcraft');
    const path = join(dir, 'bridge-1.token');
    const token = newToken();
    const oldMask = process.umask(0);
    try {
      await writeTokenFile(path, token);
    } finally {
      process.umask(oldMask);
    }
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect(await readTokenFile(path)).toEqual({ ok: true, token });
  });

  it('replace an older file atomically and keep mode 0600', async () => {
    const path = join(await tempDir(), 'bridge.token');
    await writeFile(path, 'old\n', { mode: 0o644 });
    const token = newToken();
    await writeTokenFile(path, token);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await readFile(path, 'utf8')).trim()).toBe(token);
  });

  it('are removed only while they still hold our token', async () => {
    const path = join(await tempDir(), 'bridge.token');
    await writeTokenFile(path, 'mine');
    await removeTokenFile(path, 'someone-else');
    expect(await readTokenFile(path)).toEqual({ ok: true, token: 'mine' });
    await removeTokenFile(path, 'mine');
    expect(await readTokenFile(path)).toEqual({ ok: false, reason: 'missing' });
    await removeTokenFile(path, 'mine'); // already gone: no error
  });

  it('report an empty file', async () => {
    const path = join(await tempDir(), 'bridge.token');
    await writeFile(path, '\n');
    expect(await readTokenFile(path)).toEqual({ ok: false, reason: 'empty' });
  });
});

describe('checkUpgrade', () => {
  const token = 'secret';
  it('lets a native client with the token in', () => {
    expect(checkUpgrade({ authorization: 'Bearer secret' }, token, [])).toEqual({ ok: true });
  });
  it('refuses a missing or wrong token with 401', () => {
    expect(checkUpgrade({}, token, [])).toMatchObject({ ok: false, status: 401 });
    expect(checkUpgrade({ authorization: 'Bearer nope' }, token, [])).toMatchObject({
      ok: false,
      status: 401,
    });
  });
  it('refuses any browser Origin that is not allowed with 403, even with the right token', () => {
    expect(
      checkUpgrade({ authorization: 'Bearer secret', origin: 'http://evil.example' }, token, []),
    ).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(checkUpgrade({ authorization: 'Bearer secret', origin: 'null' }, token, [])).toMatchObject({
      status: 403,
    });
  });
  it('lets an explicitly allowed Origin in with the token', () => {
    expect(
      checkUpgrade({ authorization: 'Bearer secret', origin: 'http://localhost:3000' }, token, [
        'http://localhost:3000',
      ]),
    ).toEqual({ ok: true });
  });
});
