/**
 * `effectcraft-cli render PROJECT`: renders a project's render queue headless (or one comp with --comp and
 * --output), with progress on stderr, Ctrl-C to cancel with exact cleanup, and a summary on stdout. Its flags
 * are defined in specs/render.ts and checked in render-args.ts; every change to the opened document (the
 * --comp item, --output, the quality flags) goes through the queue's commands and is never saved.
 */
import { availableParallelism } from 'node:os';
import { isAbsolute, relative, resolve } from 'node:path';
import type { ErrorInfo, RenderQueueItem } from '../engine/index.js';
import type { JobResult } from '../render/queue/service.js';
import { createSession, type Session } from '../session.js';
import { CLI_WORDS, withCliRemedies } from './cli-words.js';
import { sessionEnv } from './host-env.js';
import { parseRenderArgs, type RenderArgs } from './render-args.js';
import { absoluteFootage } from './footage-props.js';
import { inputNames, propsForComp } from './item-props.js';
import { filledOutput } from './output-fields.js';
import { outputFields } from '../engine/output-template.js';
import { renderBatch, type BatchResult, type RenderItems } from './render-batch.js';
import { plural } from './data-rows.js';
import { ProgressView } from './render-progress.js';
import { EXIT, failureText, failWith, printable } from './usage.js';
import { packageVersion } from './version.js';
import { whenStdoutCloses } from './closed-pipes.js';
import { CANCEL_SIGNALS, takeEarlySignal, type CancelSignal } from './early-signals.js';

/** `argv`: the command line, for --json (failWith). */
function fail(argv: readonly string[], error: ErrorInfo, exitCode?: number): number {
  // An output whose format cannot be told (--output z.xyz) is the command line's mistake too.
  const usage = ['bad_argument', 'not_found', 'unsupported_format'].includes(error.code);
  return failWith('render', argv, error, exitCode ?? (usage ? EXIT.usage : EXIT.failed));
}

/** 128 + the signal number, as a shell reports a process killed by it; SIGINT is EXIT.cancelled (130). */
const SIGNAL_EXIT: Record<CancelSignal, number> = { SIGINT: EXIT.cancelled, SIGTERM: 143, SIGHUP: 129 };

export async function renderCommand(argv: string[]): Promise<number> {
  // The files are the work: a log reader that went away (stdout or stderr closed) does not stop the render, and
  // its exit code still says how it went (closed-pipes.ts).
  whenStdoutCloses(() => undefined);
  const args = parseRenderArgs(argv);
  if (!args) return EXIT.ok;
  const controller = new AbortController();
  // SIGTERM and SIGHUP (a service manager, a closed terminal) stop exactly like Ctrl-C: cancel with exact
  // cleanup, then exit 128 + the signal's number.
  let received: CancelSignal | null = null;
  const onSignal = (signal: CancelSignal) => {
    if (received) return;
    received = signal;
    process.stderr.write(
      args.resume
        ? '\nStopping: keeping the frames of sequences written (render again with --resume to go on; a video or other one-file output is removed unfinished)...\n'
        : '\nStopping: removing unfinished files...\n',
    );
    controller.abort();
  };
  for (const signal of CANCEL_SIGNALS) process.on(signal, onSignal);
  // One that came while this module loaded: the render stops before it starts, with its result and exit code.
  const early = takeEarlySignal();
  if (early) onSignal(early);
  warnOverCores(args.concurrency);
  const session = createSession({
    ...sessionEnv(),
    words: CLI_WORDS,
    ...(args.concurrency && { renderQueue: { maxWorkers: args.concurrency } }),
  });
  // The render workers load (a thread, its modules, Skia: 150-250 ms) while the project opens and the items are
  // prepared; a local render then takes them ready (warm-workers.ts). --redis renders elsewhere.
  if (!args.distributed) session.renderQueue.prestartWorkers();
  const { engine } = session;
  const opened = await engine.execute('project.open', {
    path: args.project,
    ...(args.outputDir && { outputDir: args.outputDir }),
  });
  // A project that cannot be opened (missing, a folder, not JSON) is exit 1, as inspect and the docs say,
  // whatever code the reader gave it: the command line itself was well formed.
  if (!opened.ok) return fail(argv, opened.error, EXIT.failed);
  // The engine's reason names renderQueue.add, which is not a CLI verb: say what to do here instead. Nothing to
  // render without --comp is the command line's to fix (exit 2, as a usage error), not a failed render.
  if (!args.comp && engine.document.renderQueue.length === 0)
    return fail(
      argv,
      {
        code: 'command_disabled',
        message: "The project's render queue is empty.",
        remediation: `Render a composition with --comp NAME --output PATH (${CLI_WORDS.inspect} lists them).`,
      },
      EXIT.usage,
    );
  const prepared = await prepareItems(session, args);
  if (!prepared.ok) return fail(argv, prepared.error);
  const items = prepared.items;
  // What renderQueue.add says of an item (a frame padded to even sizes, a setting the format ignores) is said
  // here too, before anything renders: a pipeline's log is where somebody looks for it.
  for (const w of prepared.warnings) process.stderr.write(`effectcraft-cli render: ${printable(w)}\n`);
  if (args.outputDir) {
    // An --output given here is the command line's own choice, not an absolute path stored in the project.
    const given = [args.comp?.output, args.itemOutput?.output].flatMap((o) => (o ? [resolve(o)] : []));
    const stored = engine.document.renderQueue.filter((q) => !given.includes(q.output));
    warnAbsoluteOutputs(stored, items, args.outputDir);
  }
  const view = new ProgressView(process.stderr);
  const off = session.renderQueue.onProgress((p) => view.update(p));
  // --json is read by scripts, not by a model with a context budget: it keeps every file's sha256.
  const { distributed } = args;
  // Loaded only for --redis: BullMQ and its Redis client cost about 0.25 s of start-up that a local render
  // (and every other command) must not pay.
  const render: RenderItems = distributed
    ? async (ids) =>
        (await import('./render-distributed.js')).renderOnWorkers(
          session,
          ids,
          {
            ...distributed,
            version: packageVersion(),
            signal: controller.signal,
            detail: args.json ? 'files' : 'compact',
            onProgress: (p) => view.update(p),
            onNotice: (message) => process.stderr.write(`effectcraft-cli render: ${printable(message)}\n`),
          },
          Boolean(args.data),
        )
    : (ids) =>
        engine.execute<JobResult>(
          'renderQueue.render',
          { items: ids, ...(args.resume && { resume: true }), ...(args.json && { detail: 'files' }) },
          { signal: controller.signal },
        );
  // A signal that came when nothing was left to stop (the last frame written, the files kept) is not an
  // interruption: the exit code says what the render did, as the files on disk do.
  const outcome = (counts: { failed: number; stopped: number }): number => {
    if (received && counts.stopped) return SIGNAL_EXIT[received];
    if (received) process.stderr.write('The render had already finished: every file it wrote is kept.\n');
    return counts.failed || counts.stopped ? EXIT.failed : EXIT.ok;
  };
  let code: number = EXIT.failed;
  try {
    if (args.data) {
      const queue: readonly RenderQueueItem[] = engine.document.renderQueue;
      const templates = items ? queue.filter((q) => items.includes(q.id)) : queue;
      const b = await renderBatch(session, templates, args.data, args.props ?? {}, render);
      view.done();
      if (!b.ok) return (code = fail(argv, b.error));
      printBatch(b.result, args.json, view.elapsedSeconds);
      return (code = outcome(b.result));
    }
    const r = await render(items ?? engine.document.renderQueue.map((q) => q.id));
    view.done();
    if (!r.ok) return (code = fail(argv, r.error));
    printSummary(r.result, args.json, view.elapsedSeconds);
    return (code = outcome(r.result));
  } finally {
    off();
    // From here the process only winds down (workers end, streams flush): a signal now exits at once with the
    // render's own code, where Node's default would report it killed by the signal after a finished render.
    const late = () => process.exit(code);
    for (const signal of CANCEL_SIGNALS) {
      process.off(signal, onSignal);
      process.on(signal, late);
    }
  }
}

/**
 * More workers than cores is accepted (a machine may be shared, a test may want it) but said: each worker keeps
 * its own decoders and frames, so past the cores it costs memory and, measured, time (2 cores: 200 frames in
 * 2.3 s with 2 workers, 8.0 s with 8).
 */
function warnOverCores(concurrency: number | undefined): void {
  const cores = availableParallelism();
  if (concurrency === undefined || concurrency <= cores) return;
  process.stderr.write(
    `effectcraft-cli render: --concurrency ${concurrency} is more workers than this machine's ${cores} cores; ` +
      'each holds its own decoders and frames, so it will likely render slower and use more memory. ' +
      `Leave --concurrency out to use one worker a core.\n`,
  );
}

/**
 * --output-dir re-roots relative outputs only: an item whose output the project stores as an absolute path
 * (outside the project's folder) still writes there. Said on stderr, so that a pipeline's log shows where the
 * file went rather than a render that silently ignored the flag.
 */
function warnAbsoluteOutputs(
  queue: readonly RenderQueueItem[],
  items: readonly string[] | undefined,
  outputDir: string,
): void {
  const dir = resolve(outputDir);
  for (const q of queue) {
    if (items && !items.includes(q.id)) continue;
    const rel = relative(dir, q.output);
    if (rel && !rel.startsWith('..') && !isAbsolute(rel)) continue;
    process.stderr.write(
      `effectcraft-cli render: item ${q.id} writes to ${printable(q.output)}: its output is an absolute path in the project, and --output-dir applies to relative outputs only.\n`,
    );
  }
}

type Prepared =
  { ok: true; items: string[] | undefined; warnings: string[] } | { ok: false; error: ErrorInfo };

/**
 * Applies the command line to the opened document through the queue's commands: adds the --comp item, points
 * the --item at its --output, merges the quality flags (and --no-audio) into every item to render. Returns the
 * ids to render.
 */
async function prepareItems(session: Session, args: RenderArgs): Promise<Prepared> {
  const { engine } = session;
  const hasEncoding = Object.keys(args.encoding).length > 0;
  let ids = args.items;
  const warnings: string[] = [];
  // An item's warnings, worded for this command line: the --comp item is its own, others are named by id.
  const keep = (r: { warnings?: string[] }, id?: string) =>
    warnings.push(...(r.warnings ?? []).map((w) => (id && !args.comp ? `item ${id}: ${w}` : w)));
  if (args.comp) {
    const { comp, output, params } = args.comp;
    const added = await engine.execute<{ id: string }>('renderQueue.add', {
      comp,
      output,
      ...params,
      ...(hasEncoding && { encoding: args.encoding }),
      ...(args.noAudio && { audio: false }),
    });
    if (!added.ok) return added;
    keep(added);
    ids = [added.result.id];
  } else if (args.itemOutput) {
    const updated = await engine.execute('renderQueue.update', args.itemOutput);
    if (!updated.ok) return updated;
  }
  // With --data the rows' items take --props under each row's values (render-batch.ts).
  const props = args.props && !args.data ? args.props : undefined;
  const encoding = hasEncoding && !args.comp;
  const silent = args.noAudio && !args.comp;
  const queue: readonly RenderQueueItem[] = engine.document.renderQueue;
  const chosen = ids ? queue.filter((q) => ids.includes(q.id)) : queue;
  const fields = args.data ? [] : chosen.filter((q) => outputFields(q.output).length);
  if (!encoding && !props && !silent && !fields.length) {
    // Items stored in the project: an update that changes nothing runs renderQueue.add's checks and warnings.
    if (!args.comp && !args.data)
      for (const item of chosen) {
        const checked = await engine.execute('renderQueue.update', { id: item.id });
        if (checked.ok) keep(checked, item.id);
      }
    return { ok: true, items: ids, warnings };
  }
  // A --props value goes to the items whose composition has that input (item-props.ts); one that only fills an
  // output's {field} (out/{shot}.mp4) is no item's prop, as a --data column that only names the output.
  const known = inputNames(engine.document, chosen);
  for (const item of chosen) outputFields(item.output).forEach((f) => known.add(f));
  for (const item of chosen) {
    // The item's own stored props fill its fields too, under --props (as renderQueue.render fills them over MCP).
    const filled = args.data ? null : filledOutput(engine.document, item, { ...item.props, ...props });
    const own = props && propsForComp(engine.document, item.comp, props, known);
    if (filled && !filled.ok) return filled;
    const updated = await engine.execute('renderQueue.update', {
      id: item.id,
      ...(filled?.output && { output: filled.output }),
      ...(encoding && { encoding: { ...item.encoding, ...args.encoding } }),
      ...(silent && { audio: false }),
      ...(own && {
        props: { ...item.props, ...absoluteFootage(engine.document, item.comp, own, process.cwd()) },
      }),
    });
    // The --comp item is the command line's own: its id would mean nothing to the reader.
    if (!updated.ok)
      return args.comp
        ? updated
        : { ok: false, error: { ...updated.error, message: `Item "${item.id}": ${updated.error.message}` } };
    // The --comp item's add already said its warnings.
    if (!args.comp) keep(updated, item.id);
  }
  return { ok: true, items: ids, warnings };
}

function printBatch(given: BatchResult, json: boolean, seconds: number): void {
  const result = { ...given, rows: withCliRemedies(given.rows) };
  // As for items (printSummary): why a row failed goes to stderr too, the log a pipeline keeps, and so do the
  // warnings of a row's rendered items (a mix above full scale): until 2026-12-07 they were only in --json.
  for (const row of result.rows) {
    if (row.status === 'failed' && row.error)
      process.stderr.write(
        `effectcraft-cli render: row ${row.row} (line ${row.line}) failed: ${failureText(row.error)}`,
      );
    // Named by its output: a row's item ids are made for the batch, and a row may render several items.
    for (const item of row.items ?? [])
      for (const w of item.warnings ?? [])
        process.stderr.write(
          `effectcraft-cli render: row ${row.row} (line ${row.line}) ${printable(item.files?.first ?? item.id)}: ${printable(w)}\n`,
        );
  }
  if (json) {
    process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    return;
  }
  for (const row of result.rows) {
    // A sequence is its first and last file and how many (as a render without --data lists an item).
    const written = (row.items ?? []).flatMap((i) =>
      i.files
        ? [i.files.count > 1 ? `${i.files.first} .. ${i.files.last} (${i.files.count} files)` : i.files.first]
        : [],
    );
    const kept = (row.kept ?? []).map((k) => `${printable(k)} (already there, kept)`);
    const what = row.error
      ? `: ${printable(row.error.message)} [${row.error.code}]`
      : `  ${[...written.map(printable), ...kept].join('  ')}`;
    process.stdout.write(`row ${row.row} (line ${row.line})  ${row.status}${what}\n`);
    if (row.error) process.stdout.write(`  ${printable(row.error.remediation)}\n`);
  }
  process.stdout.write(
    `${plural(result.completed, 'row')} done, ${result.failed} failed, ${result.stopped} stopped in ${seconds.toFixed(1)}s\n`,
  );
}

function printSummary(given: JobResult, json: boolean, seconds: number): void {
  const result = { ...given, items: withCliRemedies(given.items) };
  // Why an item failed is a diagnostic too: a pipeline that keeps stderr as its log sees it there, whatever
  // it does with the summary (or the JSON) on stdout.
  for (const item of result.items) {
    if (item.status === 'failed' && item.error)
      process.stderr.write(`effectcraft-cli render: ${item.id} failed: ${failureText(item.error)}`);
    for (const w of item.warnings ?? [])
      process.stderr.write(`effectcraft-cli render: ${item.id}: ${printable(w)}\n`);
  }
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
    // Its code too, as the stderr line and --json have it (a pipeline may keep stdout only).
    const error = item.error ? `: ${printable(item.error.message)} [${item.error.code}]` : '';
    const alpha = item.alpha ? '  RGB+Alpha' : '';
    const manifest = item.manifest ? `  manifest ${item.manifest}` : '';
    process.stdout.write(
      `${item.id}  ${item.status}  ${item.frames} frame${item.frames === 1 ? '' : 's'}${skipped}  ${files}  ${item.bytes} bytes${alpha}${manifest}${error}\n`,
    );
    // What to do about it, as the batch rows and the usage errors say (the JSON carries it as remediation).
    if (item.error?.remediation) process.stdout.write(`  ${printable(item.error.remediation)}\n`);
  }
  process.stdout.write(
    `${result.completed} done, ${result.failed} failed, ${result.stopped} stopped, ${result.skipped_frames} frames skipped in ${seconds.toFixed(1)}s\n`,
  );
}
