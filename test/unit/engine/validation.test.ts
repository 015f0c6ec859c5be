/** parseParams: one bad_argument naming the parameter, missing told apart from invalid whatever its type. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EngineError } from '../../../src/engine/errors.js';
import { parseParams } from '../../../src/engine/validation.js';

const schema = z.strictObject({
  name: z.string().optional(),
  // As layer.addSolid's colour: a string or an [r, g, b, a?] array.
  color: z.union([z.string(), z.array(z.number().min(0).max(1)).min(3).max(4)]),
  width: z.number().int().min(1).optional(),
});

function refusal(raw: unknown): EngineError {
  try {
    parseParams(schema, raw, 'layer.addSolid');
  } catch (err) {
    if (err instanceof EngineError) return err;
    throw err;
  }
  throw new Error('parsed');
}

describe('parseParams', () => {
  it('says a missing parameter of several types is missing, with the accepted parameters', () => {
    for (const raw of [{}, undefined, { name: 'x' }]) {
      const err = refusal(raw);
      expect(err.code).toBe('bad_argument');
      expect(err.message).toBe(
        'Missing required parameter "color" for layer.addSolid. Accepted parameters: name, color, width.',
      );
    }
  });

  it('still says a given value is invalid, with what was wrong', () => {
    expect(refusal({ color: [2, 0, 0] }).message).toMatch(/"color\.0".*<=1/);
    expect(refusal({ color: '#fff', width: 0 }).message).toMatch(/"width".*>=1/);
    expect(refusal({ color: '#fff', bogus: 1 }).message).toMatch(/^Unknown parameter "bogus"/);
  });
});
