/**
 * How a surface names the ways to look things up, for error remedies. An agent over MCP reads "doc_inspect
 * lists them" and "encoding.crf"; a person at the CLI reads "effectcraft-cli inspect PROJECT lists them" and
 * "--crf". A remedy that points somewhere is a function of these words (see Remedy in errors.ts); the engine
 * words it for the surface it serves (EngineOptions.words) when it turns an error into a value.
 */

export interface SurfaceWords {
  /** What lists compositions, layers, effects and render queue items. */
  inspect: string;
  /** What lists the render queue's items with their ids. */
  queue: string;
  /** What shows a command's accepted params. */
  schemas: string;
  /** What lists the commands. */
  commands: string;
  /** How to give a queued render another output (file or folder). */
  newOutput: string;
  /** How to give a render being queued (renderQueue.add, the CLI's --comp) another output: it has no id yet. */
  addOutput: string;
  /** How a command param (`frameRange`, `encoding.crf`) is named: a quoted param, or the CLI flag that sets it. */
  param(name: string): string;
  /** A command's param in a sentence: `parameter "scale" for renderQueue.add`, or at the CLI its flag `--scale`. */
  paramOf(name: string, command: string): string;
}

/** MCP tools: the words every remedy used before surfaces had their own. */
export const MCP_WORDS: SurfaceWords = {
  inspect: 'doc_inspect',
  queue: 'renderQueue.list',
  schemas: 'command_list with schemas',
  commands: 'command_list',
  newOutput: 'renderQueue.update {id, output}',
  addOutput: 'renderQueue.add with another "output"',
  param: (name) => `"${name}"`,
  paramOf: (name, command) => `parameter "${name}" for ${command}`,
};

/**
 * A remedy: plain text, or text that points to a way of looking something up or names a param, worded for
 * the surface that shows it.
 */
export type Remedy = string | ((words: SurfaceWords) => string);
