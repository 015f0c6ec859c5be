/**
 * What a document may hold. Without bounds one command could make a project that can no longer be saved (a
 * JavaScript string holds about 512 MB, and the saved JSON is indented), or that takes minutes to open or
 * inspect. Each limit is far above what real work needs and low enough that a project within all of them saves,
 * opens and inspects in seconds. The model's schemas (model.ts) carry them, so project files and edits are held
 * to the same limits: a file beyond one is refused on open (`invalid_project`), an edit beyond one is refused
 * with `bad_argument` and changes nothing (edit-check.ts). docs/engine.md lists them.
 */

export interface Limit {
  readonly max: number;
  /** What the limit is, as the errors say it: "at most 10,000 layers in a composition". */
  readonly message: string;
  readonly remedy: string;
}

/**
 * `10000` -> `10,000`, as toLocaleString('en-US') writes it: that call loads ICU's number formatting (about
 * 30 ms), and these messages are built when the engine loads, which every CLI command pays for.
 */
function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function limit(max: number, what: string, remedy: string): Limit {
  return { max, message: `at most ${thousands(max)} ${what}`, remedy };
}

export const LIMITS = {
  // Names and ids are labels for people and agents; a thousand characters is already a paragraph.
  name: limit(1_000, 'characters in a name or id', 'Use a shorter name.'),
  // About forty pages of prose, far more than a frame can show legibly; long credits fit on several layers.
  text: limit(100_000, 'characters of text in one text layer', 'Split the text over several text layers.'),
  // Hand-built compositions have tens to hundreds of layers; generated ones (data-driven, particles) a few
  // thousand, and a pipeline may add ten thousand in one batch. More belongs in precompositions, which also
  // render and inspect faster.
  layers: limit(
    10_000,
    'layers in a composition',
    'Group layers into precompositions (layer.addPrecomp) or split the composition.',
  ),
  // One keyframe per frame for over five minutes at 30 fps: baked motion fits.
  keyframes: limit(
    10_000,
    'keyframes on one property',
    'Use fewer keyframes: sample baked motion more coarsely, or let interpolation fill between keys.',
  ),
  // Effect stacks of a dozen are already heavy to render; a hundred is far past any real stack.
  effects: limit(
    100,
    'effects on one layer',
    'Remove effects, or move shared ones to an adjustment layer or a precomposition.',
  ),
  items: limit(
    10_000,
    'items (compositions, footage, folders) in a project',
    'Remove unused items, or split the work over several projects.',
  ),
  renderQueue: limit(
    1_000,
    'items in the render queue',
    'Render and clear the queue (renderQueue.remove, renderQueue.clear) before adding more.',
  ),
  // Templates expose a handful of fields (After Effects' Essential Graphics panels rarely pass a few dozen).
  inputs: limit(256, 'template inputs on one composition', 'Remove inputs you do not need (input.remove).'),
  bindings: limit(256, 'bindings of one template input', 'Bind fewer layers, or drive them from a precomp.'),
  choices: limit(256, 'values of one choice input', 'Offer fewer choices, or use a text input.'),
  pathPoints: limit(10_000, 'points in a path shape', 'Simplify the path (fewer points).'),
  gradientStops: limit(256, 'stops in a gradient', 'Use fewer gradient stops.'),
  // PATH_MAX on Linux.
  filePath: limit(4_096, 'characters in a file path', 'Use a shorter path.'),
  overflow: limit(32, 'overflow folders on one render queue item', 'Use fewer overflow folders.'),
  // An hour at 30 fps, far past any real run of stills; an import stops its run there. Every frame's file is looked
  // for when a project opens: a hand-edited "last" of 50,000,000 held project.open and inspect for half an hour.
  sequenceFrames: limit(
    108_000,
    'frames in an image sequence (from its "first" to its "last", in that order)',
    'Import the sequence again (file.import, or footage.relink to its first frame) to record its frames.',
  ),
  // The whole project as saved (indented JSON, which is what grows fastest): it opens in a few seconds and stays
  // far below the ~512 MB a string can hold, even as UTF-8 bytes (at most 3 per character).
  projectSize: limit(
    64 * 1024 * 1024,
    'characters in the saved project (64 MiB)',
    'Remove unused compositions, layers or keyframes, or split the work over several projects.',
  ),
} as const satisfies Record<string, Limit>;

// The list schemas that carry a limit (model.ts marks them), so an edit that adds one element to a list checks
// its length without validating every element again.
const LISTS = new WeakMap<object, Limit>();

/** Marks `schema`, a list schema with `.max(limit.max)`, as bounded by `limit`. */
export function limitedList<T extends object>(schema: T, limit: Limit): T {
  LISTS.set(schema, limit);
  return schema;
}

/** The limit on the length of lists `schema` describes, if it has one. */
export function listLimit(schema: object | null): Limit | undefined {
  return schema ? LISTS.get(schema) : undefined;
}

const REMEDIES = new Map<string, string>(Object.values(LIMITS).map((l) => [l.message, l.remedy]));

/** The remedy of the limit a schema message names, or null for messages that are not limits. */
export function limitRemedy(message: string): string | null {
  return REMEDIES.get(message) ?? null;
}

/**
 * The highest frame rate of video footage. A frame far ahead of the last one read costs a new decoder, which
 * decodes from the key frame before it: a 16x16 file of a million frames at 1,200,001 fps (9 MB, one key frame)
 * put each 25 fps comp frame 48,000 frames further, and a 1-second render took 84 s (quadratic in its length).
 * High-speed cameras store 240 to 960 fps at most. Refused at import, and by a project file's schema.
 */
export const MAX_FOOTAGE_FRAME_RATE = 1000;
