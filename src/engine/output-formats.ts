/**
 * The render queue's output formats, in one table. Everything that names formats derives from it: the
 * document's format enum, which formats take alpha or overflow folders, extension inference, frame.save's
 * formats, the built-in exporters, command descriptions and CLI help (tests check docs/exporters.md against
 * it). It is pure data and lives in the engine because the document model validates a queue item's format;
 * the encoders that act on it live in src/render.
 */

/** How sharp encodes one still image: the settings of an image sequence format (and of frame.save). */
export type StillEncoding =
  { kind: 'png'; level: number } | { kind: 'jpeg'; quality: number } | { kind: 'webp'; quality: number };

export interface OutputFormatSpec {
  /** What users call it, in descriptions: `PNG`, `animated WebP`. */
  name: string;
  /** `sequence`: one file per frame, the output template needs a frame field; `file`: one file per item. */
  kind: 'sequence' | 'file';
  /** File extensions, lower case with the dot; the first is the one remedies suggest. */
  extensions: readonly string[];
  /** MIME type of the files it writes. */
  mime: string;
  /** Chosen from the output's extension when renderQueue.add gets no format (png-fast must be asked for). */
  inferred: boolean;
  /** frame.save can write one still in it. */
  still: boolean;
  /** Carries an alpha channel, so an item may render RGB + Alpha in it. */
  alpha: boolean;
  /** A sequence that can continue in overflow folders when a volume fills up. */
  overflow: boolean;
  /**
   * Who encodes: sharp in the render workers with these settings, an ffmpeg child fed raw RGBA, or (an
   * audio-only format) an ffmpeg child that mixes the composition's sound and renders no picture.
   */
  encoder: StillEncoding | 'ffmpeg' | 'ffmpeg-audio';
  /**
   * The composition's sound: `muxed` beside the picture when the composition has any (and the item has not
   * turned audio off), `only` (no picture), `none` (images).
   */
  sound: 'none' | 'muxed' | 'only';
  /** Shown after the id in descriptions, e.g. `mp4 (H.264)`. */
  note?: string;
  /** How it stores alpha, when worth saying, e.g. `gif (1-bit)`. */
  alphaNote?: string;
}

export const OUTPUT_FORMAT_TABLE = {
  png: {
    name: 'PNG',
    kind: 'sequence',
    extensions: ['.png'],
    mime: 'image/png',
    inferred: true,
    still: true,
    alpha: true,
    overflow: true,
    encoder: { kind: 'png', level: 6 },
    sound: 'none',
    note: 'zlib 6',
  },
  // Level 1 is about 1.5x faster than 6 and about 1.5x bigger: PNG compression is the render ceiling.
  'png-fast': {
    name: 'PNG',
    kind: 'sequence',
    extensions: ['.png'],
    mime: 'image/png',
    inferred: false,
    still: false,
    alpha: true,
    overflow: true,
    encoder: { kind: 'png', level: 1 },
    sound: 'none',
    note: 'zlib 1',
  },
  jpeg: {
    name: 'JPEG',
    kind: 'sequence',
    extensions: ['.jpg', '.jpeg'],
    mime: 'image/jpeg',
    inferred: true,
    still: true,
    alpha: false,
    overflow: true,
    encoder: { kind: 'jpeg', quality: 90 },
    sound: 'none',
  },
  webp: {
    name: 'WebP',
    kind: 'sequence',
    extensions: ['.webp'],
    mime: 'image/webp',
    inferred: true,
    still: true,
    alpha: true,
    overflow: true,
    encoder: { kind: 'webp', quality: 90 },
    sound: 'none',
  },
  gif: {
    name: 'animated GIF',
    kind: 'file',
    extensions: ['.gif'],
    mime: 'image/gif',
    inferred: true,
    still: false,
    alpha: true,
    overflow: false,
    encoder: 'ffmpeg',
    sound: 'none',
    alphaNote: '1-bit',
  },
  'webp-anim': {
    name: 'animated WebP',
    kind: 'file',
    extensions: ['.webp'],
    mime: 'image/webp',
    inferred: true,
    still: false,
    alpha: true,
    overflow: false,
    encoder: 'ffmpeg',
    sound: 'none',
  },
  mp4: {
    name: 'MP4',
    kind: 'file',
    extensions: ['.mp4'],
    mime: 'video/mp4',
    inferred: true,
    still: false,
    alpha: false,
    overflow: false,
    encoder: 'ffmpeg',
    sound: 'muxed',
    note: 'H.264',
  },
  webm: {
    name: 'WebM',
    kind: 'file',
    extensions: ['.webm'],
    mime: 'video/webm',
    inferred: true,
    still: false,
    alpha: true,
    overflow: false,
    encoder: 'ffmpeg',
    sound: 'muxed',
    note: 'VP9',
    alphaNote: 'VP9 with alpha',
  },
  mov: {
    name: 'MOV',
    kind: 'file',
    extensions: ['.mov'],
    mime: 'video/quicktime',
    inferred: true,
    still: false,
    alpha: true,
    overflow: false,
    encoder: 'ffmpeg',
    sound: 'muxed',
    note: 'ProRes',
    alphaNote: 'ProRes 4444',
  },
  // Audio-only: the composition's mix, 48 kHz stereo, and no picture (no frames are rendered).
  wav: {
    name: 'WAV',
    kind: 'file',
    extensions: ['.wav'],
    mime: 'audio/wav',
    inferred: true,
    still: false,
    alpha: false,
    overflow: false,
    encoder: 'ffmpeg-audio',
    sound: 'only',
    note: 'PCM 16-bit, audio only',
  },
  mp3: {
    name: 'MP3',
    kind: 'file',
    extensions: ['.mp3'],
    mime: 'audio/mpeg',
    inferred: true,
    still: false,
    alpha: false,
    overflow: false,
    encoder: 'ffmpeg-audio',
    sound: 'only',
    note: '192 kb/s, audio only',
  },
  m4a: {
    name: 'M4A',
    kind: 'file',
    extensions: ['.m4a'],
    mime: 'audio/mp4',
    inferred: true,
    still: false,
    alpha: false,
    overflow: false,
    encoder: 'ffmpeg-audio',
    sound: 'only',
    note: 'AAC 192 kb/s, audio only',
  },
} as const satisfies Record<string, OutputFormatSpec>;

type Table = typeof OUTPUT_FORMAT_TABLE;
export type OutputFormatId = keyof Table;
/** Formats an ffmpeg child encodes (the exporters need ffmpeg arguments for each). */
export type FfmpegFormat = {
  [F in OutputFormatId]: Table[F]['encoder'] extends 'ffmpeg' ? F : never;
}[OutputFormatId];
/** Formats whose file is the composition's sound alone (the exporters need audio arguments for each). */
export type AudioOnlyFormat = {
  [F in OutputFormatId]: Table[F]['encoder'] extends 'ffmpeg-audio' ? F : never;
}[OutputFormatId];
/** Formats that carry the composition's sound beside the picture. */
export type MuxedAudioFormat = {
  [F in OutputFormatId]: Table[F]['sound'] extends 'muxed' ? F : never;
}[OutputFormatId];
/** Formats with an alpha channel. */
export type AlphaFormat = {
  [F in OutputFormatId]: Table[F]['alpha'] extends true ? F : never;
}[OutputFormatId];
/** Formats frame.save writes. */
export type StillFormat = {
  [F in OutputFormatId]: Table[F]['still'] extends true ? F : never;
}[OutputFormatId];

/** Every format id, in table order (the order of the JSON Schema enum and of every list shown to users). */
export const OUTPUT_FORMATS = Object.keys(OUTPUT_FORMAT_TABLE) as [OutputFormatId, ...OutputFormatId[]];

/** The table entry of `format`. */
export function formatSpec(format: OutputFormatId): OutputFormatSpec {
  return OUTPUT_FORMAT_TABLE[format];
}

/** The formats whose entry satisfies `test`, in table order. */
export function formatsWhere(test: (spec: OutputFormatSpec) => boolean): OutputFormatId[] {
  return OUTPUT_FORMATS.filter((f) => test(OUTPUT_FORMAT_TABLE[f]));
}

/** Output formats that carry an alpha channel (GIF: 1-bit), i.e. those a queue item may render with alpha. */
export const ALPHA_FORMATS = formatsWhere((s) => s.alpha) as AlphaFormat[];
/** The formats frame.save writes, as a non-empty tuple for its schema enum. */
export const STILL_FORMATS = formatsWhere((s) => s.still) as [StillFormat, ...StillFormat[]];

/** Formats that carry sound (muxed with the picture, or alone): where an item's `audio` switch applies. */
export const SOUND_FORMATS = formatsWhere((s) => s.sound !== 'none');

export function isSequenceFormat(format: OutputFormatId): boolean {
  return OUTPUT_FORMAT_TABLE[format].kind === 'sequence';
}

/**
 * The format an output path implies when none is given: the inferable formats with that extension, the one
 * whose kind matches the template (a frame field means a sequence: `.webp` is webp or webp-anim), else the
 * first. undefined when no format has the extension.
 */
export function formatFromExtension(ext: string, sequence: boolean): OutputFormatId | undefined {
  const candidates = formatsWhere((s) => s.inferred && s.extensions.includes(ext.toLowerCase()));
  return candidates.find((f) => isSequenceFormat(f) === sequence) ?? candidates[0];
}

/** The distinct first extensions of `formats`, e.g. for "End the output in .png, .jpg or .webp". */
export function firstExtensions(formats: readonly OutputFormatId[]): string[] {
  return [...new Set(formats.map((f) => OUTPUT_FORMAT_TABLE[f].extensions[0]!))];
}

/** `a, b or c` (or `and`): lists of formats in messages. */
export function listWords(words: readonly string[], last: 'or' | 'and' = 'or'): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} ${last} ${words.at(-1)}`;
}

/** Formats for descriptions: `png (zlib 6), jpeg, mp4 (H.264)`; with `alpha`, each format's alpha note. */
export function describeFormats(formats: readonly OutputFormatId[], alpha = false): string[] {
  return formats.map((f) => {
    const spec = formatSpec(f);
    const note = alpha ? spec.alphaNote : spec.note;
    return note ? `${f} (${note})` : f;
  });
}
