/**
 * The render-node side of `mcp --http` from its flags (docs/remote.md): where it listens, TLS, the request body
 * limit, and the process's RemoteNode (upload store under the first write root, get_output over the files this
 * process writes, the limit on calls in flight). Options are normalised here once; src/mcp takes them as given.
 */
import { readFile } from 'node:fs/promises';
import type { Confinement } from '../confinement/types.js';
import { CallLimit } from '../mcp/remote/call-limit.js';
import { OutputReader } from '../mcp/remote/output-reader.js';
import type { RemoteNode } from '../mcp/remote/remote-node.js';
import { UploadStore } from '../mcp/remote/upload-store.js';
import type { WrittenFiles } from '../mcp/remote/written-files.js';
import type { HttpServeOptions } from '../mcp/http.js';
import { parseByteSize, parseCount } from './byte-size.js';
import { UsageError } from './usage.js';

export interface RemoteNodeFlags {
  host?: string;
  'allow-host'?: string[];
  'tls-cert'?: string;
  'tls-key'?: string;
  'max-body'?: string;
  'max-concurrent'?: string;
  'max-upload'?: string;
  'max-upload-total'?: string;
  'upload-idle-ms'?: string;
}

const HTTP_ONLY = [
  'host',
  'allow-host',
  'tls-cert',
  'tls-key',
  'max-body',
  'max-concurrent',
  'max-upload',
  'max-upload-total',
  'upload-idle-ms',
] as const;

/** Throws a usage error when a render-node flag is given without --http. */
export function refuseWithoutHttp(flags: RemoteNodeFlags): void {
  const given = HTTP_ONLY.filter((f) => flags[f] !== undefined);
  if (given.length)
    throw new UsageError(
      `${given.map((f) => `--${f}`).join(', ')} go${given.length > 1 ? '' : 'es'} with --http PORT.`,
    );
}

/** Listening options from the flags (the certificate files are read here, at start-up). */
export async function httpExposure(
  flags: RemoteNodeFlags,
): Promise<Pick<HttpServeOptions, 'host' | 'allowHosts' | 'tls' | 'maxBody'>> {
  if ((flags['tls-cert'] === undefined) !== (flags['tls-key'] === undefined))
    throw new UsageError('--tls-cert and --tls-key go together.');
  const read = (path: string, flag: string) =>
    readFile(path).catch((err: NodeJS.ErrnoException) => {
      throw new UsageError(`${flag} ${path}: ${err.code ?? err.message}. Pass a readable PEM file.`);
    });
  const tls =
    flags['tls-cert'] !== undefined && flags['tls-key'] !== undefined
      ? { cert: await read(flags['tls-cert'], '--tls-cert'), key: await read(flags['tls-key'], '--tls-key') }
      : undefined;
  return {
    host: flags.host,
    allowHosts: flags['allow-host'] ?? [],
    tls,
    maxBody: parseByteSize(flags['max-body'], '--max-body', 64 * 1024),
  };
}

/** The process's RemoteNode; `written` must be the registry the session reports its writes to. */
export function remoteNodeFromFlags(
  flags: RemoteNodeFlags,
  context: {
    confinement: Confinement | undefined;
    written: WrittenFiles;
    /** Whether a path is named by the open project or a running render's snapshot (such uploads do not expire). */
    inUse: (path: string) => boolean;
    log: (message: string) => void;
  },
): RemoteNode {
  const maxUploadBytes = parseByteSize(flags['max-upload'], '--max-upload');
  const maxTotalBytes = parseByteSize(flags['max-upload-total'], '--max-upload-total');
  const idleMs = flags['upload-idle-ms'] === undefined ? undefined : Number(flags['upload-idle-ms']);
  if (idleMs !== undefined && !(Number.isInteger(idleMs) && idleMs >= 100))
    throw new UsageError('--upload-idle-ms must be milliseconds >= 100.');
  const uploads = new UploadStore({
    // Uploads live in the first write root: readable by the confined commands the client calls next.
    writeRoot: context.confinement?.info.writeRoots[0],
    limits: {
      ...(maxUploadBytes !== undefined && { maxUploadBytes }),
      ...(maxTotalBytes !== undefined && { maxTotalBytes }),
      ...(idleMs !== undefined && { idleMs }),
    },
    inUse: context.inUse,
    log: context.log,
  });
  return {
    uploads,
    outputs: new OutputReader(context.written, context.confinement),
    calls: new CallLimit(parseCount(flags['max-concurrent'], '--max-concurrent')),
  };
}
