// `inspect --strict --json` marks a missing file with `missing` / `missingFrames` and an unusable one with
// `problem`: the help (and docs/cli.md, generated from it) must name each, or a pipeline reading only `problem`
// passes a project whose footage is gone (the help named `problem` alone until 2026-12-07).
import { describe, expect, it } from 'vitest';
import { inspectSpec } from '../../../src/cli/specs/inspect.js';

describe('inspect --strict help', () => {
  it('names every field --json marks a failing footage item or queue item with', () => {
    const help = inspectSpec.flags.strict!.help;
    for (const field of [
      'missing: true',
      'missingFrames {count, first}',
      'problem {code, message, remediation}',
    ])
      expect(help).toContain(field);
  });
});
