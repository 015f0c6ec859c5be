import { describe, expect, it } from 'vitest';
import { effectiveConfinement, layeredConfinement } from '../../../src/bridge/confinement-view.js';
import { outsideRoots, refusedWhileConfined } from '../../../src/confinement/errors.js';
import type { ConfinementInfo } from '../../../src/confinement/types.js';

const off: ConfinementInfo = { confined: false, readRoots: [], writeRoots: [] };
const on = (readRoots: string[], writeRoots: string[]): ConfinementInfo => ({
  confined: true,
  readRoots,
  writeRoots,
});

describe('bridge confinement view', () => {
  it('is unconfined only when neither side is confined', () => {
    expect(effectiveConfinement(off, off)).toEqual(off);
  });

  it('takes the confined side alone when the other is not confined', () => {
    const app = on(['/data'], ['/work/out']);
    expect(effectiveConfinement(off, app)).toEqual(app);
    expect(effectiveConfinement(app, off)).toEqual(app);
  });

  it('keeps only what both sides allow: the deeper of nested roots, nothing for disjoint ones', () => {
    const mcp = on(['/data'], ['/work']);
    const app = on([], ['/work/out', '/elsewhere']);
    // Reads: mcp allows /data and /work; the app allows /work/out and /elsewhere -> /work/out only,
    // which is also the effective write root, so it is not repeated as a read root.
    expect(effectiveConfinement(mcp, app)).toEqual(on([], ['/work/out']));
  });

  it('lists a read-only intersection separately from the writable one', () => {
    const mcp = on(['/proj'], ['/proj/out']);
    const app = on(['/proj/assets'], ['/proj/out']);
    expect(effectiveConfinement(mcp, app)).toEqual(on(['/proj/assets'], ['/proj/out']));
  });

  it('does not treat a prefix sibling as nested', () => {
    expect(effectiveConfinement(on([], ['/work/root']), on([], ['/work/root-evil']))).toEqual(on([], []));
  });

  it('shows both layers, and the MCP side alone (flagged) when the app cannot say', () => {
    const mcp = on([], ['/a']);
    const app = on([], ['/a/b']);
    expect(layeredConfinement(mcp, app)).toEqual({ ...on([], ['/a/b']), mcp, app });
    const unknown = layeredConfinement(mcp, { unknown: 'no app' });
    expect(unknown).toMatchObject({ ...mcp, mcp, app: null, appUnknown: 'no app' });
  });
});

describe('confinement refusals name who to restart', () => {
  const app = { who: 'the app', command: 'effectcraft-cli app ' };

  it('names the server by default and the app command when given', () => {
    const roots = { readRoots: [], writeRoots: ['/w'] };
    expect(outsideRoots('path', '/x/y', 'write', roots, false).remediation).toContain(
      'restart the server with --automation-write-root /x',
    );
    expect(outsideRoots('path', '/x/y', 'write', roots, false, app).remediation).toContain(
      'restart the app with effectcraft-cli app --automation-write-root /x',
    );
    expect(refusedWhileConfined('run', 'why', app).remediation).toContain('(effectcraft-cli app)');
  });
});
