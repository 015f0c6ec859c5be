import { describe, expect, it } from 'vitest';
import { didYouMean, nearNames } from '../../../src/cli/near-names.js';

const RENDER = ['item', 'comp', 'output', 'output-dir', 'concurrency', 'format', 'frames', 'scale', 'json'];

describe('nearNames', () => {
  it.each([
    ['itme', ['item']], // two letters swapped: one edit
    ['frame', ['frames']], // still's flag given to render
    ['concurency', ['concurrency']],
    ['outptu-dir', ['output-dir']],
    ['out', ['output', 'output-dir']], // a name it begins, nearest first
    ['JSON', ['json']],
  ])('finds what %j meant', (typed, meant) => {
    expect(nearNames(typed, RENDER)).toEqual(meant);
  });

  it('gives nothing for a name near none, so a wild guess gets no advice', () => {
    expect(nearNames('bogus', RENDER)).toEqual([]);
    expect(nearNames('x', RENDER)).toEqual([]);
  });

  it('suggests subcommands too', () => {
    const commands = ['render', 'still', 'inspect', 'commands', 'mcp', 'app', 'worker'];
    expect(nearNames('rendr', commands)).toEqual(['render']);
    expect(nearNames('inpsect', commands)).toEqual(['inspect']);
  });
});

describe('didYouMean', () => {
  it('words one, two or none', () => {
    expect(didYouMean(['--item'])).toBe(' Did you mean --item?');
    expect(didYouMean(['--output', '--output-dir'])).toBe(' Did you mean --output or --output-dir?');
    expect(didYouMean([])).toBe('');
  });
});
