import { STILL_FORMATS, formatSpec, listWords } from '../../engine/output-formats.js';
import { defineSubcommand } from '../flag-spec.js';
import { JSON_FLAG } from './shared.js';

const EXTENSIONS = listWords(STILL_FORMATS.flatMap((f) => [...formatSpec(f).extensions]));
const ALPHA = listWords(
  STILL_FORMATS.filter((f) => formatSpec(f).alpha).map((f) => formatSpec(f).name),
  'and',
);

export const stillSpec = defineSubcommand({
  name: 'still',
  summary: 'render one frame of a composition to a PNG, JPEG or WebP file',
  usage: [
    'still PROJECT [--comp NAME] (--frame N | --time T) -o OUT [--scale S] [--alpha] [--props JSON|FILE]',
  ],
  description: `Renders one frame of a composition to an image file, the format from the extension (${EXTENSIONS}), written atomically (a temporary renamed into place). Renders in this process, without the render queue's workers: the quickest way to one frame. Relative paths resolve against the current directory.`,
  positionals: true,
  flags: {
    comp: {
      type: 'string',
      value: 'NAME',
      help: "composition name or id (default: the project's active composition)",
    },
    frame: { type: 'string', value: 'N', help: 'frame number, from 0' },
    time: { param: 'time', type: 'string', value: 'T', help: 'comp time in seconds (the frame it falls in)' },
    output: { type: 'string', value: 'OUT', short: 'o', help: `the image file to write (${EXTENSIONS})` },
    scale: { param: 'scale', type: 'string', value: 'S', help: 'output size factor, up to 4', default: '1' },
    alpha: { param: 'transparent', type: 'boolean', help: `keep the background transparent (${ALPHA} only)` },
    props: {
      param: 'props',
      type: 'string',
      value: 'JSON|FILE',
      help: 'values for the composition\'s template inputs, as render --props: a JSON object (\'{"name": "Ada"}\') or a .json file holding one; the frame shows them, the project file is not changed',
    },
    ...JSON_FLAG,
  },
  notes:
    'What the frame drew wrong (text the bundled fonts cannot draw, an effect the renderer does not know) is a warning on stderr, and in --json under "warnings". Exit codes: 0 written, 1 the frame failed or the project cannot be opened, 2 usage error (a bad flag, composition or frame). With --json, a failure before there is a result (a project that cannot be opened, a usage error) prints {"error": {code, message, remediation}, "exitCode": N} on stdout as well.',
});
