/**
 * `effectcraft-cli inspect PROJECT [--json]`: what a project holds (compositions with their layers, footage,
 * render queue items), from the engine's own project.inspect, printed for people or as JSON.
 */
import { resolve } from 'node:path';
import { EngineError, type EnginePorts, type ErrorInfo } from '../engine/index.js';
import { sequenceFrame } from '../engine/image-sequence.js';
import { formatSpec } from '../engine/output-formats.js';
import type { FootageItem, Project, RenderQueueItem } from '../engine/model.js';
import { createNodePorts } from '../node-io/engine-ports.js';
import { templateDoc } from '../render/queue/template-doc.js';
import type { describeInputs } from '../engine/template-inputs.js';
import { createSession } from '../session.js';
import { CLI_RELINK, CLI_WORDS, cliInfo, cliRemedy } from './cli-words.js';
import { footageProblems } from './footage-gate.js';
import { parseOrHelp } from './flag-spec.js';
import { sessionEnv } from './host-env.js';
import { inspectSpec } from './specs/inspect.js';
import { EXIT, failWith, printable, UsageError } from './usage.js';

/** What this command reads of project.inspect's result (allLayers: true). */
interface Overview {
  project: {
    name: string;
    path: string | null;
    compositions: {
      id: string;
      name: string;
      width: number;
      height: number;
      frameRate: number;
      duration: number;
      frames: number;
      layerList: { id: string; name: string; kind: string }[];
      inputs?: ReturnType<typeof describeInputs>;
    }[];
    footage: (FootageItem & { missing?: true; missingFrames?: MissingFrames })[];
    renderQueue: RenderQueueItem[];
  };
}

type MissingFrames = { count: number; first: number[] };

export async function inspectCommand(argv: string[]): Promise<number> {
  const parsed = parseOrHelp(inspectSpec, argv);
  if (!parsed) return EXIT.ok;
  if (parsed.positionals.length !== 1) throw new UsageError('expected exactly one PROJECT file.');
  const { engine } = createSession({ ...sessionEnv(), words: CLI_WORDS });
  const opened = await engine.execute('project.open', { path: resolve(parsed.positionals[0]!) });
  const inspected = opened.ok
    ? await engine.execute<Overview>('project.inspect', { allLayers: true })
    : opened;
  if (!inspected.ok) return failWith('inspect', argv, inspected.error, EXIT.failed);
  const { project } = inspected.result;
  // The gate looks further than "is it there": what a render would refuse (footage-gate.ts).
  const problems = parsed.values.strict
    ? await footageProblems(engine.document, sessionEnv().searchPath)
    : new Map<string, ErrorInfo>();
  // And a queued item's props: a footage value that is missing, no media, or not what its layer plays.
  const itemProblems = parsed.values.strict
    ? await propsProblems(engine.document, createNodePorts(sessionEnv()))
    : new Map<string, ErrorInfo>();
  const summary = {
    name: project.name,
    path: project.path,
    compositions: project.compositions.map(({ layerList, ...c }) => ({ ...c, layers: layerList })),
    footage: project.footage.map((f) => ({
      ...footageSummary(f),
      ...(f.missing && { missing: true }),
      ...(f.missingFrames && { missingFrames: f.missingFrames }),
      ...(problems.has(f.id) && { problem: problems.get(f.id)! }),
    })),
    renderQueue: project.renderQueue.map((q) => ({
      ...queueSummary(q, project.compositions),
      ...(itemProblems.has(q.id) && { problem: itemProblems.get(q.id)! }),
    })),
  };
  process.stdout.write(
    parsed.values.json ? JSON.stringify(summary, null, 2) + '\n' : printable(text(summary)),
  );
  const incomplete = project.footage.filter((f) => f.missing || f.missingFrames);
  if (parsed.values.strict && incomplete.length)
    process.stderr.write(
      `effectcraft-cli inspect: footage missing: ${incomplete.map((f) => printable(missingWords(f))).join(', ')}\n  Put the files back, or ${CLI_RELINK}.\n`,
    );
  for (const problem of problems.values())
    process.stderr.write(
      `effectcraft-cli inspect: ${printable(problem.message)}\n  ${printable(cliRemedy(problem.remediation))}\n`,
    );
  for (const [id, problem] of itemProblems)
    process.stderr.write(
      `effectcraft-cli inspect: item ${id}: ${printable(problem.message)}\n  ${printable(cliRemedy(problem.remediation))}\n`,
    );
  if (parsed.values.strict && (incomplete.length || problems.size || itemProblems.size))
    return EXIT.incomplete;
  return EXIT.ok;
}

/** What is missing of `f`: its file, or for a sequence with holes the frames' own files (a sequence's path is its first frame, which may be there). */
function missingWords(f: FootageItem & { missingFrames?: MissingFrames }): string {
  const pattern = f.media?.sequence?.pattern;
  if (!f.missingFrames || !pattern) return f.path;
  const { count, first } = f.missingFrames;
  const named = first.slice(0, 3).map((n) => sequenceFrame(pattern, n));
  return count > named.length
    ? `${named.join(', ')} and ${count - named.length} more of ${pattern}`
    : named.join(', ');
}

function footageSummary(f: FootageItem) {
  const m = f.media;
  return {
    id: f.id,
    name: f.name,
    path: f.path,
    kind: m?.kind ?? 'still',
    width: f.width,
    height: f.height,
    ...(m?.kind === 'video' || m?.kind === 'sequence'
      ? { frameRate: m.frameRate, duration: m.duration }
      : {}),
    ...(m?.kind === 'video' && m.variableFrameRate ? { variableFrameRate: true } : {}),
    ...(m?.kind === 'sequence' && m.sequence
      ? { pattern: m.sequence.pattern, firstFrame: m.sequence.first, lastFrame: m.sequence.last }
      : {}),
    ...(m?.kind === 'audio' ? { duration: m.duration } : {}),
    ...(m?.audio
      ? { audio: { codec: m.audio.codec, sampleRate: m.audio.sampleRate, channels: m.audio.channels } }
      : {}),
    // Files with several audio streams (languages, commentary): how many; a layer plays the first unless told.
    ...(m?.audioStreams ? { audioStreams: m.audioStreams.length } : {}),
  };
}

/** `aac 48 kHz stereo`: a sound stream as a person reads it. */
function soundText(a: { codec: string; sampleRate: number; channels: number }): string {
  const channels = a.channels === 1 ? 'mono' : a.channels === 2 ? 'stereo' : `${a.channels} channels`;
  return `${a.codec} ${Number((a.sampleRate / 1000).toFixed(3))} kHz ${channels}`;
}

/** One footage item's line: its picture (size, rate) unless it is sound only, its sound, where it is. */
function footageLine(f: Summary['footage'][number]): string {
  const fps = 'frameRate' in f && f.frameRate ? `  ${Number(f.frameRate.toFixed(3))} fps` : '';
  const variable = 'variableFrameRate' in f && f.variableFrameRate ? ' (variable)' : '';
  const duration = 'duration' in f && f.duration ? `  ${Number(f.duration.toFixed(3))} s` : '';
  const picture = f.kind === 'audio' ? '' : `  ${f.width}x${f.height}${fps}${variable}`;
  const more = 'audioStreams' in f && f.audioStreams ? ` (1 of ${f.audioStreams} audio streams)` : '';
  const sound = f.audio ? `  sound ${soundText(f.audio)}${more}` : '';
  const holes = f.missingFrames
    ? `  (missing ${f.missingFrames.count} frame${f.missingFrames.count === 1 ? '' : 's'}: ${f.missingFrames.first.join(', ')}${f.missingFrames.count > f.missingFrames.first.length ? ', …' : ''})`
    : '';
  const gone =
    'missing' in f && f.missing
      ? '  (missing: no file at that path)'
      : 'problem' in f && f.problem
        ? `  (${f.problem.code}: ${f.problem.message})`
        : holes;
  const where = 'pattern' in f && f.pattern ? `${f.pattern} (frames ${f.firstFrame}-${f.lastFrame})` : f.path;
  return `  ${f.id}  "${f.name}"  ${f.kind}${picture}${duration}${sound}  ${where}${gone}`;
}

/**
 * Why queued items with props could not render, by item id: their documents are made as a render makes them
 * (template-doc.ts: each footage value probed, its kind checked against the layer it replaces).
 */
async function propsProblems(doc: Project, ports: EnginePorts): Promise<Map<string, ErrorInfo>> {
  const found = new Map<string, ErrorInfo>();
  for (const item of doc.renderQueue) {
    if (!item.props || !Object.keys(item.props).length) continue;
    await templateDoc(doc, item, ports).catch((err: unknown) => {
      if (err instanceof EngineError) found.set(item.id, cliInfo(err));
      else throw err;
    });
  }
  return found;
}

function queueSummary(q: RenderQueueItem, comps: Overview['project']['compositions']) {
  const comp = comps.find((c) => c.id === q.comp);
  const frames = q.frameRange ?? { start: 0, end: (comp?.frames ?? 1) - 1 };
  return {
    id: q.id,
    comp: { id: q.comp, name: comp?.name ?? null },
    output: q.output,
    format: q.format,
    frames,
    ...(q.alpha && { alpha: true }),
    // A video item that leaves the sound out looks like one that carries it unless said: a pre-flight reader
    // would ship a silent deliverable. Only where the format muxes sound (a PNG sequence has none either way).
    ...(!q.audio && formatSpec(q.format).sound === 'muxed' && { audio: false }),
    ...(q.encoding && { encoding: q.encoding }),
    ...(q.props && { props: q.props }),
  };
}

type Summary = {
  name: string;
  path: string | null;
  compositions: (Omit<Overview['project']['compositions'][number], 'layerList'> & {
    layers: { id: string; name: string; kind: string }[];
  })[];
  footage: (ReturnType<typeof footageSummary> & {
    missing?: boolean;
    missingFrames?: MissingFrames;
    problem?: ErrorInfo;
  })[];
  renderQueue: ReturnType<typeof queueSummary>[];
};

/** The listing for people: one line per composition, layer, footage item and queue item. */
function text(s: Summary): string {
  const lines = [
    `Project "${s.name}"${s.path ? ` (${s.path})` : ''}`,
    '',
    `Compositions (${s.compositions.length})`,
  ];
  for (const c of s.compositions) {
    lines.push(
      `  ${c.id}  "${c.name}"  ${c.width}x${c.height}  ${c.frameRate} fps  ${c.duration} s (${c.frames} frames)  ${c.layers.length} layers`,
    );
    for (const l of c.layers) lines.push(`      ${l.id}  ${l.kind.padEnd(10)}  ${l.name}`);
    // A template's inputs, with what each drives: the names --props and --data rows use.
    for (const i of c.inputs ?? []) {
      const bound = i.bindings.map((b) => `${b.layerName ?? b.layer}/${b.property}`).join(', ') || 'nothing';
      lines.push(`      input ${i.name}  ${i.type}  default ${JSON.stringify(i.default)}  -> ${bound}`);
    }
  }
  lines.push('', `Footage (${s.footage.length})`);
  for (const f of s.footage) lines.push(footageLine(f));
  lines.push('', `Render queue (${s.renderQueue.length})`);
  for (const q of s.renderQueue) {
    const extra = [
      q.alpha ? 'RGB+Alpha' : '',
      q.audio === false ? 'no sound' : '',
      q.encoding ? JSON.stringify(q.encoding) : '',
      q.props ? `props ${JSON.stringify(q.props)}` : '',
    ].filter(Boolean);
    lines.push(
      `  ${q.id}  "${q.comp.name ?? q.comp.id}"  ${q.format}  frames ${q.frames.start}-${q.frames.end}  ${q.output}${extra.length ? `  ${extra.join('  ')}` : ''}`,
    );
  }
  return lines.join('\n') + '\n';
}
