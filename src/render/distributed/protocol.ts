/**
 * What crosses Redis between the coordinator (`render --redis`) and the workers (`worker --redis`): one zod
 * schema per job's data and result, parsed at both ends, so a job written by another version, or by hand, is
 * refused with a reason instead of rendering something half understood.
 */
import { z } from 'zod';
import type { ErrorInfo } from '../../engine/errors.js';
import { ErrorInfoSchema } from '../../engine/error-info-schema.js';
import { RenderQueueItem } from '../../engine/model.js';

/** The BullMQ queue every chunk and assembly job goes through. */
export const QUEUE_NAME = 'effectcraft-render';

/** Job names: a flow's parent assembles, its children render frame ranges. */
export const JOB = { chunk: 'chunk', assemble: 'assemble' } as const;

/**
 * The read and write roots of a confined coordinator (`mcp --redis` with --automation-*-root): a worker opens
 * the job's outputs and reads its footage through a confinement made from them. null: not confined.
 */
export const JobRoots = z.strictObject({ read: z.array(z.string()), write: z.array(z.string()) });
export type JobRoots = z.infer<typeof JobRoots>;

const Common = z.strictObject({
  /** The coordinator's package version: a worker of another version refuses the job. */
  version: z.string(),
  /** One id per render command, so jobs of two renders never share an id. */
  renderId: z.string(),
  /** The item as the coordinator resolved it (absolute output, props, encoding). */
  item: RenderQueueItem,
  roots: JobRoots.nullable(),
});

/**
 * The project (the job's snapshot, props applied on the worker as locally) is not in the job data: it is stored
 * once per render (shared-doc.ts) and read by the render id.
 */
export const ChunkData = Common.extend({
  /** Inclusive frame range, by frame index. */
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  /** A video chunk's segment file (chunks.ts segmentPath); null: the chunk writes the item's own output. */
  segment: z.string().nullable(),
});
export type ChunkData = z.infer<typeof ChunkData>;

export const AssembleData = Common.extend({
  /** Frames of the whole item (its frameRange, or the whole composition). */
  frames: z.number().int().min(0),
  /** How the chunks become the output (chunks.ts): segments are joined, frames and whole items are as written. */
  split: z.enum(['frames', 'segments', 'whole']),
  /** The composition's frame rate: joined segments start at their first frame's exact time (join-segments.ts). */
  frameRate: z.number().positive(),
  /**
   * Joined segments whose output carries sound: the assembly mixes the item's sound once, for the whole item,
   * from the render's document, and muxes it (per-chunk AAC would leave gaps at the seams).
   */
  sound: z.boolean(),
});
export type AssembleData = z.infer<typeof AssembleData>;

const OutputFileSchema = z.strictObject({ path: z.string(), bytes: z.number(), sha256: z.string() });

export const ChunkResult = z.strictObject({
  start: z.number().int(),
  frames: z.number().int(),
  skipped: z.number().int(),
  files: z.array(OutputFileSchema),
  /**
   * The earlier files the chunk's files replaced, kept aside beside them (FileTracker's KeptAside): deleted
   * once the item is assembled, put back if the render is stopped or fails (kept.ts).
   */
  kept: z.array(z.strictObject({ path: z.string(), aside: z.string() })),
});
export type ChunkResult = z.infer<typeof ChunkResult>;

export const AssembleResult = z.strictObject({
  frames: z.number().int(),
  skipped: z.number().int(),
  files: z.array(OutputFileSchema),
  manifest: z.string().nullable(),
});
export type AssembleResult = z.infer<typeof AssembleResult>;

/** A chunk's progress, as job.updateProgress carries it. */
export const ChunkProgress = z.strictObject({ done: z.number().int().min(0) });

/**
 * A job's failure: BullMQ keeps only a string (failedReason), so the ErrorInfo travels as JSON in it. A reason
 * that is not ours (a worker crash, a lost lock) becomes render_failed with the text as given.
 */
export function encodeFailure(error: ErrorInfo): string {
  return JSON.stringify(error);
}

export function decodeFailure(reason: string | undefined): ErrorInfo {
  try {
    const parsed = ErrorInfoSchema.safeParse(JSON.parse(reason ?? ''));
    if (parsed.success) return parsed.data;
  } catch {
    // Not JSON: a message from BullMQ or a crash.
  }
  return {
    code: 'render_failed',
    message: `A render worker failed: ${reason ?? 'no reason given'}.`,
    remediation: 'See the worker logs, then render again.',
  };
}
