/**
 * The Node.js implementation of the engine's ports: real files, sharp for image headers, xdg-open, scripts in
 * worker threads.
 */
import { promises as fs } from 'node:fs';
import { execFile } from 'node:child_process';
import { basename, dirname } from 'node:path';
import { EngineError, fsError } from '../engine/errors.js';
import type { EnginePorts, ImageInfo } from '../engine/ports.js';
import { writeFileAtomic } from './atomic-write.js';
import { readRegularFile } from './read-regular.js';
import { startScriptThread } from './script-thread.js';
import { openMediaFile } from './media-file.js';
import { emptyFile, incompleteFile } from './incomplete-file.js';
import { findExecutable } from './search-path.js';
import { missingFfprobe, probeMedia } from '../render/media/probe.js';
import { settleGifAlpha } from '../render/media/gif-alpha.js';
import { apngFrames } from './apng.js';
import { imageHeader, tooManyPixels } from '../render/image-pixels.js';
import { orientationTurn, uprightSize } from '../render/still-orientation.js';

/** Reads a regular file within the size bound; fs errors become coded engine errors. */
function readFile(path: string): Promise<Buffer> {
  return readRegularFile(path).catch((err: unknown) => {
    throw err instanceof EngineError ? err : fsError(err, path, 'read');
  });
}

async function probeImage(path: string): Promise<ImageInfo> {
  const data = await readFile(path);
  if (data.length === 0) throw emptyFile(path);
  const meta = await imageHeader(data).catch(() => null);
  const huge = meta?.width && meta.height ? tooManyPixels(path, meta.width, meta.height) : null;
  if (huge) throw huge;
  try {
    if (!meta?.width || !meta.height || !meta.format) throw new Error('no size');
    // The size as shown: a phone's portrait JPEG is stored landscape with an EXIF orientation to turn it by.
    const { width, height } = uprightSize(meta);
    return {
      width,
      height,
      format: String(meta.format) === 'jpg' ? 'jpeg' : meta.format,
      alpha: meta.hasAlpha ?? false,
      frames: (meta.format === 'png' ? apngFrames(data) : null) ?? meta.pages ?? 1,
      rotation: orientationTurn(meta.orientation),
    };
  } catch {
    throw new EngineError(
      'unsupported_format',
      `"${basename(path)}" is not an image EffectCraft can read.`,
      'Import a PNG, JPEG, WebP, GIF or SVG file.',
    );
  }
}

function which(cmd: string): Promise<boolean> {
  return new Promise((resolve) => execFile('which', [cmd], (err) => resolve(!err)));
}

async function openWithOs(path: string, mode: 'open' | 'reveal'): Promise<void> {
  const mac = process.platform === 'darwin';
  const opener = mac ? 'open' : 'xdg-open';
  if (!(await which(opener))) {
    throw new EngineError(
      'missing_dependency',
      `No desktop handler to ${mode === 'open' ? 'open' : 'reveal'} files: "${opener}" is not installed.`,
      mac
        ? 'Run on a macOS desktop session.'
        : 'Install xdg-utils (apt-get install xdg-utils) in a desktop session.',
    );
  }
  const args = mac && mode === 'reveal' ? ['-R', path] : [mode === 'reveal' ? dirname(path) : path];
  await new Promise<void>((resolve, reject) =>
    execFile(opener, args, { timeout: 10_000 }, (err, _stdout, stderr) =>
      err ? reject(openerFailure(opener, mode, args.at(-1) ?? path, err, String(stderr))) : resolve(),
    ),
  );
}

/**
 * Why the desktop opener failed, in one line. xdg-open on a machine without a desktop session (a server, a
 * container: this engine's usual home) tries a list of browsers, prints a "not found" line for each and exits 3,
 * "a required tool could not be found"; that whole dump, with the script's line numbers, used to be the message,
 * as tool_failed, the code kept for unexpected faults. Exit 3 is a missing dependency; any other failure keeps
 * tool_failed with the last line the opener printed, which says what went wrong.
 */
function openerFailure(
  opener: string,
  mode: 'open' | 'reveal',
  target: string,
  err: Error & { code?: unknown },
  stderr: string,
): EngineError {
  const verb = mode === 'open' ? 'open' : 'show';
  if (err.code === 3)
    return new EngineError(
      'missing_dependency',
      `No desktop application to ${verb} "${target}" with: ${opener} found none, as on a machine without a desktop session.`,
      'Open the file yourself, or run EffectCraft in a desktop session (DISPLAY or WAYLAND_DISPLAY set) that has an application for it.',
    );
  const said = stderr.trim().split('\n').at(-1)?.trim() || err.message.split('\n')[0];
  const what = `${opener} could not ${verb} "${target}" (${said})`;
  return new EngineError('tool_failed', `${what}.`, 'Check that a desktop session is running.');
}

/** What the script threads write (stdout and stderr) goes to our stderr: stdout is `mcp`'s protocol channel. */
const scriptOutputToStderr = (chunk: Buffer) => void process.stderr.write(chunk);

export interface NodePortsOptions {
  /** Where ffprobe is looked for, PATH-style (the CLI passes $PATH). Default: DEFAULT_SEARCH_PATH. */
  searchPath?: string;
}

export function createNodePorts(options: NodePortsOptions = {}): EnginePorts {
  return {
    readFile,
    writeFileAtomic: (path, data) =>
      writeFileAtomic(path, data).catch((err: unknown) => {
        throw fsError(err, path, 'write');
      }),
    exists: (path) =>
      fs.access(path).then(
        () => true,
        () => false,
      ),
    isFile: (path) =>
      fs.stat(path).then(
        (st) => st.isFile(),
        () => false,
      ),
    probeImage,
    openMedia: (path) =>
      openMediaFile(path).catch((err: unknown) => {
        throw err instanceof EngineError ? err : fsError(err, path, 'read');
      }),
    async probeMedia(file, shownPath, probeOptions) {
      const ffprobe = await findExecutable('ffprobe', options.searchPath);
      if (!ffprobe) throw missingFfprobe();
      const probe = await probeMedia(ffprobe, file.childPath, shownPath, probeOptions).catch(
        async (err: unknown) => {
          // ffprobe's "Invalid data" for an empty or cut-off file sends people to convert it: say what it is.
          if (err instanceof EngineError && err.code === 'unsupported_format')
            throw (await incompleteFile(file.childPath, shownPath)) ?? err;
          throw err;
        },
      );
      // An MP4/MOV with its index at the front probes as whole though its media is cut off (a copy stopped
      // half-way): it imports, and a render fails where the frames stop, so the import says so at once.
      const cut = await incompleteFile(file.childPath, shownPath);
      const settled = await settleGifAlpha(
        probe,
        () => findExecutable('ffmpeg', options.searchPath),
        file.childPath,
      );
      if (!cut) return settled;
      const what = `${cut.message} It was imported: its layers show what decodes, and a render that reaches past that fails (unsupported_format).`;
      return { ...settled, warnings: [...(settled.warnings ?? []), `${what} ${cut.remediation}`] };
    },
    openWithOs,
    startScript: (data, events) => startScriptThread(data, events, scriptOutputToStderr),
  };
}
