/**
 * Where `mcp --http` listens and which Host headers it answers. Without --host it stays on 127.0.0.1 and only
 * loopback names pass. With --host the bind address is allowed too, and for a wildcard (0.0.0.0, ::) every
 * address of this machine's interfaces, plus the names given with --allow-host (a DNS name, a proxy's).
 * Security: the Host check stops DNS rebinding from a browser; the bearer token is what keeps others out.
 */
import { networkInterfaces } from 'node:os';
import { isIP } from 'node:net';

export const LOOPBACK = '127.0.0.1';
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** A hostname as URL parsing gives it for a Host header: IPv6 in brackets. */
const asHostname = (address: string): string =>
  isIP(address) === 6 ? `[${address}]` : address.toLowerCase();

/** The Host names a server bound to `host` answers to. */
export function allowedHostnames(host: string, extra: readonly string[] = []): string[] {
  const names = new Set([...LOOPBACK_NAMES, ...extra.map(asHostname)]);
  if (host === '0.0.0.0' || host === '::') {
    for (const list of Object.values(networkInterfaces()))
      for (const iface of list ?? []) names.add(asHostname(iface.address.split('%')[0]!));
  } else names.add(asHostname(host));
  return [...names];
}

/** The URL printed at start-up: a wildcard bind is shown by its loopback address, which always works here. */
export function displayHost(host: string): string {
  if (host === '0.0.0.0') return LOOPBACK;
  if (host === '::') return '[::1]';
  return isIP(host) === 6 ? `[${host}]` : host;
}
