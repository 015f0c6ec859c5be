/**
 * `effectcraft-cli app`: the EffectCraft app. It keeps one session open, serves it over the control channel
 * (docs/control-channel.md) and serves the studio, its face in the browser (docs/studio.md), on the same port,
 * until SIGINT/SIGTERM/SIGHUP.
 */
import type { Server } from 'node:http';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { defaultTokenPath, newToken, removeTokenFile, writeTokenFile } from '../bridge/auth.js';
import { startBridgeHost } from '../bridge/host.js';
import { createStudio, listenStudio } from '../studio/server/index.js';
import { openInBrowser } from './open-browser.js';
import { DEFAULT_HOST, DEFAULT_PORT, PROTOCOL_VERSION } from '../bridge/protocol.js';
import { parseOrHelp } from './flag-spec.js';
import { appSpec } from './specs/app.js';
import { createSession } from '../session.js';
import { findFfmpeg } from '../render/queue/exporters/ffmpeg.js';
import { sessionEnv } from './host-env.js';
import { confinementFromFlags } from './confinement-flags.js';
import { EXIT, parseMs, parsePort, printable } from './usage.js';
import type { RestartHint } from '../confinement/index.js';
import { packageVersion } from './version.js';

/** Names the app's flag in its refusals: `restart the app with effectcraft-cli app --automation-write-root DIR`. */
export const APP_RESTART: RestartHint = { who: 'the app', command: 'effectcraft-cli app ' };

export async function appCommand(args: string[]): Promise<number> {
  const parsed = parseOrHelp(appSpec, args);
  if (!parsed) return EXIT.ok;
  const { values } = parsed;
  const port = parsePort(values.port, '--port', DEFAULT_PORT);
  const log = (message: string) => process.stderr.write(`effectcraft-cli app: ${printable(message)}\n`);
  // Refusals from the app's own roots must tell the person to restart the app, not the MCP server.
  const confinement = confinementFromFlags(values, APP_RESTART);
  const session = createSession({ confinement, logError: log, ...sessionEnv() });
  const { engine } = session;

  if (values.project !== undefined) {
    const opened = await engine.execute('project.open', { path: resolve(values.project) });
    if (!opened.ok) {
      log(`${opened.error.message} ${opened.error.remediation}`);
      return EXIT.failed;
    }
  }

  const token = newToken();
  const listenHost = values.host ?? DEFAULT_HOST;
  const identity = {
    app: 'effectcraft-cli app',
    version: packageVersion(),
    capabilities: {
      ui: true,
      commands: true,
      render: engine.command('renderQueue.render') !== undefined,
    },
    confinement: confinement?.info ?? { confined: false, readRoots: [], writeRoots: [] },
  };
  const { searchPath } = sessionEnv();
  const studio = createStudio({
    engine,
    renderer: session.renderer,
    findFfmpeg: () => findFfmpeg(searchPath),
    identity,
    onRenderProgress: (listener) => session.renderQueue.onProgress(listener),
    log,
    searchPath: searchPath ?? process.env.PATH ?? '',
    explicitBrowser: process.env.EFFECTCRAFT_CHROMIUM || undefined,
    groupTimeoutMs: parseMs(values['group-timeout'], '--group-timeout'),
  });
  const studioPort =
    values['studio-port'] === undefined ? undefined : parsePort(values['studio-port'], '--studio-port', 0);
  let host;
  let studioServer: Server | undefined;
  try {
    host = await startBridgeHost({
      engine,
      token,
      port,
      host: values.host ?? DEFAULT_HOST,
      allowedOrigins: values['allow-origin'] ?? [],
      pingIntervalMs: parseMs(values['ping-interval'], '--ping-interval'),
      groupTimeoutMs: parseMs(values['group-timeout'], '--group-timeout'),
      onRenderProgress: (listener) => session.renderQueue.onProgress(listener),
      identity,
      log,
      ui: studio.hub,
      ...(studioPort === undefined && { http: studio }),
    });
    if (studioPort === undefined) studio.bind(host.host, host.port);
    else studioServer = await listenStudio(studio, listenHost, studioPort);
  } catch (err) {
    await host?.close();
    await studio.close();
    const code = (err as NodeJS.ErrnoException).code;
    log(
      code === 'EADDRINUSE'
        ? `port ${port} is already in use (another app running?). Choose another with --port.`
        : `cannot listen on ${values.host ?? DEFAULT_HOST}:${port}: ${(err as Error).message}`,
    );
    return EXIT.failed;
  }

  const tokenPath = resolve(
    values['token-file'] ??
      defaultTokenPath(host.port, { runtimeDir: process.env.XDG_RUNTIME_DIR || undefined, home: homedir() }),
  );
  try {
    await writeTokenFile(tokenPath, token);
  } catch (err) {
    log(`cannot write the token file ${tokenPath}: ${(err as Error).message}`);
    await host.close();
    return EXIT.failed;
  }
  if (host.host !== '127.0.0.1' && host.host !== '::1' && host.host !== 'localhost')
    log(`warning: listening on ${host.host}, not only loopback; protect the token file.`);
  log(`control channel (protocol ${PROTOCOL_VERSION}) listening on ws://${host.host}:${host.port}`);
  log(`token file: ${tokenPath}`);
  // A one-time link: it signs this browser in with a cookie, then the address bar shows the plain URL.
  const studioLink = studio.link();
  log(`studio: ${studioLink}`);
  if (values.open) openInBrowser(studioLink, { searchPath: searchPath ?? process.env.PATH ?? '', log });
  if (values['studio-headless']) {
    try {
      log(`studio opened headless in ${await studio.startHeadless()}`);
    } catch (err) {
      log(
        `warning: --studio-headless: ${(err as Error).message} UI tools will answer not_configured until a studio page is open.`,
      );
    }
  }
  log(
    `connect an agent with: effectcraft-cli mcp --bridge ${host.port}${values['token-file'] ? ` --bridge-token-file ${tokenPath}` : ''}`,
  );

  await new Promise<void>((done) => {
    const stop = (signal: NodeJS.Signals) => {
      log(`${signal}: closing`);
      // SIGHUP too: closing the terminal the app runs in must clean up like Ctrl-C.
      for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.off(s, stop);
      done();
    };
    for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, stop);
  });
  await studio.close();
  await host.close();
  if (studioServer) {
    studioServer.closeAllConnections();
    await new Promise<void>((r) => studioServer.close(() => r()));
  }
  await removeTokenFile(tokenPath, token);
  // A background render has no one left to report to: stop it so its exporter removes partial files.
  session.renderQueue.stop();
  await session.renderQueue.idle().catch(() => undefined);
  log('closed');
  // If a stray handle (a worker pool) keeps the loop alive, do not hang the shutdown.
  setTimeout(() => process.exit(process.exitCode ?? 0), 2000).unref();
  return EXIT.ok;
}
