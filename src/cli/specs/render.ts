import {
  AUDIO_CODECS,
  CODECS,
  FORMAT_CODECS,
  GIF_DITHERS,
  GIF_PALETTES,
  PRORES_PROFILES,
  X264_PRESETS,
} from '../../engine/encoding.js';
import {
  ALPHA_FORMATS,
  describeFormats,
  formatSpec,
  formatsWhere,
  listWords,
  OUTPUT_FORMATS,
} from '../../engine/output-formats.js';
import { defineSubcommand } from '../flag-spec.js';
import { CHUNK_FLAGS, JSON_FLAG } from './shared.js';

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

const CARRIERS = Object.entries(FORMAT_CODECS)
  .map(([format, codecs]) => `${format}: ${codecs.join(' or ')}`)
  .join('; ');

export const renderSpec = defineSubcommand({
  name: 'render',
  summary: "render a project's render queue (progress, Ctrl-C cancels)",
  usage: [
    'render PROJECT [--item ID ...] [--output-dir DIR] [--concurrency N] [--no-audio] [quality flags]',
    'render PROJECT --item ID --output PATH [...]',
    'render PROJECT --comp NAME --output TEMPLATE [--format F] [--frames A-B] [--scale S] [--skip-existing] [--alpha] [--no-audio]',
    'render PROJECT [--props JSON|FILE] [--data rows.csv|rows.jsonl] [...]',
  ],
  description: `Renders the project's render queue (or only the --item ids). With one --item and --output, that item renders to PATH instead of its stored output. With --comp and --output it renders that composition instead, as a temporary queue item. The project file is never changed.

Relative paths given on the command line resolve against the current directory, or --output-dir; relative outputs stored in the project against its folder, or --output-dir. The quality flags (--crf, --codec, --prores-profile, --quality, --gif-palette, --gif-dither, --x264-preset, --audio-codec, --audio-bitrate) apply to every item rendered; an item whose format does not take one is refused before anything renders.

Templates (docs/templates.md): --props gives the compositions' inputs values for this render; --data renders every item (the --item ids, or the --comp item) once per row of a CSV or JSON Lines file, with the row's fields as props and in the output's {field}s. Values are checked against the inputs' types before anything renders; a row that does not fit fails alone and the other rows render.`,
  positionals: true,
  flags: {
    item: {
      type: 'string',
      value: 'ID',
      multiple: true,
      help: 'render only this queue item (effectcraft-cli inspect PROJECT lists them)',
    },
    comp: {
      param: 'comp',
      type: 'string',
      value: 'NAME',
      help: 'composition name or id to render instead of the queue',
    },
    output: {
      type: 'string',
      value: 'PATH',
      help: 'output path template (shot_[#####].png for sequences, out.mp4 for video): of --comp, or of the one --item',
    },
    'output-dir': {
      type: 'string',
      value: 'DIR',
      help: "resolve relative outputs (the project's and --output) against DIR; a project saves the outputs inside its folder as relative ones, and an item with an absolute output is written there, with a warning on stderr",
      default: "the project file's folder (stored outputs), the current directory (--output)",
    },
    concurrency: {
      type: 'string',
      value: 'N',
      help: 'render with at most N worker threads (more than the cores is warned of: slower, more memory)',
      default: 'the number of cores',
    },
    format: {
      param: 'format',
      type: 'string',
      value: 'F',
      help: `${OUTPUT_FORMATS.join(', ')} (with --comp)`,
      default: 'from the extension',
    },
    frames: {
      param: 'frameRange',
      type: 'string',
      value: 'A-B',
      help: 'inclusive frame range, or one frame N (with --comp)',
    },
    scale: {
      param: 'scale',
      type: 'string',
      value: 'S',
      help: 'output size factor: 1, 0.5, 0.25, ... (with --comp)',
      default: '1',
    },
    'skip-existing': {
      type: 'boolean',
      help: 'leave frames whose file already exists untouched (with --comp)',
    },
    alpha: {
      param: 'alpha',
      type: 'boolean',
      help: `${ALPHA_HELP} (with --comp)`,
    },
    'no-audio': {
      param: 'audio',
      type: 'boolean',
      help: `${AUDIO_HELP}; applies to every item rendered, and refuses one that is the sound alone`,
    },
    crf: {
      param: 'encoding.crf',
      type: 'string',
      value: 'N',
      help: 'constant quality of h264/h265 (0-51) and vp9 (0-63): lower is better and bigger',
      default: 'h264/h265 18, vp9 32',
    },
    codec: {
      param: 'encoding.codec',
      type: 'string',
      value: 'C',
      help: `video codec, ${listWords([...CODECS])}; each container carries its own (${CARRIERS})`,
      default: 'the first of the container',
    },
    'prores-profile': {
      param: 'encoding.proresProfile',
      type: 'string',
      value: 'P',
      help: `ProRes profile of mov outputs: ${listWords([...PRORES_PROFILES])} (RGB + Alpha is 4444)`,
      default: 'hq',
    },
    quality: {
      param: 'encoding.quality',
      type: 'string',
      value: 'N',
      help: 'quality 1-100 of JPEG and WebP sequences and animated WebP',
      default: '90, animated WebP 85',
    },
    'gif-palette': {
      param: 'encoding.gifPalette',
      type: 'string',
      value: 'P',
      help: `GIF palette: ${listWords([...GIF_PALETTES])} (global holds every frame in ffmpeg until the end)`,
      default: 'global up to 512 MiB of frames, else per-frame with alpha and a fixed palette without',
    },
    'gif-dither': {
      param: 'encoding.gifDither',
      type: 'string',
      value: 'NAME',
      help: `GIF dithering (ffmpeg paletteuse): ${listWords([...GIF_DITHERS])}`,
      default: 'sierra2_4a',
    },
    'x264-preset': {
      param: 'encoding.x264Preset',
      type: 'string',
      value: 'NAME',
      help: `h264/h265 speed preset: ${listWords([...X264_PRESETS])}`,
      default: 'medium',
    },
    'audio-codec': {
      param: 'encoding.audioCodec',
      type: 'string',
      value: 'C',
      help: `sound codec: ${listWords([...AUDIO_CODECS])}; mov takes pcm or aac, the others their own (mp4 and m4a aac, webm opus, wav pcm, mp3 mp3)`,
      default: 'mov pcm (24-bit: --audio-bit-depth)',
    },
    'audio-bitrate': {
      param: 'encoding.audioBitrate',
      type: 'string',
      value: 'KBPS',
      help: 'kb/s of the sound in aac (32-512), opus (32-512) and mp3 (32-320); not for pcm',
      default: 'aac and mp3 192, opus 160',
    },
    'audio-bit-depth': {
      param: 'encoding.audioBitDepth',
      type: 'string',
      value: 'N',
      help: 'bits per sample of PCM sound (wav, and mov with pcm): 16 or 24 (integer) or 32 (float, which keeps a mix above full scale unclipped)',
      default: 'wav 16, mov 24',
    },
    props: {
      param: 'props',
      type: 'string',
      value: 'JSON|FILE',
      help: 'values for the template inputs of every composition rendered: a JSON object (\'{"name": "Ada"}\') or a .json file holding one; checked against the inputs before anything renders',
    },
    data: {
      type: 'string',
      value: 'FILE',
      help: "rows.csv (with a header) or rows.jsonl: one render of each item per row, the row's fields as props (over --props); each output needs a {field} from the row, e.g. out/{name}.mp4. A bad row fails alone",
    },
    resume: {
      type: 'boolean',
      help: "resumable render (as aerender's): skip frames and files that exist, and on Ctrl-C, SIGTERM or a failure keep the frames already written; run again with --resume to go on",
    },
    redis: {
      param: 'redis',
      type: 'string',
      value: 'URL',
      help: 'render on `effectcraft-cli worker --redis URL` processes through this Redis (redis://HOST:PORT) instead of on this machine; they need the project, its footage and the outputs at the same paths (docs/distributed.md)',
    },
    ...CHUNK_FLAGS,
    ...JSON_FLAG,
  },
  notes: `Progress goes to stderr, and so do the warnings the render queue gives an item before anything renders (a frame padded to even sizes, a setting its format ignores; a stored item's prefixed "item rq_N:"), and why an item failed (its message ending in its error code, as [no_such_file], the remedy on the line below; the summary on stdout has it too, the code included, as each --data row's line does; a remedy naming footage.relink, which agents run, also says how to relink at the command line: in the studio, effectcraft-cli app --project PROJECT, whose Relink probes the file again, as a path edited in the project file is not). Ctrl-C stops the render and removes its unfinished files, putting back any earlier file it replaced (exit 130); SIGTERM and SIGHUP do the same (exit 143 and 129). A signal that comes when every item has already finished stops nothing and exits as the results say (0 or 1). A closed stderr or stdout (a log reader that went away, \`| head\`) does not stop the render: what it would print is lost, its files and exit code are not. Warnings of a completed item (footage unchecked without ffprobe, a sound mix above full scale, a sound output with nothing to hear, text the bundled fonts cannot draw) go to stderr too, and in --json under the item's "warnings". See docs/exporters.md.
Exit codes: 0 all items rendered, 1 an item (with --data: a row) failed or was stopped, or the project cannot be opened, 2 usage error (a --props value that does not fit an input, or an empty render queue without --comp, included), 130/143/129 interrupted by SIGINT/SIGTERM/SIGHUP. With --json, a failure before there is a result (a project that cannot be opened, a usage error) prints {"error": {code, message, remediation}, "exitCode": N} on stdout as well.`,
});
