import { defineSubcommand } from '../flag-spec.js';
import { JSON_FLAG } from './shared.js';

export const inspectSpec = defineSubcommand({
  name: 'inspect',
  summary: "list a project's compositions, footage and render queue",
  usage: ['inspect PROJECT [--json] [--strict]'],
  description:
    "Lists what a project holds: its compositions (id, size, frame rate, duration, layers with their names and kinds), its footage (path, kind, size; frame rate, variable or not, and duration of video and sequences, a sequence's pattern and first and last frame numbers, the sound's codec, rate and channels, missing files, and the frames missing from a sequence, each file looked for: a pre-flight check for a render) and its render queue items (id, composition, output, format, frame range; RGB + Alpha, a video that leaves the sound out ('no sound', --json audio: false), encoder settings and template values where set). Human-readable by default; --json prints the same as one JSON object for scripts.",
  positionals: true,
  flags: {
    ...JSON_FLAG,
    strict: {
      type: 'boolean',
      help: "exit 3 when footage is missing (a file, or frames of a sequence) or a render would refuse it (a folder or FIFO, a file this user cannot read, no media any more, a clip, sound or sequence changed since its import, an MP4/MOV cut off before its end: each file's headers read once), or a queued item's template values would fail its render (a footage value missing, no media, or not what its layer plays), after listing it with the reason (--json: missing: true, or missingFrames {count, first}, on footage whose files are gone; problem {code, message, remediation} on the footage or the queue item a render would refuse): a pre-flight gate for a pipeline",
    },
  },
  notes:
    'Exit codes: 0 listed, 1 the project cannot be opened, 2 usage error, 3 listed with --strict and footage missing or unusable. With --json, a failure before there is a result (a project that cannot be opened, a usage error) prints {"error": {code, message, remediation}, "exitCode": N} on stdout as well.',
});
