/**
 * What a closed stdout or stderr means (a `| head`, a log shipper that went away). For most commands a closed
 * stdout ends the work: nobody reads it (exit 0, as `yes | head` ends). For a render it must not: the files are
 * the work, and a render killed by its log reader left a `.part`, finished frames and no manifest, with exit 1 or
 * 0. A closed stderr never ends anything: diagnostics are best-effort, and a lost progress line loses nothing.
 */
type Closed = () => void;

const CLOSED = new Set(['EPIPE', 'ERR_STREAM_DESTROYED']);
let onStdoutClosed: Closed = () => process.exit(0);

/** Replaces what a closed stdout does for the running subcommand (render: go on; mcp: end as on a closed stdin). */
export function whenStdoutCloses(handler: Closed): void {
  onStdoutClosed = handler;
}

export function handleClosedPipes(): void {
  let told = false;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (!CLOSED.has(err.code ?? '')) throw err;
    if (told) return;
    told = true;
    onStdoutClosed();
  });
  process.stderr.on('error', (err: NodeJS.ErrnoException) => {
    if (!CLOSED.has(err.code ?? '')) throw err;
  });
}
