/**
 * What this server can do on this host, found by probing (a PATH lookup for ffmpeg, importing sharp and
 * @napi-rs/canvas, loading the bundled font), never by asserting. Probed once, lazily, on first use, so
 * starting the server stays cheap (clients start it twice to probe).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ConfinementInfo } from '../confinement/types.js';
import { DEFAULT_SEARCH_PATH, findExecutable } from '../node-io/search-path.js';
import { formatsWhere } from '../engine/output-formats.js';

/** The output formats that need ffmpeg, from the format table (webp-anim included). */
const FFMPEG_FORMAT_LIST = formatsWhere((s) => s.encoder === 'ffmpeg').join(', ');

/** One dependency: null when it works, else why not. */
export interface HostFacts {
  ffmpeg: { path: string } | { reason: string };
  sharp: string | null;
  canvas: string | null;
  font: string | null;
}

export interface ToolCapability {
  name: string;
  available: boolean;
  reason?: string;
  remediation?: string;
  /** Server-side time limit in seconds; null when the tool has none (long renders report progress instead). */
  timeout_s: number | null;
  /** What the tool does without, when it works but some of it does not. */
  without?: string[];
}

export interface CapabilitiesReport {
  server: string;
  version: string;
  backend: 'headless' | 'bridge';
  confinement: ConfinementInfo;
  tools: ToolCapability[];
}

const FONT = fileURLToPath(new URL('../../fixtures/fonts/inter-latin-400-normal.woff2', import.meta.url));

/** Looks for an executable on `path` (PATH-style) the way `which` does. */
/** The first executable `name` in `path` (PATH-style), or null. */
export const which = (name: string, path: string): Promise<string | null> => findExecutable(name, path);

async function importable(name: string): Promise<string | null> {
  try {
    await import(name);
    return null;
  } catch (err) {
    return `${name} does not load: ${(err as Error).message.split('\n')[0]}`;
  }
}

/**
 * Probes the host. Each probe is independent, so one broken dependency does not hide the others.
 * `searchPath` is where ffmpeg is looked for (the CLI passes $PATH).
 */
export async function probeHost(searchPath = DEFAULT_SEARCH_PATH): Promise<HostFacts> {
  const [ffmpeg, sharp, canvas, font] = await Promise.all([
    which('ffmpeg', searchPath),
    importable('sharp'),
    importable('@napi-rs/canvas'),
    readFile(FONT).then(
      (b) => (b.length > 0 ? null : 'the bundled Inter font is empty'),
      () => `the bundled Inter font is missing (${FONT})`,
    ),
  ]);
  return {
    ffmpeg: ffmpeg ? { path: ffmpeg } : { reason: 'ffmpeg was not found on PATH' },
    sharp,
    canvas,
    font,
  };
}

/** Memoises one host probe for the process; every server instance shares it. */
export class CapabilityProbe {
  #facts: Promise<HostFacts> | undefined;
  readonly #probe: () => Promise<HostFacts>;

  constructor(probe: () => Promise<HostFacts> = probeHost) {
    this.#probe = probe;
  }

  facts(): Promise<HostFacts> {
    this.#facts ??= this.#probe();
    return this.#facts;
  }
}

const FFMPEG_REMEDY =
  'Install ffmpeg (Debian/Ubuntu: apt-get install ffmpeg; macOS: brew install ffmpeg) and restart the server.';

/** Per-tool availability from the host facts. Tools not named here need nothing beyond the engine. */
export function describeTools(names: string[], facts: HostFacts): ToolCapability[] {
  const renderBlocker = facts.canvas ?? facts.sharp;
  const videoMissing = 'reason' in facts.ffmpeg;
  return names.map((name): ToolCapability => {
    // run_script's default wall-clock limit (DEFAULT_SCRIPT_TIMEOUT_MS); callers may raise it with timeout_ms.
    const timeout_s = name === 'run_script' ? 30 : null;
    // The preview player's frames are render_preview's, so it needs what render_preview needs.
    if (name === 'render_preview' || name === 'preview_player') {
      if (renderBlocker)
        return {
          name,
          available: false,
          reason: renderBlocker,
          remediation: 'Reinstall effectcraft-cli (npm ci) so its native modules match this platform.',
          timeout_s,
        };
      return facts.font
        ? { name, available: true, timeout_s, without: [`text in the bundled font: ${facts.font}`] }
        : { name, available: true, timeout_s };
    }
    if (['command_run', 'execute_command', 'command_batch', 'batch', 'run_script'].includes(name)) {
      const without: string[] = [];
      if (videoMissing)
        without.push(`video and animated formats in renders (${FFMPEG_FORMAT_LIST}): ${FFMPEG_REMEDY}`);
      if (renderBlocker) without.push(`rendering: ${renderBlocker}`);
      return without.length
        ? { name, available: true, timeout_s, without }
        : { name, available: true, timeout_s };
    }
    return { name, available: true, timeout_s };
  });
}
