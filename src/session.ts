/**
 * The composition root: one place that wires the engine, its ports and the optional services
 * (renderer, render queue, confinement) into a session that the CLI, the MCP server and the app host share.
 * Cheap and side-effect free to create: an MCP client may start the server twice to probe it.
 */
import {
  Engine,
  engineCommands,
  type AnyCommand,
  type CommandGuard,
  type EnginePorts,
} from './engine/index.js';
import { createNodePorts } from './engine/node-ports.js';

export interface SessionOptions {
  ports?: EnginePorts;
  guard?: CommandGuard;
  logError?: (message: string) => void;
  extraCommands?: AnyCommand[];
}

export interface Session {
  engine: Engine;
}

export function createSession(options: SessionOptions = {}): Session {
  const engine = new Engine({
    commands: [...engineCommands(), ...(options.extraCommands ?? [])],
    ports: options.ports ?? createNodePorts(),
    guard: options.guard,
    logError: options.logError,
  });
  return { engine };
}
