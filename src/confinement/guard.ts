/**
 * The engine's CommandGuard under confinement: runs after params validate and before the command, so a
 * refused command leaves the document exactly as it was.
 */
import {
  declaredPaths,
  patternOfFile,
  type AnyCommand,
  type CommandGuard,
  type ErrorInfo,
  type Project,
} from '../engine/index.js';
import { scanPaths, type FoundPath } from './deep-scan.js';
import { refusedWhileConfined } from './errors.js';
import type { Access, Policy } from './policy.js';

interface Wanted {
  param: string;
  path: string;
  access: Access;
}

/**
 * Every file the command will touch, in check order: declared path params, files it writes or reads that
 * are not params (save targets, render outputs, footage), then every other absolute path in the params.
 */
function wantedFiles(command: AnyCommand, params: unknown, view: Parameters<CommandGuard>[2]): Wanted[] {
  const out: Wanted[] = declaredPaths(command, params).map((e) => ({ ...e }));
  const writes = command.writesFiles?.(view, params) ?? [];
  writes.forEach((path, i) =>
    out.push({ param: `${command.id} writes${writes.length > 1 ? ` [${i}]` : ''}`, path, access: 'write' }),
  );
  const reads = command.readsFiles?.(view, params) ?? [];
  reads.forEach((path, i) =>
    out.push({
      param:
        footageNamed(view.doc, path) ??
        propNamed(params, view.doc, path) ??
        `${command.id} reads${reads.length > 1 ? ` [${i}]` : ''}`,
      path,
      access: 'read',
    }),
  );
  return out;
}

/**
 * The footage item a file read belongs to, as a refusal names it (`footage Bed (footage_3)`): "renderQueue.render reads
 * [0]" told an agent nothing of which of its files had become a link out of the roots.
 */
function footageNamed(doc: Project, path: string): string | null {
  const item = doc.items.find(
    (i) =>
      i.type === 'footage' &&
      (i.path === path || (!!i.media?.sequence && patternOfFile(path)?.pattern === i.media.sequence.pattern)),
  );
  return item ? `footage ${item.name} (${item.id})` : null;
}

/**
 * The template input a file read is the value of (`props.clip`, or `renderQueue item rq_4 props.clip`): a footage
 * prop is no footage item, and "frame.preview reads [1]" did not say which value was refused.
 */
function propNamed(params: unknown, doc: Project, path: string): string | null {
  const named = (props: unknown): string | null => {
    if (typeof props !== 'object' || props === null) return null;
    const hit = Object.entries(props).find(([, v]) => v === path);
    return hit ? `props.${hit[0]}` : null;
  };
  const given = named((params as { props?: unknown } | null)?.props);
  if (given) return given;
  for (const item of doc.renderQueue) {
    const stored = named(item.props);
    if (stored) return `renderQueue item ${item.id} ${stored}`;
  }
  return null;
}

/**
 * The most distinct path-like strings one command's params may hold. Each is resolved on disk (realpath, lstat)
 * before the command runs, so the check must stay small: no real command comes near this, and a request that
 * does is refused at once instead of holding the server while it resolves them.
 */
export const MAX_SCANNED_PATHS = 256;

/**
 * The path-like strings still to check, each once (a path repeated 100,000 times is resolved once), in the order
 * found, without those already checked as declared paths.
 */
function distinctPaths(found: FoundPath[], checked: ReadonlySet<string>): FoundPath[] {
  const seen = new Set<string>(checked);
  return found.filter((f) => {
    if (seen.has(f.raw)) return false;
    seen.add(f.raw);
    return true;
  });
}

function tooManyPaths(id: string, count: number): ErrorInfo {
  return {
    code: 'bad_argument',
    message: `${id}: the params hold ${count} different absolute paths; at most ${MAX_SCANNED_PATHS} are checked while confined.`,
    remediation:
      'Send fewer paths in one command (split it into several), or values that are not absolute paths.',
  };
}

/** Builds the guard; without roots it allows everything (confinement is off). */
export function createGuard(policy: Policy): CommandGuard {
  return (command, params, view): ErrorInfo | null => {
    if (!policy.confined) return null;
    // Security: scripts, Execute File and Reveal in Finder act outside the engine's model, where no path
    // check can follow them; refuse them whatever their arguments.
    if (command.unconfinable) {
      return refusedWhileConfined(
        command.id,
        'it runs code or hands files to other programs, which confinement cannot follow.',
        policy.restart,
      );
    }
    let wanted: Wanted[];
    try {
      wanted = wantedFiles(command, params, view);
    } catch {
      // Security: if we cannot tell what a command touches, we do not run it.
      return refusedWhileConfined(
        command.id,
        'the files it would touch could not be determined.',
        policy.restart,
      );
    }
    const checked = new Set<string>();
    for (const w of wanted) {
      const r = policy.check(w.path, w.access, w.param);
      if (!r.ok) return r.error;
      checked.add(w.path);
    }
    // A declared path already passed (a write check is the stricter one), so each other string is checked once.
    const rest = distinctPaths(scanPaths(params), checked);
    if (rest.length > MAX_SCANNED_PATHS) return tooManyPaths(command.id, rest.length);
    for (const found of rest) {
      if (found.path === null) {
        return {
          code: 'path_outside_roots',
          message: `"${found.param}": ${JSON.stringify(found.raw)} is a file URL that does not name a local path.`,
          remediation: 'Pass an absolute path inside the roots.',
        };
      }
      // Any absolute path must at least be readable; declared writes were checked for writing above.
      const r = policy.check(found.path, 'read', found.param);
      if (!r.ok) return r.error;
    }
    return null;
  };
}
