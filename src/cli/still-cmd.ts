/**
 * `effectcraft-cli still PROJECT [--comp C] (--frame N | --time T) -o OUT`: one frame through frame.save, drawn
 * on this thread (no preview worker, no render queue workers), so a cold process answers quickly.
 */
import { mkdir } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { frameCount } from '../engine/inspect.js';
import { EngineError, isEngineError, type ErrorInfo } from '../engine/errors.js';
import type { Project } from '../engine/model.js';
import { firstExtensions, formatSpec, listWords, STILL_FORMATS } from '../engine/output-formats.js';
import { findComp } from '../engine/resolve.js';
import { sharpModule } from '../render/sharp-module.js';
import { createSession } from '../session.js';
import { CLI_WORDS } from './cli-words.js';
import { absoluteFootage } from './footage-props.js';
import { parseProps } from './props-flag.js';
import { parseOrHelp } from './flag-spec.js';
import { sessionEnv } from './host-env.js';
import { stillSpec } from './specs/still.js';
import { EXIT, failWith, printable, UsageError } from './usage.js';

interface StillArgs {
  project: string;
  /** Absent: the project's active composition. */
  comp?: string;
  at: { frame: number } | { time: number };
  output: string;
  scale: number;
  alpha: boolean;
  json: boolean;
  /** --props: template input values (footage paths as given: absoluteFootage resolves them). */
  props?: Record<string, unknown>;
}

function parse(argv: string[]): StillArgs | null {
  const parsed = parseOrHelp(stillSpec, argv);
  if (!parsed) return null;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError('expected exactly one PROJECT file.');
  if (!values.output) throw new UsageError('-o/--output OUT is required.');
  if ((values.frame === undefined) === (values.time === undefined))
    throw new UsageError('give exactly one of --frame N and --time T.');
  const format = STILL_FORMATS.find((f) =>
    formatSpec(f).extensions.includes(extname(values.output!).toLowerCase()),
  );
  if (!format)
    throw new UsageError(
      `cannot tell the image format of "${values.output}": end it in ${listWords(firstExtensions(STILL_FORMATS))}.`,
    );
  if (values.alpha && !formatSpec(format).alpha)
    throw new UsageError(
      `--alpha needs a format with an alpha channel; ${formatSpec(format).name} has none.`,
    );
  const scale = values.scale === undefined ? 1 : Number(values.scale);
  if (!(scale > 0 && scale <= 4))
    throw new UsageError(`--scale wants a number above 0, up to 4; got "${values.scale}".`);
  let at: StillArgs['at'];
  if (values.frame !== undefined) {
    if (!/^\d+$/.test(values.frame))
      throw new UsageError(`--frame wants a frame number from 0; got "${values.frame}".`);
    at = { frame: Number(values.frame) };
  } else {
    // Decimal seconds only: Number() also reads "0x1", "1e3" and " 2 ".
    const time = /^(\d+(\.\d*)?|\.\d+)$/.test(values.time!) ? Number(values.time) : NaN;
    if (!(time >= 0))
      throw new UsageError(`--time wants seconds from 0 (such as 1.5); got "${values.time}".`);
    at = { time };
  }
  return {
    project: resolve(positionals[0]!),
    ...(values.comp !== undefined && { comp: values.comp }),
    at,
    output: resolve(values.output),
    scale,
    alpha: values.alpha ?? false,
    json: values.json ?? false,
    ...(values.props !== undefined && { props: parseProps(values.props) }),
  };
}

/** `argv`: the command line, for --json (failWith). */
function fail(argv: readonly string[], error: ErrorInfo, exitCode?: number): number {
  const usage = error.code === 'bad_argument' || error.code === 'not_found';
  return failWith('still', argv, error, exitCode ?? (usage ? EXIT.usage : EXIT.failed));
}

/**
 * The composition a still without --comp draws: the project's active one (the one its author last worked in, as
 * `inspect` marks it), else its only one; with several and none active, a usage error that lists them.
 */
function activeComp(doc: Project): string {
  const comps = doc.items.filter((i) => i.type === 'composition');
  const chosen = doc.activeComp ?? (comps.length === 1 ? comps[0]!.id : null);
  if (chosen) return chosen;
  throw new EngineError(
    'bad_argument',
    comps.length
      ? `The project has ${comps.length} compositions and none is active: ${listWords(
          comps.map((c) => `"${c.name}"`),
          'and',
        )}.`
      : 'The project has no composition to draw.',
    comps.length ? 'Name one with --comp NAME.' : 'Add a composition to the project (comp.new) first.',
  );
}

/** Times computed from frame numbers (n / rate) land a hair under n * rate in binary: still frame n. */
const FRAME_EPSILON = 1e-6;

export async function stillCommand(argv: string[]): Promise<number> {
  const args = parse(argv);
  if (!args) return EXIT.ok;
  const session = createSession({ ...sessionEnv(), words: CLI_WORDS, inProcessRenderer: true });
  const { engine } = session;
  // Start loading Skia and the encoder now: their modules load while the project file is read and checked.
  const warming = session.renderer();
  warming.catch(() => undefined);
  // The encoder loads sharp on first use (render workers drawing video never need it); this one will.
  sharpModule().catch(() => undefined);
  const opened = await engine.execute('project.open', { path: args.project });
  // A project that cannot be opened is exit 1 whatever the reader's code (a folder is bad_argument), as render
  // and inspect: the command line was well formed.
  if (!opened.ok) return fail(argv, opened.error, EXIT.failed);
  let comp;
  try {
    comp = findComp(engine.document, args.comp ?? activeComp(engine.document));
  } catch (err) {
    if (isEngineError(err)) return fail(argv, err.toInfo(CLI_WORDS));
    throw err;
  }
  // A time draws the frame it falls in, as a render writes it (keyframes and footage at that frame's time, not
  // between frames): 1.039 s at 25 fps is frame 25, drawn at 1.0 s.
  const frame =
    'frame' in args.at ? args.at.frame : Math.floor(args.at.time * comp.frameRate + FRAME_EPSILON);
  const frames = frameCount(comp);
  if (frame >= frames)
    throw new UsageError(
      'frame' in args.at
        ? `--frame ${frame} is past the end of "${comp.name}": frames 0-${frames - 1}.`
        : `--time ${args.at.time} is past the end of "${comp.name}" (${comp.duration} s): times from 0 to under ${comp.duration}.`,
    );
  const time = frame / comp.frameRate;
  // As render does: the output's folder is made if it is not there (frame.save writes into an existing one).
  await mkdir(dirname(args.output), { recursive: true }).catch(() => undefined);
  try {
    const saved = await engine.execute<{ path: string; width: number; height: number; bytes: number }>(
      'frame.save',
      {
        comp: comp.id,
        time,
        path: args.output,
        scale: args.scale,
        ...(args.alpha && { transparent: true }),
        // A relative footage value is the command line's: against the current directory, as render's --props.
        ...(args.props && { props: absoluteFootage(engine.document, comp.id, args.props, process.cwd()) }),
      },
    );
    if (!saved.ok) return fail(argv, saved.error);
    const r = saved.result;
    const warnings = saved.warnings ?? [];
    for (const w of warnings) process.stderr.write(`effectcraft-cli still: ${printable(w)}\n`);
    process.stdout.write(
      args.json
        ? JSON.stringify(
            { ...r, comp: comp.name, frame, time, ...(warnings.length && { warnings }) },
            null,
            2,
          ) + '\n'
        : printable(`${r.path}  ${r.width}x${r.height}  ${r.bytes} bytes\n`),
    );
    return EXIT.ok;
  } finally {
    // Video decoders (ffmpeg children) must not keep the process alive.
    (await warming).dispose();
  }
}
