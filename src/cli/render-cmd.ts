/**
 * `effectcraft-cli render PROJECT`: renders a project's render queue headless (or one comp with --comp and
 * --output), with progress on stderr, Ctrl-C to cancel with exact cleanup, and a summary on stdout.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  ALPHA_FORMATS,
  describeFormats,
  formatSpec,
  formatsWhere,
  listWords,
  OUTPUT_FORMATS,
  type ErrorInfo,
} from '../engine/index.js';
import type { JobResult } from '../render/queue/service.js';
import { createSession } from '../session.js';
import { sessionEnv } from './host-env.js';
import { ProgressView } from './render-progress.js';
import { EXIT, printable, UsageError } from './usage.js';

// The format lists come from the format table, so a new format shows up here without an edit.
const ALPHA_HELP = `RGB + Alpha: transparent background, straight alpha (${describeFormats(ALPHA_FORMATS, true).join(', ')}; refused for ${listWords(
  OUTPUT_FORMATS.filter((f) => !formatSpec(f).alpha),
  'and',
)})`;

const AUDIO_HELP = `leave the composition's sound out (by default it is mixed to 48 kHz stereo and muxed into ${listWords(
  formatsWhere((f) => f.sound === 'muxed'),
  'and',
)}; ${listWords(
  formatsWhere((f) => f.sound === 'only'),
  'and',
)} are the sound alone)`;

export const renderHelp = `Usage: effectcraft-cli render PROJECT [--item ID ...] [--resume]
       effectcraft-cli render PROJECT --comp NAME --output TEMPLATE [--format F] [--frames A-B]
                              [--scale S] [--skip-existing] [--alpha] [--no-audio]

Renders the project's render queue (or only the --item ids). With --comp and --output it renders that
composition instead, as a temporary queue item (the project file is not changed). Relative paths are
resolved against the current directory; relative outputs stored in the project against its folder.
  --item ID        render only this queue item (repeatable)
  --comp NAME      composition name or id to render
  --output T       output path template: shot_[#####].png for sequences, out.mp4 for video
  --format F       ${wrap(`${OUTPUT_FORMATS.join(', ')} (default: from the extension)`, 88, ' '.repeat(19))}
  --frames A-B     inclusive frame range
  --scale S        output size factor (1, 0.5, 0.25, ...)
  --skip-existing  leave frames whose file already exists untouched
  --resume         resumable render (as aerender's): skip frames and files that exist, and on Ctrl-C,
                   SIGTERM or a failure keep the frames already written; run again with --resume to go on
  --alpha          ${wrap(ALPHA_HELP, 88, ' '.repeat(19))}
  --no-audio       ${wrap(AUDIO_HELP, 88, ' '.repeat(19))}
  --json           print the result as JSON
Progress goes to stderr. Ctrl-C stops the render and removes its unfinished files, putting back any earlier
file it replaced (exit 130); SIGTERM and SIGHUP do the same (exit 143 and 129). See docs/exporters.md.
Exit codes: 0 all items rendered, 1 an item failed or was stopped, 2 usage error, 130/143/129 interrupted
by SIGINT/SIGTERM/SIGHUP.`;

/** Breaks `text` into lines of at most `width` characters, continuation lines indented by `indent`. */
function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join(`\n${indent}`);
}

interface Args {
  project: string;
  items?: string[];
  comp?: string;
  output?: string;
  format?: string;
  frames?: { start: number; end: number };
  scale?: number;
  skipExisting: boolean;
  resume: boolean;
  alpha: boolean;
  noAudio: boolean;
  json: boolean;
}

function parse(args: string[]): Args | null {
  const { values, positionals } = parseArgs({
    args,
    options: {
      item: { type: 'string', multiple: true },
      comp: { type: 'string' },
      output: { type: 'string' },
      format: { type: 'string' },
      frames: { type: 'string' },
      scale: { type: 'string' },
      'skip-existing': { type: 'boolean' },
      resume: { type: 'boolean' },
      alpha: { type: 'boolean' },
      'no-audio': { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) return null;
  if (positionals.length !== 1) throw new UsageError('expected exactly one PROJECT file.');
  if (Boolean(values.comp) !== Boolean(values.output))
    throw new UsageError('--comp and --output go together.');
  const single =
    values.format ??
    values.frames ??
    values.scale ??
    values['skip-existing'] ??
    values.alpha ??
    values['no-audio'];
  if (!values.comp && single !== undefined)
    throw new UsageError(
      '--format, --frames, --scale, --skip-existing, --alpha and --no-audio need --comp and --output.',
    );
  if (values.comp && values.item) throw new UsageError('use either --item or --comp/--output, not both.');
  let frames: Args['frames'];
  if (values.frames !== undefined) {
    const m = /^(\d+)-(\d+)$/.exec(values.frames);
    if (!m || Number(m[1]) > Number(m[2]))
      throw new UsageError(`--frames wants A-B with A <= B, got "${values.frames}".`);
    frames = { start: Number(m[1]), end: Number(m[2]) };
  }
  const scale = values.scale === undefined ? undefined : Number(values.scale);
  if (scale !== undefined && !(scale > 0))
    throw new UsageError(`--scale wants a positive number, got "${values.scale}".`);
  return {
    project: resolve(positionals[0]!),
    items: values.item,
    comp: values.comp,
    output: values.output === undefined ? undefined : resolve(values.output),
    format: values.format,
    frames,
    scale,
    skipExisting: values['skip-existing'] ?? false,
    resume: values.resume ?? false,
    alpha: values.alpha ?? false,
    noAudio: values['no-audio'] ?? false,
    json: values.json ?? false,
  };
}

function fail(error: ErrorInfo): number {
  process.stderr.write(
    `effectcraft-cli render: ${printable(error.message)}\n  ${printable(error.remediation)}\n`,
  );
  return error.code === 'bad_argument' || error.code === 'not_found' ? EXIT.usage : EXIT.failed;
}

const CANCEL_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type CancelSignal = (typeof CANCEL_SIGNALS)[number];
/** 128 + the signal number, as a shell reports a process killed by it; SIGINT is EXIT.cancelled (130). */
const SIGNAL_EXIT: Record<CancelSignal, number> = { SIGINT: EXIT.cancelled, SIGTERM: 143, SIGHUP: 129 };

export async function renderCommand(argv: string[]): Promise<number> {
  const args = parse(argv);
  if (!args) {
    process.stdout.write(renderHelp + '\n');
    return EXIT.ok;
  }
  const session = createSession(sessionEnv());
  const { engine } = session;
  const opened = await engine.execute('project.open', { path: args.project });
  if (!opened.ok) return fail(opened.error);
  let items = args.items;
  if (args.comp && args.output) {
    const added = await engine.execute<{ id: string }>('renderQueue.add', {
      comp: args.comp,
      output: args.output,
      ...(args.format ? { format: args.format } : {}),
      ...(args.frames ? { frameRange: args.frames } : {}),
      ...(args.scale ? { scale: args.scale } : {}),
      ...(args.skipExisting ? { skipExisting: true } : {}),
      ...(args.alpha ? { alpha: true } : {}),
      ...(args.noAudio ? { audio: false } : {}),
    });
    if (!added.ok) return fail(added.error);
    items = [added.result.id];
  }
  const view = new ProgressView(process.stderr);
  const off = session.renderQueue.onProgress((p) => view.update(p));
  const controller = new AbortController();
  // SIGTERM and SIGHUP (a service manager, a closed terminal) stop exactly like Ctrl-C: cancel with exact
  // cleanup, then exit 128 + the signal's number.
  let received: CancelSignal | null = null;
  const onSignal = (signal: CancelSignal) => {
    if (received) return;
    received = signal;
    process.stderr.write(
      args.resume
        ? '\nStopping: keeping the frames written (render again with --resume to go on)...\n'
        : '\nStopping: removing unfinished files...\n',
    );
    controller.abort();
  };
  for (const signal of CANCEL_SIGNALS) process.on(signal, onSignal);
  try {
    const params = { ...(items ? { items } : {}), ...(args.resume ? { resume: true } : {}) };
    const r = await engine.execute<JobResult>('renderQueue.render', params, {
      signal: controller.signal,
    });
    view.done();
    if (!r.ok) return fail(r.error);
    printSummary(r.result, args.json, view.elapsedSeconds);
    if (received) return SIGNAL_EXIT[received];
    return r.result.failed || r.result.stopped ? EXIT.failed : EXIT.ok;
  } finally {
    off();
    for (const signal of CANCEL_SIGNALS) process.off(signal, onSignal);
  }
}

function printSummary(result: JobResult, json: boolean, seconds: number): void {
  if (json) {
    process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    return;
  }
  for (const item of result.items) {
    const files = item.files
      ? item.files.count > 1
        ? `${item.files.first} .. ${item.files.last} (${item.files.count} files)`
        : item.files.first
      : 'no files';
    const skipped = item.skipped_frames ? `, ${item.skipped_frames} skipped` : '';
    const error = item.error ? `: ${item.error.message}` : '';
    const alpha = item.alpha ? '  RGB+Alpha' : '';
    process.stdout.write(
      `${item.id}  ${item.status}  ${item.frames} frames${skipped}  ${files}  ${item.bytes} bytes${alpha}${error}\n`,
    );
  }
  process.stdout.write(
    `${result.completed} done, ${result.failed} failed, ${result.stopped} stopped, ${result.skipped_frames} frames skipped in ${seconds.toFixed(1)}s\n`,
  );
}
