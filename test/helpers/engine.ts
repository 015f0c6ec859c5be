/**
 * A fresh engine with the built-in commands and the render queue's item commands (pure: no render service),
 * and a helper that unwraps results or fails the test.
 */
import { expect } from 'vitest';
import { Engine, engineCommands, type ExecuteOptions, type ExecuteResult } from '../../src/engine/index.js';
import { createNodePorts } from '../../src/node-io/engine-ports.js';
import { queueItemCommands } from '../../src/render/queue/commands/index.js';

export function newEngine(): Engine {
  return new Engine({ commands: [...engineCommands(), ...queueItemCommands()], ports: createNodePorts() });
}

/** Runs a command that must succeed and returns its result. */
export async function run<R = Record<string, unknown>>(
  engine: Engine,
  id: string,
  params: unknown = {},
  options: ExecuteOptions = {},
): Promise<R> {
  const r = await engine.execute<R>(id, params, options);
  if (!r.ok) expect.fail(`${id} failed: ${r.error.code}: ${r.error.message}`);
  return r.result;
}

/** Runs a command that must fail and returns its error code. */
export async function fails(engine: Engine, id: string, params: unknown = {}): Promise<string> {
  const r: ExecuteResult = await engine.execute(id, params);
  if (r.ok) expect.fail(`${id} unexpectedly succeeded: ${JSON.stringify(r.result)}`);
  expect(r.error.message.length).toBeGreaterThan(0);
  expect(r.error.remediation.length).toBeGreaterThan(0);
  return r.error.code;
}
