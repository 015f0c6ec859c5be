/**
 * The control channel's one method table: every method the app host answers, with the zod schemas of its
 * params and of its result. The host parses params with them before it runs anything; the client checks its
 * params before sending and parses every reply, so nothing from the other process is trusted unchecked.
 * docs/control-channel.md is the prose version of this file; keep them in step.
 */
import { z } from 'zod';
import { Project } from '../engine/model.js';
import { ErrorInfoSchema } from '../engine/error-info-schema.js';
import { UI_METHODS } from './ui-methods.js';

export interface MethodSpec<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  params: P;
  result: R;
}

const method = <P extends z.ZodType, R extends z.ZodType>(spec: MethodSpec<P, R>) => spec;

const Confinement = z.object({
  confined: z.boolean(),
  readRoots: z.array(z.string()),
  writeRoots: z.array(z.string()),
});

const Annotations = z.object({
  readOnlyHint: z.boolean(),
  destructiveHint: z.boolean(),
  idempotentHint: z.boolean(),
  openWorldHint: z.boolean(),
});

const CatalogEntry = z.object({
  id: z.string(),
  title: z.string(),
  category: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  disabledReason: z.string().optional(),
  annotations: Annotations,
  pathParams: z.record(z.string(), z.enum(['read', 'write'])),
  traits: z.object({
    longRunning: z.boolean(),
    backgroundJob: z.object({ waitParam: z.string() }).nullable(),
    detachesFromCallOrder: z.boolean(),
  }),
  example: z.record(z.string(), z.unknown()).optional(),
  params: z.unknown().optional(),
});

const Step = z.strictObject({ id: z.string().min(1), params: z.unknown().optional() });

export const HelloResult = z.object({
  protocol: z.number().int(),
  app: z.string(),
  version: z.string(),
  capabilities: z.object({ ui: z.boolean(), commands: z.boolean(), render: z.boolean() }),
  /** Optional: a host that omits it (an older or third-party app) is reported as "app roots unknown". */
  confinement: Confinement.optional(),
});
export type HelloResult = z.infer<typeof HelloResult>;

/** Requests and their replies. Results are parsed tolerantly (unknown keys dropped); params strictly. */
const ENGINE_METHODS = {
  hello: method({
    params: z.object({
      protocol: z.number().int(),
      client: z.string().optional(),
      version: z.string().optional(),
    }),
    result: HelloResult,
  }),
  'engine.execute': method({
    params: z.strictObject({
      id: z.string().min(1),
      params: z.unknown().optional(),
      /** A step of this connection's open group (engine.beginGroup). */
      groupId: z.string().min(1).optional(),
    }),
    result: z.object({ result: z.unknown(), warnings: z.array(z.string()).optional() }),
  }),
  'engine.list': method({
    params: z.strictObject({
      filter: z.string().optional(),
      category: z.string().optional(),
      ids: z.array(z.string()).optional(),
      enabledOnly: z.boolean().optional(),
      schemas: z.boolean().optional(),
    }),
    result: z.array(CatalogEntry),
  }),
  'engine.batch': method({
    params: z.strictObject({
      steps: z.array(Step).min(1).max(1000),
      atomic: z.boolean().optional(),
      label: z.string().min(1).max(200).optional(),
    }),
    result: z.object({
      ok: z.boolean(),
      /** One entry per step that ran; a failed step ends the batch. */
      steps: z.array(
        z.union([
          z.object({ id: z.string(), ok: z.literal(true), result: z.unknown() }),
          z.object({ id: z.string(), ok: z.literal(false), error: ErrorInfoSchema }),
        ]),
      ),
    }),
  }),
  'engine.beginGroup': method({
    params: z.strictObject({ label: z.string().min(1).max(200) }),
    result: z.object({ groupId: z.string() }),
  }),
  'engine.endGroup': method({
    params: z.strictObject({ groupId: z.string(), commit: z.boolean() }),
    result: z.object({ committed: z.boolean() }),
  }),
  'session.view': method({
    params: z.strictObject({}),
    result: z.object({
      doc: Project,
      projectPath: z.string().nullable(),
      canUndo: z.boolean(),
      canRedo: z.boolean(),
      /** Absent from apps before 2026-12-07. */
      unsaved: z.boolean().default(false),
    }),
  }),
  /** The studio the UI methods drive: whether one is served, how many pages are open, which one is driven. */
  'studio.status': method({
    params: z.strictObject({}),
    result: z.object({
      served: z.boolean(),
      /** The studio's address, without a token (studio.link gives a link that opens it). */
      url: z.string().nullable(),
      pages: z.number().int(),
      /** The page the UI methods act on, or null when none is open. */
      driving: z
        .object({ pageId: z.string(), headless: z.boolean(), focusedAt: z.string().nullable() })
        .nullable(),
      /** Whether the app owns a headless browser showing the studio (--studio-headless). */
      headless: z.boolean(),
      /** The Chromium or Chrome found for --studio-headless, or why none, with the remedy. */
      browser: z
        .union([
          z.object({ found: z.literal(true), path: z.string() }),
          z.object({ found: z.literal(false), reason: z.string(), remediation: z.string() }),
        ])
        .nullable(),
      /** When no page can be driven: what to do. */
      remediation: z.string().optional(),
    }),
  }),
  /** A fresh one-time link to the studio (for a person to open). */
  'studio.link': method({
    params: z.strictObject({}),
    result: z.object({ url: z.string() }),
  }),
} as const;

export const METHODS = { ...ENGINE_METHODS, ...UI_METHODS } as const;

export type MethodName = keyof typeof METHODS;
export type ParamsOf<M extends MethodName> = z.input<(typeof METHODS)[M]['params']>;
export type ResultOf<M extends MethodName> = z.output<(typeof METHODS)[M]['result']>;

/** The table entry of a method name from the wire, or undefined (own keys only: "constructor" is no method). */
export function methodSpec(name: string): MethodSpec | undefined {
  return Object.hasOwn(METHODS, name) ? (METHODS as Record<string, MethodSpec>)[name] : undefined;
}

/** Notifications the host sends (no id, no reply): best effort. */
export const EVENTS = {
  /** `revision` counts document changes (absent from older apps). */
  'event.documentChanged': z.object({ label: z.string(), revision: z.number().int().optional() }),
  /** The project was written to `path` (no document change: `revision` is the one saved). */
  'event.projectSaved': z.object({ path: z.string(), revision: z.number().int() }),
  'event.progress': z.object({
    command: z.string(),
    progress: z.number(),
    total: z.number().optional(),
    message: z.string().optional(),
  }),
  'event.renderProgress': z.object({
    itemId: z.string(),
    framesDone: z.number(),
    framesTotal: z.number(),
    itemsDone: z.number(),
    itemsTotal: z.number(),
    status: z.enum(['done', 'failed', 'stopped']).optional(),
  }),
} as const;

export type EventName = keyof typeof EVENTS;
