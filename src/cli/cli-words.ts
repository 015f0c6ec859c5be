/**
 * Remedies in the CLI's words: `effectcraft-cli inspect PROJECT lists them` where an agent reads
 * `doc_inspect`, and the flag that sets a param (`--crf`) where an agent reads `"encoding.crf"`. The flag
 * names come from the flag definitions' `param`, so a renamed flag is named correctly in errors too.
 */
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
