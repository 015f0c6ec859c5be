// How a loop's repeats are grouped in the mix's graph: one group when its period is whole samples (no drift to
// cut away), groups of RUN_GROUP repeats otherwise.
import { describe, expect, it } from 'vitest';
import type { AudioSegment } from '../../../../src/render/audio/clips.js';
import { branchWidth, loopRuns, RUN_GROUP, runGroups } from '../../../../src/render/audio/loop-runs.js';

/** `count` back-to-back plays of a `length`-second piece from footage time 0. */
function repeats(length: number, count: number): AudioSegment[] {
  return Array.from({ length: count }, (_, k) => ({
    at: k * length,
    length,
    from: 0,
    speed: 1,
    reversed: false,
  }));
}

describe('loop groups', () => {
  it('plays a loop whose period is whole samples as one group, whatever its length', () => {
    // A 1 s sound looped under an hour. Until 2026-12-07: 225 groups, each a branch holding its own copy of the
    // piece (4 h of it to WAV took 330 s and 556 MB, against 62 s and 121 MB as one group).
    const branches = loopRuns(repeats(1, 3600));
    expect(branches).toHaveLength(1);
    const run = (branches[0] as { run: Parameters<typeof runGroups>[0] }).run;
    expect(runGroups(run)).toEqual([[0, 3600]]);
    expect(branchWidth(branches)).toBe(1);
    // 44.1 kHz files last whole samples at the mix's 48 kHz too when whole 1/100 s (3 s: 144000 samples).
    expect(branchWidth(loopRuns(repeats(3, 1200)))).toBe(1);
  });

  it('cuts a loop of a period that is not whole samples into groups of RUN_GROUP repeats', () => {
    // 0.300023 s is 14401.1 samples: the repeats drift a tenth of a sample each, and each group starts again on
    // the timeline's own sample.
    const branches = loopRuns(repeats(0.300023, 100));
    expect(branchWidth(branches)).toBe(Math.ceil(100 / RUN_GROUP));
    const run = (branches[0] as { run: Parameters<typeof runGroups>[0] }).run;
    expect(runGroups(run)[1]![0]).toBeCloseTo(RUN_GROUP * 0.300023, 9);
  });
});
