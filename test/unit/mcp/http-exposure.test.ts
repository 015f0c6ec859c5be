import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { allowedHostnames, displayHost } from '../../../src/mcp/http-exposure.js';

describe('allowedHostnames', () => {
  it('answers only loopback names on 127.0.0.1', () => {
    expect(allowedHostnames('127.0.0.1').sort()).toEqual(['127.0.0.1', '[::1]', 'localhost']);
  });

  it('adds the bind address and --allow-host names (IPv6 in brackets, names in lower case)', () => {
    const names = allowedHostnames('192.168.1.5', ['Render.Example', 'fd00::1']);
    expect(names).toEqual(
      expect.arrayContaining(['192.168.1.5', 'render.example', '[fd00::1]', 'localhost']),
    );
    expect(names).not.toContain('evil.example');
  });

  it('adds every interface address for a wildcard bind', () => {
    const names = allowedHostnames('0.0.0.0');
    for (const list of Object.values(networkInterfaces()))
      for (const i of list ?? []) if (i.family === 'IPv4') expect(names).toContain(i.address);
  });
});

describe('displayHost', () => {
  it('shows a wildcard by its loopback address and IPv6 in brackets', () => {
    expect(displayHost('0.0.0.0')).toBe('127.0.0.1');
    expect(displayHost('::')).toBe('[::1]');
    expect(displayHost('fd00::1')).toBe('[fd00::1]');
    expect(displayHost('10.0.0.2')).toBe('10.0.0.2');
  });
});
