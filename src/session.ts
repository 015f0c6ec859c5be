/**
 * The composition root: one place that wires the engine, its ports and the optional services
 * (renderer, render queue, confinement) into a session that the CLI, the MCP server and the app host share.
 * Cheap and side-effect free to create: an MCP client may start the server twice to probe it.
 */
import type { Confinement } from './confinement/types.js';
import { Engine, engineCommands, type AnyCommand, type EnginePorts } from './engine/index.js';
import { createNodePorts } from './engine/node-ports.js';

export interface SessionOptions {
  ports?: EnginePorts;
  confinement?: Confinement;
  logError?: (message: string) => void;
  extraCommands?: AnyCommand[];
}

export interface Session {
  engine: Engine;
  confinement?: Confinement;
}

export function createSession(options: SessionOptions = {}): Session {
  const base = options.ports ?? createNodePorts();
  const ports = options.confinement ? options.confinement.wrapPorts(base) : base;
  const engine = new Engine({
    commands: [...engineCommands(), ...(options.extraCommands ?? [])],
    ports,
    guard: options.confinement?.guard,
    logError: options.logError,
  });
  return { engine, confinement: options.confinement };
}
