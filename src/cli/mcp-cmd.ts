/**
 * `effectcraft-cli mcp`: the MCP server over stdio (default) or streamable HTTP (--http PORT, on 127.0.0.1 unless
 * --host), where it is also a render node for remote clients (uploads, get_output; docs/remote.md). With
 * --redis URL its renders run on `effectcraft-cli worker` processes (docs/distributed.md).
 * stdout carries protocol messages only; every diagnostic goes to stderr.
 */
import { EngineError } from '../engine/index.js';
import { assertRedisReachable, redisOptions } from '../render/distributed/connection.js';
import { CLI_WORDS } from './cli-words.js';
import { distributedFromFlags } from './redis-flags.js';
import { createHeadlessBackend } from '../mcp/headless-backend.js';
import { bridgeBackendFromFlags } from './bridge-backend.js';
import { parseOrHelp } from './flag-spec.js';
import { mcpSpec } from './specs/mcp.js';
import { CapabilityProbe, probeHost } from '../mcp/capabilities.js';
import { createServerFactory } from '../mcp/server.js';
import { TaskStore } from '../mcp/tasks/store.js';
import { serveMcpHttp } from '../mcp/http.js';
import { httpToken } from './http-token.js';
import { httpExposure, refuseWithoutHttp, remoteNodeFromFlags } from './remote-node-flags.js';
import { WrittenFiles } from '../mcp/remote/written-files.js';
import { serveMcpStdio } from '../mcp/stdio.js';
import { whenStdoutCloses } from './closed-pipes.js';
import { markStopping } from '../mcp/dispatch.js';
import { createSession, type Session } from '../session.js';
import { sessionEnv } from './host-env.js';
import { confinementFromFlags } from './confinement-flags.js';
import { EXIT, parsePort, printable, UsageError } from './usage.js';
import { packageVersion } from './version.js';

// A closed terminal sends SIGHUP: it ends the server like SIGTERM, with the same cleanup of partial renders.
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function log(message: string): void {
  process.stderr.write(`effectcraft-cli mcp: ${printable(message)}\n`);
}

// Redis unreachable, at start (exit 1) or later (each render's items fail not_configured), in the server's terms.
const REDIS_REMEDY =
  "Start Redis there (redis-server --port PORT), or restart the MCP server with the right --redis URL, or without --redis to render in the server's own process.";

/** Why renders on workers cannot start (a bad URL is a usage error), or null when Redis answers. */
async function redisProblem(url: string): Promise<string | null> {
  try {
    redisOptions(url);
  } catch (err) {
    if (err instanceof EngineError)
      throw new UsageError(`${err.message} ${err.toInfo(CLI_WORDS).remediation}`);
    throw err;
  }
  try {
    await assertRedisReachable(url, REDIS_REMEDY);
    return null;
  } catch (err) {
    if (!(err instanceof EngineError)) throw err;
    const info = err.toInfo(CLI_WORDS);
    return `${info.message} ${info.remediation}`;
  }
}

/**
 * Ends the preview worker and its ffmpeg decoders (the scrub cache's included) before the process exits, and
 * waits until they are reaped: orphans left to exit with the server stay zombies where nothing reaps them.
 */
async function closeRenderer(session: Session): Promise<void> {
  await (await session.renderer()).close?.();
}

export async function mcpCommand(args: string[]): Promise<number> {
  const parsed = parseOrHelp(mcpSpec, args);
  if (!parsed) return EXIT.ok;
  const { values } = parsed;
  const port = values.http === undefined ? undefined : parsePort(values.http, '--http', 0);
  if (port === undefined && (values['token-file'] !== undefined || values['token-env'] !== undefined))
    throw new UsageError('--token-file and --token-env go with --http PORT.');
  if (port === undefined) refuseWithoutHttp(values);
  const confinement = confinementFromFlags(values);
  const distributed = distributedFromFlags(values);
  if (distributed && values.bridge !== undefined)
    throw new UsageError(
      '--redis cannot be used with --bridge: in bridge mode the app renders, not this server.',
    );
  // Checked once at start: a server whose renders could only fail says so now, not at the first render.
  if (distributed) {
    const unreachable = await redisProblem(distributed.url);
    if (unreachable) {
      log(unreachable);
      return EXIT.failed;
    }
    log(
      `renders go to effectcraft-cli worker processes through ${distributed.url} (chunks of ${distributed.chunkSize} frames)`,
    );
  }

  const env = sessionEnv();
  // Over HTTP, get_output serves only the files this process writes: the session reports each one.
  const written = port === undefined ? undefined : new WrittenFiles();
  const session = createSession({
    confinement,
    logError: log,
    ...env,
    ...(written && { onFileWritten: (path: string) => written.add(path) }),
    ...(distributed && {
      renderQueue: {
        distributed: {
          ...distributed,
          version: packageVersion(),
          unreachableRemedy: REDIS_REMEDY,
          onNotice: (message: string) => log(message),
        },
      },
    }),
  });
  const remote =
    written &&
    remoteNodeFromFlags(values, {
      confinement,
      written,
      // A running render's snapshot counts too: its chunks and its sound mix open the samples it names long after
      // the project that named them was closed or changed (on workers, each chunk opens them again).
      inUse: (path) => {
        const named = JSON.stringify(path).slice(1, -1);
        return [session.engine.document, session.renderQueue.snapshot].some(
          (doc) => doc !== undefined && JSON.stringify(doc).includes(named),
        );
      },
      log,
    });
  // Bridge mode: the local session only supplies command definitions for checks before forwarding.
  const bridged = bridgeBackendFromFlags(values, {
    commands: session.engine.commands(),
    confinement,
    version: packageVersion(),
    log,
  });
  const backend = bridged ?? createHeadlessBackend(session.engine, () => session.renderQueue.running);
  // One task store for the process: every stdio connection and every HTTP request's server reads it.
  const tasks = new TaskStore({ log });
  const factory = createServerFactory(backend, {
    tasks,
    version: packageVersion(),
    confinement,
    log,
    bridge: bridged !== null,
    capabilities: new CapabilityProbe(() => probeHost(env.searchPath)),
    remote,
  });

  if (port !== undefined) {
    const { token, source, created } = await httpToken(values, process.env);
    const exposure = await httpExposure(values);
    const http = await serveMcpHttp(factory, { port, token, tokenSource: source, log, ...exposure });
    log(
      `listening on ${http.url} (requests need "Authorization: Bearer <token>"; the token is in ${source}${created ? ', created now' : ''})`,
    );
    const uploadsRefused = remote?.uploads.refusal();
    if (uploadsRefused)
      log(`uploads (put_sample) are refused: ${uploadsRefused.message} ${uploadsRefused.remediation}`);
    if (
      exposure.host !== undefined &&
      !['127.0.0.1', '::1', 'localhost'].includes(exposure.host) &&
      !exposure.tls
    )
      log('serving plain HTTP beyond loopback: put it behind a TLS proxy, or pass --tls-cert and --tls-key');
    await new Promise<void>((resolve) => {
      for (const signal of STOP_SIGNALS) process.once(signal, resolve);
    });
    await http.close();
    // A render running as a task has no one left to poll it: stop it so its exporter cleans up.
    await tasks.cancelAll();
    // So has a background (wait:false) render, as over stdio: stopped, its unfinished files removed, before the
    // samples it reads go (on workers, one waiting for a worker would otherwise keep the node from ever exiting).
    session.renderQueue.stop();
    await session.renderQueue.idle().catch(() => undefined);
    // A stopped render node leaves no uploaded samples behind.
    await remote?.uploads.close();
    await backend.close();
    await closeRenderer(session);
    return EXIT.ok;
  }

  const serving = serveMcpStdio(factory, { log });
  const stop = (signal: NodeJS.Signals) => {
    markStopping(signal);
    void serving.close();
  };
  for (const signal of STOP_SIGNALS) process.once(signal, stop);
  // A closed stdout is a client gone (nobody reads the replies): end as when it closes stdin, with the cleanup
  // of partial renders below, not at once (closed-pipes.ts).
  whenStdoutCloses(() => {
    log('stdout was closed: stopping as if the client had closed stdin.');
    void serving.close();
  });
  await serving.closed;
  await tasks.cancelAll();
  await backend.close();
  // A background (wait:false) render has no one left to report to: stop it so its exporter cleans up.
  session.renderQueue.stop();
  await session.renderQueue.idle().catch(() => undefined);
  await closeRenderer(session);
  // Replies are written; if a stray handle (a worker pool) keeps the loop alive, do not hang the client.
  setTimeout(() => process.exit(process.exitCode ?? 0), 2000).unref();
  return EXIT.ok;
}
