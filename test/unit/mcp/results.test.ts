/** toCallToolResult: which JSON results are error results (isError) for a client that reads only that flag. */
import { describe, expect, it } from 'vitest';
import { toCallToolResult } from '../../../src/mcp/results.js';

const json = (value: Record<string, unknown>) => toCallToolResult({ kind: 'json', value });

describe('toCallToolResult', () => {
  it('marks a render whose items did not all finish, failed or stopped, as an error result', () => {
    const render = { completed: 1, failed: 0, stopped: 0, skipped_frames: 0, items: [] };
    expect(json(render).isError).toBeUndefined();
    expect(json({ ...render, failed: 1 }).isError).toBe(true);
    // renderQueue.stop from another caller: the item was not rendered, though nothing failed.
    expect(json({ ...render, completed: 0, stopped: 1 }).isError).toBe(true);
  });

  it("leaves renderQueue.stop's own {stopped: true} a plain result", () => {
    expect(json({ stopped: true }).isError).toBeUndefined();
    expect(json({ stopped: false, message: 'No render is running.' }).isError).toBeUndefined();
  });
});
