import { describe, expect, it } from 'vitest';
import { ActivityLog, summaryOf } from '../../../src/studio/server/activity.js';
import type { ActivityEntry } from '../../../src/studio/protocol.js';

const page = { kind: 'page' as const, name: 'studio page 1' };
const agent = { kind: 'agent' as const, name: 'effectcraft-cli mcp' };
const ok = (result: unknown = {}) => ({ ok: true as const, result });

describe('ActivityLog', () => {
  it('keeps the newest entries first and bounded', () => {
    const log = new ActivityLog(3);
    for (const c of ['a', 'b', 'c', 'd']) log.record({ actor: agent, command: c, title: c, result: ok() });
    expect(log.recent().map((e) => e.command)).toEqual(['d', 'c', 'b']);
    expect(log.recent(1).map((e) => e.seq)).toEqual([4]);
  });

  it("counts a drag's repeated steps as one entry, re-sent with the same seq", () => {
    const log = new ActivityLog();
    const sent: ActivityEntry[] = [];
    log.on((e) => sent.push(e));
    for (let i = 0; i < 5; i++)
      log.record({
        actor: page,
        command: 'property.set',
        title: 'Set Property Value',
        group: 'group_1',
        result: ok(),
      });
    // Another group, or the same command outside a group, is a new entry.
    log.record({
      actor: page,
      command: 'property.set',
      title: 'Set Property Value',
      group: 'group_2',
      result: ok(),
    });
    log.record({ actor: page, command: 'property.set', title: 'Set Property Value', result: ok() });
    log.record({ actor: page, command: 'property.set', title: 'Set Property Value', result: ok() });
    expect(log.recent().map((e) => [e.seq, e.count])).toEqual([
      [4, 1],
      [3, 1],
      [2, 1],
      [1, 5],
    ]);
    expect(sent.slice(0, 5).map((e) => e.seq)).toEqual([1, 1, 1, 1, 1]);
  });

  it("a page's gesture of several commands (a keyframe moved: remove, set) is one entry under its name", () => {
    const log = new ActivityLog();
    const step = (
      command: string,
      title: string,
      actor: typeof page | typeof agent = page,
      group = 'group_7',
    ) => log.record({ actor, command, title, group, groupLabel: 'Move Keyframe', result: ok() });
    for (let i = 0; i < 3; i++) {
      step('property.removeKeyframe', 'Remove Keyframe');
      step('property.setKeyframe', 'Set Keyframe');
    }
    expect(log.recent().map((e) => [e.title, e.count])).toEqual([['Move Keyframe', 6]]);
    // An agent's batch keeps an entry a step.
    step('comp.new', 'New Composition', agent, 'group_8');
    step('layer.addSolid', 'Add Solid', agent, 'group_8');
    expect(log.recent().map((e) => e.title)).toEqual(['Add Solid', 'New Composition', 'Move Keyframe']);
  });

  it('records a failure with its error', () => {
    const log = new ActivityLog();
    const error = { code: 'not_found' as const, message: 'No layer "x".', remediation: 'List layers.' };
    log.record({
      actor: agent,
      command: 'layer.rename',
      title: 'Rename Layer',
      result: { ok: false, error },
    });
    expect(log.recent()[0]).toMatchObject({ ok: false, error, count: 1 });
  });

  it('summarises a result in one short line', () => {
    expect(summaryOf({ id: 'layer_3', name: 'Title', big: 'x'.repeat(1000) })).toEqual({
      summary: 'layer_3 "Title"',
    });
    expect(summaryOf([1, 2])).toEqual({});
    expect(summaryOf({ nothing: true })).toEqual({});
  });
});
