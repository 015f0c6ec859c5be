/**
 * get_output: a remote client fetches what a render or save wrote on the render node, in bounded chunks with
 * the file's size and sha256 (compare with the render result's sha256 or its manifest). Offered over HTTP only.
 */
import { z } from 'zod';
import { OUTPUT_CHUNK_MAX, type OutputReader } from '../remote/output-reader.js';
import { READ_ONLY_TOOL, defineTool } from './types.js';
import { largeBase64 } from '../http-splice.js';

export function getOutputTool(outputs: OutputReader) {
  return defineTool({
    name: 'get_output',
    title: 'Get Output File',
    description: `Returns bytes of a file this server wrote since it started (render outputs and manifests, project.save, render_preview output): {path, size, sha256, offset, length, eof, content_b64}. At most ${OUTPUT_CHUNK_MAX} bytes per call: call again with offset += length until eof. Any other file is refused.`,
    hints: READ_ONLY_TOOL,
    input: z.strictObject({
      path: z.string().min(1).describe('Absolute path, as a render or save result gave it.'),
      offset: z.number().int().min(0).optional().describe('First byte to return (default 0).'),
      length: z
        .number()
        .int()
        .min(1)
        .max(OUTPUT_CHUNK_MAX)
        .optional()
        .describe(`Bytes to return (default and max ${OUTPUT_CHUNK_MAX}).`),
    }),
    async run(args) {
      const r = await outputs.read(args.path, args.offset ?? 0, args.length ?? OUTPUT_CHUNK_MAX);
      if (!r.ok) return { kind: 'error', error: r.error };
      const { content, release, ...facts } = r.slice;
      // The bytes travel once, in structuredContent; the text content names the facts only.
      return {
        kind: 'json',
        // Over HTTP the base64 skips the SDK's JSON.stringify (http-splice.ts): the same bytes, sooner.
        // The chunk's buffer is reused once its base64 is written.
        value: { ...facts, content_b64: largeBase64(content, release) },
        text: { ...facts, content_b64: `(${facts.length} bytes, base64, in structuredContent.content_b64)` },
      };
    },
  });
}
