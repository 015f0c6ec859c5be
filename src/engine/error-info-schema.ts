/**
 * The wire shape of an error as a zod schema, for data from another process (the bridge and the distributed
 * render parse errors with it). Apart from errors.ts so that the render workers, which only raise errors, do
 * not load zod (about 60 ms and its memory in every worker, before its first frame).
 */
import { z } from 'zod';
import { ErrorCodes, type ErrorCode } from './errors.js';

export const ErrorInfoSchema = z.object({
  code: z.enum(Object.values(ErrorCodes) as [ErrorCode, ...ErrorCode[]]),
  message: z.string(),
  remediation: z.string(),
});
