/**
 * Remedies in the CLI's words: `effectcraft-cli inspect PROJECT lists them` where an agent reads
 * `doc_inspect`, and the flag that sets a param (`--crf`) where an agent reads `"encoding.crf"`. The flag
 * names come from the flag definitions' `param`, so a renamed flag is named correctly in errors too.
 */
import type { ErrorInfo } from '../engine/index.js';
import type { SurfaceWords } from '../engine/surface-words.js';
import { SUBCOMMAND_SPECS } from './specs/index.js';

const FLAG_OF_PARAM = new Map(
  SUBCOMMAND_SPECS.flatMap((spec) =>
    Object.entries(spec.flags).flatMap(([name, f]) => (f.param ? [[f.param, `--${name}`] as const] : [])),
  ),
);

export const CLI_WORDS: SurfaceWords = {
  inspect: 'effectcraft-cli inspect PROJECT',
  queue: 'effectcraft-cli inspect PROJECT',
  schemas: 'effectcraft-cli commands --schemas --filter ID',
  commands: 'effectcraft-cli commands',
  newOutput: 'effectcraft-cli render PROJECT --output-dir DIR (or --item ID --output PATH)',
  addOutput: 'give --output another path',
  param: (name) => FLAG_OF_PARAM.get(name) ?? `"${name}"`,
  // A param no flag sets (one from a project file's queue item) keeps the command's name: it says where it is.
  paramOf: (name, command) => FLAG_OF_PARAM.get(name) ?? `parameter "${name}" for ${command}`,
};

/**
 * How a person at the CLI relinks footage: the CLI runs no commands, so `footage.relink` (the agent's words, in
 * remedies made by the engine and the render queue) is no way for them; the studio's Relink runs it (it probes
 * the file again, which a path edited by hand never is: the item keeps what its import recorded).
 */
export const CLI_RELINK =
  'relink it in the studio (effectcraft-cli app --project PROJECT, open the link it prints, click Relink beside the footage in the Project panel, then save), which probes the file again: a "path" edited in the project file keeps what the import recorded, so it serves only for a file moved unchanged';

/**
 * A remedy as the CLI prints it: one that names `footage.relink` gets the CLI's way said after it (once), unless
 * it names the project file's "path" itself (a file gone from its place: moved unchanged, editing the path is
 * enough).
 */
export function cliRemedy(remediation: string): string {
  if (!remediation.includes('footage.relink') || remediation.includes('"path"')) return remediation;
  return `${remediation} At the command line: ${CLI_RELINK}.`;
}

/** `result` with every `error.remediation` in it (its items' or rows') as the CLI prints it (cliRemedy). */
export function withCliRemedies<T extends { error?: { remediation: string } }>(entries: readonly T[]): T[] {
  return entries.map((e) =>
    e.error ? { ...e, error: { ...e.error, remediation: cliRemedy(e.error.remediation) } } : e,
  );
}

/** An error as the CLI reports it: in its words, and its remedy as cliRemedy says it. */
export function cliInfo(err: { toInfo(words: SurfaceWords): ErrorInfo }): ErrorInfo {
  const info = err.toInfo(CLI_WORDS);
  return { ...info, remediation: cliRemedy(info.remediation) };
}
