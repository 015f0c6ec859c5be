/**
 * Confined engine ports: every read and write that happens after a command was admitted (footage read
 * while rendering or previewing, a project's save, a probe) is checked again at use time, against the real
 * filesystem, and performed through the TOCTOU-safe opens of `safe-io.ts`.
 */
import { EngineError, type EnginePorts } from '../engine/index.js';
import { refusedWhileConfined } from './errors.js';
import type { Access, Policy } from './policy.js';
import { openMediaConfined, readConfined, writeConfined } from './safe-io.js';

/**
 * Security: the command guard cannot see everything a command will touch (a project opened from inside a
 * root may reference footage anywhere), so the ports are the last line: nothing is read or written without
 * passing here.
 */
export function wrapPortsWith(base: EnginePorts, policy: Policy): EnginePorts {
  if (!policy.confined) return base;
  const readable = [...policy.roots.readRoots, ...policy.roots.writeRoots];
  const writable = policy.roots.writeRoots;

  const checked = (path: string, access: Access, param: string): string => {
    const r = policy.check(path, access, param);
    if (!r.ok) throw new EngineError(r.error.code, r.error.message, r.error.remediation);
    return r.real;
  };

  return {
    async readFile(path) {
      return readConfined(checked(path, 'read', 'file read'), readable, path, 'file read');
    },
    async writeFileAtomic(path, data) {
      return writeConfined(checked(path, 'write', 'file write'), writable, data, path, 'file write');
    },
    async exists(path) {
      // Security: answering false for an outside path would still leak; an outside path is an error.
      checked(path, 'read', 'file check');
      return base.exists(path);
    },
    async isFile(path) {
      checked(path, 'read', 'file check');
      return base.isFile(path);
    },
    async probeImage(path) {
      // The probe reads through the base port by path; a swap in that window can reveal only an image's
      // size and format, and the pixels are read later through readFile, which is checked at the open.
      const real = checked(path, 'read', 'image probe');
      const info = await base.probeImage(real);
      const again = policy.check(path, 'read', 'image probe');
      if (!again.ok || again.real !== real) {
        throw new EngineError(
          'path_outside_roots',
          `"image probe": ${JSON.stringify(path)} changed while it was being read; refused.`,
          'Use a path inside the roots that is not being replaced while the command runs.',
        );
      }
      return info;
    },
    async openMedia(path) {
      return openMediaConfined(checked(path, 'read', 'media read'), readable, path, 'media read');
    },
    // The file was opened through openMedia above (checked at the open); ffprobe reads that descriptor.
    probeMedia: (file, shownPath) => base.probeMedia(file, shownPath),
    async openWithOs() {
      const e = refusedWhileConfined(
        'Opening files with the desktop',
        'other programs are outside its reach.',
        policy.restart,
      );
      throw new EngineError(e.code, e.message, e.remediation);
    },
    startScript() {
      // Security: the guard refuses script commands already; a script thread can reach all of Node, so the
      // port refuses too, in case a command that starts one is ever admitted.
      const e = refusedWhileConfined(
        'Running scripts',
        'a script can do anything the process can.',
        policy.restart,
      );
      throw new EngineError(e.code, e.message, e.remediation);
    },
  };
}
