/**
 * `mcp --bridge PORT [--bridge-token-file PATH]`: builds the bridge Backend from CLI flags and the
 * environment (the token file's default location), so mcp-cmd.ts only swaps one Backend for another.
 */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { defaultTokenPath, readTokenFile } from '../bridge/auth.js';
import { BridgeBackend } from '../bridge/backend.js';
import { BridgeClient } from '../bridge/client.js';
import type { Confinement } from '../confinement/types.js';
import type { AnyCommand } from '../engine/index.js';
import { UsageError } from './usage.js';

export interface BridgeFlags {
  bridge?: string;
  'bridge-token-file'?: string;
  'bridge-timeout'?: string;
}

/** Null without --bridge; otherwise the Backend that forwards to the app (it connects on the first call). */
export function bridgeBackendFromFlags(
  flags: BridgeFlags,
  deps: {
    commands: readonly AnyCommand[];
    confinement?: Confinement;
    version: string;
    log(message: string): void;
  },
): BridgeBackend | null {
  if (flags.bridge === undefined) {
    if (flags['bridge-token-file'] !== undefined)
      throw new UsageError('--bridge-token-file needs --bridge PORT.');
    return null;
  }
  const port = Number(flags.bridge);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new UsageError(
      `--bridge needs the app's port (1-65535, default app port 9877), got "${flags.bridge}".`,
    );
  let timeoutMs: number | undefined;
  if (flags['bridge-timeout'] !== undefined) {
    timeoutMs = Number(flags['bridge-timeout']);
    if (!Number.isInteger(timeoutMs) || timeoutMs < 10)
      throw new UsageError('--bridge-timeout must be milliseconds >= 10.');
  }
  const tokenPath = resolve(
    flags['bridge-token-file'] ??
      defaultTokenPath(port, { runtimeDir: process.env.XDG_RUNTIME_DIR || undefined, home: homedir() }),
  );
  const client = new BridgeClient({
    port,
    tokenPath,
    tokenPathGiven: flags['bridge-token-file'] !== undefined,
    readToken: () => readTokenFile(tokenPath),
    client: { name: 'effectcraft-cli mcp', version: deps.version },
    requestTimeoutMs: timeoutMs,
    log: deps.log,
  });
  deps.log(`bridge mode: forwarding to the app on 127.0.0.1:${port} (token file ${tokenPath})`);
  return new BridgeBackend({
    client,
    commands: deps.commands,
    confinement: deps.confinement,
    longRequestTimeoutMs: timeoutMs,
  });
}
