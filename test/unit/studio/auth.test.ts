import { describe, expect, it } from 'vitest';
import { readCookie, StudioAuth } from '../../../src/studio/server/auth.js';

describe('StudioAuth', () => {
  it('redeems a link token once, and only while it is fresh', () => {
    let now = 0;
    const auth = new StudioAuth({ now: () => now });
    auth.bind('127.0.0.1', 9877);
    const token = auth.mintLink();
    const session = auth.redeem(token);
    expect(session).toMatch(/^[0-9a-f]{64}$/);
    expect(auth.redeem(token)).toBeNull();
    const stale = auth.mintLink();
    now += 25 * 60 * 60 * 1000;
    expect(auth.redeem(stale)).toBeNull();
    expect(auth.checkSession(`effectcraft_studio=${session}`)).toEqual({ ok: true });
    expect(auth.checkSession(`effectcraft_studio=${session}x`)).toMatchObject({ ok: false, status: 401 });
  });

  it('accepts the loopback names for a loopback listener, and nothing else', () => {
    const auth = new StudioAuth();
    auth.bind('127.0.0.1', 9877);
    for (const host of ['127.0.0.1:9877', 'localhost:9877', 'LOCALHOST:9877', '[::1]:9877'])
      expect(auth.checkHost(host), host).toEqual({ ok: true });
    for (const host of ['evil.example:9877', '127.0.0.1:9878', '127.0.0.1', undefined])
      expect(auth.checkHost(host), String(host)).toMatchObject({ ok: false, status: 403 });
  });

  it('checks the live channel: Host, then the Origin, then the cookie', () => {
    const auth = new StudioAuth();
    auth.bind('127.0.0.1', 9877);
    const session = auth.redeem(auth.mintLink())!;
    const cookie = `other=1; effectcraft_studio=${session}`;
    expect(auth.checkLive({ host: '127.0.0.1:9877', origin: 'http://127.0.0.1:9877', cookie })).toEqual({
      ok: true,
    });
    expect(auth.checkLive({ host: '127.0.0.1:9877', origin: 'http://evil.example', cookie })).toMatchObject({
      status: 403,
    });
    expect(auth.checkLive({ host: '127.0.0.1:9877', cookie })).toMatchObject({ status: 403 });
    expect(auth.checkLive({ host: '127.0.0.1:9877', origin: 'http://localhost:9877' })).toMatchObject({
      status: 401,
    });
  });

  it('reads a cookie among others', () => {
    expect(readCookie('a=1; effectcraft_studio=abc; b=2', 'effectcraft_studio')).toBe('abc');
    expect(readCookie('xeffectcraft_studio=abc', 'effectcraft_studio')).toBeNull();
    expect(readCookie(undefined, 'effectcraft_studio')).toBeNull();
  });
});
