/**
 * `app --open`: hands the studio link to the desktop's default browser (xdg-open, open, or start), detached, so
 * the browser outlives nothing of ours and its output never reaches our stderr. Where there is no desktop
 * opener (a server), it says so and the printed link remains the way in.
 */
import { spawn } from 'node:child_process';
import { findExecutable } from '../node-io/search-path.js';

export function openInBrowser(url: string, options: { searchPath: string; log: (m: string) => void }): void {
  void (async () => {
    const opener =
      process.platform === 'darwin'
        ? await findExecutable('open', options.searchPath)
        : process.platform === 'win32'
          ? 'explorer.exe'
          : await findExecutable('xdg-open', options.searchPath);
    if (!opener) {
      options.log('--open: no desktop browser opener (xdg-open) here; open the studio link above yourself.');
      return;
    }
    const child = spawn(opener, [url], { detached: true, stdio: 'ignore' });
    child.on('error', (err) => options.log(`--open: ${err.message}; open the studio link above yourself.`));
    child.unref();
  })();
}
