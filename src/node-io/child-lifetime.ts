/**
 * Media children that end with the thread that started them. A render worker killed outright (SIGKILL, the
 * OOM killer, a machine's operator) runs no cleanup, and an ffmpeg it started that reads files rather than
 * our pipe (the sound mix of a distributed assembly, minutes long for a long composition) went on alone to its
 * end, writing a temporary nobody would remove. On Linux, util-linux's `setpriv --pdeathsig KILL` (in every
 * Debian and most distributions: util-linux is essential) starts the child with a parent-death signal, so the
 * kernel kills it the moment its parent thread is gone. Elsewhere, or without setpriv, children start as
 * before. setpriv execs the command in place: the pid stays the child's.
 */
import { accessSync, constants } from 'node:fs';

const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'];

let found: string | null | undefined;

function setpriv(): string | null {
  if (found === undefined) {
    found =
      process.platform !== 'linux'
        ? null
        : (SETPRIV.find((p) => {
            try {
              accessSync(p, constants.X_OK);
              return true;
            } catch {
              return false;
            }
          }) ?? null);
  }
  return found;
}

/** `cmd args` as spawned so that the child is killed when the thread spawning it ends. */
export function tiedToParent(cmd: string, args: readonly string[]): [string, string[]] {
  const via = setpriv();
  return via ? [via, ['--pdeathsig', 'KILL', '--', cmd, ...args]] : [cmd, [...args]];
}
