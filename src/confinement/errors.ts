/**
 * The refusals confinement produces. Each names what was refused (the parameter, or the file a command
 * would write) and the flag that would allow it. Real paths of symlink targets are never echoed: they would
 * tell the agent about the filesystem outside its roots.
 */
import { dirname, join } from 'node:path';
import type { ErrorInfo } from '../engine/index.js';
import type { ResolveFailure } from './path-resolve.js';
import { READ_FLAG, WRITE_FLAG } from './roots.js';

const BOTH_FLAGS = `${READ_FLAG} / ${WRITE_FLAG}`;

/**
 * Who holds the roots, for remediation text: the process the person must restart to change them. The MCP
 * server by default; the app (`effectcraft-cli app`) when refusals come from its own confinement in bridge mode.
 */
export interface RestartHint {
  /** "the server", "the app". */
  who: string;
  /** Command-line prefix shown before the flag, e.g. "effectcraft-cli app " (may be empty). */
  command: string;
}

export const SERVER_RESTART: RestartHint = { who: 'the server', command: '' };

function shown(path: string): string {
  return JSON.stringify(path.replace(/\0/g, '\\0'));
}

const WHY: Record<ResolveFailure, string> = {
  relative: 'is not an absolute path',
  dot_dot: 'contains a ".." segment',
  nul: 'contains a NUL byte',
  loop: 'goes through a symbolic link loop',
  dangling: 'goes through a symbolic link whose target does not exist',
  too_long:
    'is longer than the filesystem takes (a file or folder name over 255 bytes, or a path over 4,096)',
  unresolvable: 'cannot be resolved (permission denied or changed while checking)',
};

/** A path that breaks the syntactic rules or cannot be resolved safely. */
export function unusablePath(param: string, path: string, reason: ResolveFailure): ErrorInfo {
  // A name too long to exist is inside the roots all the same: the fix is a shorter name, not another root.
  if (reason === 'too_long')
    return {
      code: 'bad_argument',
      message: `"${param}": ${shown(path)} ${WHY[reason]}.`,
      remediation: 'Use a shorter file or folder name (at most 255 bytes each).',
    };
  return {
    code: 'path_outside_roots',
    message: `"${param}": ${shown(path)} ${WHY[reason]}; while confined, paths must be absolute real locations inside the roots.`,
    remediation:
      reason === 'loop' || reason === 'dangling'
        ? 'Use a path inside the roots that does not go through a broken or looping symbolic link.'
        : 'Pass an absolute path without ".." segments inside the roots (see doc_inspect or capabilities).',
  };
}

/** A path that resolves outside the roots its access needs. */
export function outsideRoots(
  param: string,
  path: string,
  access: 'read' | 'write',
  roots: { readRoots: readonly string[]; writeRoots: readonly string[] },
  viaLink: boolean,
  restart: RestartHint = SERVER_RESTART,
): ErrorInfo {
  const { who, command } = restart;
  const where = viaLink ? ' (through a symbolic link)' : '';
  // A param that names a folder (outputDir, an overflow folder's dir) needs that folder, not its parent: the
  // flag suggested grants no more than the call asked for.
  const namesFolder = /dir$/i.test(param);
  const dir = namesFolder || dirname(path) === path ? path : dirname(path);
  if (access === 'write') {
    const none = roots.writeRoots.length === 0;
    // Through a link, the folder the path names is often a write root already (a file linked out of it):
    // restarting with it changes nothing, so the remedy names the link's target folder without telling it.
    const writeWith = viaLink
      ? `${command}${WRITE_FLAG} set to the folder the link points to`
      : `${command}${WRITE_FLAG} ${dir}`;
    return {
      code: 'path_outside_roots',
      message: none
        ? `"${param}": cannot write ${shown(path)}: no write root is set, so nothing may be written.`
        : `"${param}": ${shown(path)} is outside the write roots${where} (${roots.writeRoots.join(', ')}).`,
      remediation: none
        ? `Restart ${who} with ${command}${WRITE_FLAG} ${dir} (or another directory to write in).`
        : `Write below ${roots.writeRoots.join(' or ')}${viaLink ? ' to a path that is not a link leading out of them' : ''}, or restart ${who} with ${writeWith}.`,
    };
  }
  // A directory that is both a read and a write root is named once.
  const all = [...new Set([...roots.readRoots, ...roots.writeRoots])];
  // Through a link, the folder the path names may well be a root already: restarting with it changes
  // nothing, and where the link leads is not told (the agent may not look outside the roots).
  const restartWith = viaLink
    ? `${command}${READ_FLAG} set to the folder the link points to`
    : `${command}${READ_FLAG} ${dir}`;
  return {
    code: 'path_outside_roots',
    message: `"${param}": ${shown(path)} is outside the read and write roots${where} (${all.join(', ') || 'none'}).`,
    remediation: `Read files below ${all.join(' or ') || 'a root'}${viaLink ? ' that are not links leading out of them' : ''}, or restart ${who} with ${restartWith}.`,
  };
}

/** A write into the folder where a render node keeps uploaded samples (policy.ts, UPLOADS_FOLDER). */
export function reservedFolder(
  param: string,
  path: string,
  uploads: string,
  restart: RestartHint = SERVER_RESTART,
): ErrorInfo {
  const root = dirname(uploads);
  return {
    code: 'path_outside_roots',
    message: `"${param}": ${shown(path)} is in ${uploads}, where ${restart.who} keeps uploaded samples; commands may read them but never write there.`,
    remediation: `Write somewhere else below ${root} (e.g. ${join(root, 'out')}); to change a sample, upload the new bytes with put_sample.${param.includes(' writes') ? ` A project opened from the uploads renders its relative outputs beside it: open it with project.open {path, outputDir: "${root}"}, or give the item an absolute output (renderQueue.update {id, output}).` : ''}`,
  };
}

/** Something that cannot be confined at all (scripts, opening files with the desktop, UI driving). */
export function refusedWhileConfined(
  what: string,
  why: string,
  restart: RestartHint = SERVER_RESTART,
): ErrorInfo {
  const { who, command } = restart;
  return {
    code: 'refused_while_confined',
    message: `${what} is refused while ${who} is confined (${BOTH_FLAGS}): ${why}`,
    remediation: `Do it another way with engine commands, or restart ${who}${command ? ` (${command.trim()})` : ''} without ${READ_FLAG} and ${WRITE_FLAG} to allow it.`,
  };
}
