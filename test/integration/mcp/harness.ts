/** In-process MCP harness: a session, our server and the official client joined by an in-memory transport. */
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { defineCommand, EngineError, READ_ONLY, type AnyCommand } from '../../../src/engine/index.js';
import type { Confinement } from '../../../src/confinement/types.js';
import type { Backend } from '../../../src/mcp/backend.js';
import { CapabilityProbe, type HostFacts } from '../../../src/mcp/capabilities.js';
import { createHeadlessBackend } from '../../../src/mcp/headless-backend.js';
import { createMcpServer } from '../../../src/mcp/server.js';
import { createSession, type SessionOptions } from '../../../src/session.js';
import { spinCommand } from '../../helpers/spin.js';

export interface SlowRun {
  aborted: boolean;
  stepsDone: number;
}

/** A stand-in for a long render: `steps` steps of `stepMs`, reporting progress and honouring the signal. */
export function slowCommand(runs: SlowRun[]): AnyCommand {
  return defineCommand({
    id: 'test.slow',
    title: 'Slow',
    category: 'Test',
    description: 'Test stand-in for a long-running command.',
    params: z.strictObject({ steps: z.number().int().min(1), stepMs: z.number().min(0) }),
    pathParams: {},
    annotations: READ_ONLY,
    mutates: false,
    async run(ctx, p) {
      const run: SlowRun = { aborted: false, stepsDone: 0 };
      runs.push(run);
      for (let i = 1; i <= p.steps; i++) {
        if (ctx.signal.aborted) {
          run.aborted = true;
          throw new EngineError('cancelled', 'stopped', 'run again');
        }
        await new Promise((r) => setTimeout(r, p.stepMs));
        run.stepsDone = i;
        ctx.progress({ progress: i, total: p.steps, message: `step ${i}` });
      }
      return { steps: p.steps, failed: 0 };
    },
  }) as AnyCommand;
}

/** Returns its params: lets a batch step produce any value for a later $N reference. */
export const echoCommand: AnyCommand = defineCommand({
  id: 'test.echo',
  title: 'Echo',
  category: 'Test',
  description: 'Test helper.',
  params: z.record(z.string(), z.unknown()),
  pathParams: {},
  annotations: READ_ONLY,
  mutates: false,
  run: (_ctx, p) => p,
}) as AnyCommand;

export const FAKE_PNG = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');

/** Stand-in for the compositor's frame.preview (same result shape). */
export const fakePreview: AnyCommand = defineCommand({
  id: 'frame.preview',
  title: 'Preview Frame',
  category: 'Render',
  description: 'Test stand-in.',
  params: z.strictObject({
    comp: z.string().optional(),
    time: z.number().optional(),
    max_side: z.number().optional(),
    transparent: z.boolean().optional(),
    output: z.string().optional(),
  }),
  pathParams: {},
  annotations: READ_ONLY,
  mutates: false,
  run: (_ctx, p) => ({
    png: FAKE_PNG,
    comp: { id: 'comp_1', name: p.comp ?? 'Main' },
    time: p.time ?? 0,
    frame: 0,
    sourceSize: { width: 100, height: 50 },
    size: { width: p.max_side ?? 100, height: 50 },
    bytes: 8,
    sha256: 'x',
    warnings: [],
  }),
}) as AnyCommand;

export interface Harness {
  client: Client;
  backend: Backend;
  logs: string[];
  runs: SlowRun[];
  close(): Promise<void>;
}

export const HOST_OK: HostFacts = {
  ffmpeg: { path: '/usr/bin/ffmpeg' },
  sharp: null,
  canvas: null,
  font: null,
};

export async function harness(
  options: {
    confinement?: Confinement;
    backend?: (b: Backend) => Backend;
    facts?: HostFacts;
    /** Render queue options (e.g. the stand-in renderer, for renders in tests). */
    renderQueue?: SessionOptions['renderQueue'];
  } = {},
): Promise<Harness> {
  const runs: SlowRun[] = [];
  const logs: string[] = [];
  const session = createSession({
    confinement: options.confinement,
    ...(options.renderQueue && { renderQueue: options.renderQueue }),
    extraCommands: [slowCommand(runs), fakePreview, echoCommand, spinCommand],
    logError: (m) => logs.push(m),
  });
  const base = createHeadlessBackend(session.engine);
  const backend = options.backend ? options.backend(base) : base;
  const server = createMcpServer(backend, {
    version: '9.9.9',
    confinement: options.confinement,
    capabilities: new CapabilityProbe(async () => options.facts ?? HOST_OK),
    log: (m) => logs.push(m),
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: 'it', version: '1.0.0' });
  await client.connect(b);
  return {
    client,
    backend,
    logs,
    runs,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
