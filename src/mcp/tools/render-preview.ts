/**
 * render_preview: one frame as MCP image content, through the engine's `frame.preview` command
 * (so confinement, footage reads and missing-footage placeholders behave as everywhere else).
 */
import { z } from 'zod';
import { Quality } from '../../engine/index.js';
import { defineTool, imageOutcome } from './types.js';

export const renderPreview = defineTool({
  name: 'render_preview',
  title: 'Render Preview Frame',
  description:
    'Renders one frame of a composition (default: the active one at time 0) and returns it as a PNG image (format jpeg or webp: several times smaller over video footage), with the frame information (comp, time, frame, sizes, sha256, warnings) as JSON. Look at pixels with this; render finals with renderQueue.render. With output, the image is also written to disk.',
  // A file writer: with "output" it writes the PNG to disk (replacing a file there).
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  // The frame is drawn off the main thread (the session's preview worker), which a cancellation stops.
  cancellable: true,
  input: z.strictObject({
    comp: z.string().min(1).optional().describe('Composition id or name (default: the active composition).'),
    time: z.number().min(0).optional().describe('Comp time in seconds (default 0).'),
    max_side: z
      .number()
      .int()
      .min(16)
      .max(2048)
      .optional()
      .describe('Longest side of the image in pixels (default 768, at most 2048; never upscaled).'),
    transparent: z
      .boolean()
      .optional()
      .describe('Keep the background transparent instead of the comp colour.'),
    format: z
      .enum(['png', 'jpeg', 'webp'])
      .optional()
      .describe(
        "Image format (default png, or output's extension): jpeg or webp for a small image of video footage or photos.",
      ),
    quality: Quality.optional().describe('JPEG/WebP quality, 1 to 100 (default 80).'),
    output: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Also write the image to this absolute path (.png, or .jpg/.webp with that format; checked against the write roots when confined).',
      ),
    props: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "Template input values by name (input.list shows them), as renderQueue.add's props: see a frame of a template as a render of those values draws it, without changing the document.",
      ),
  }),
  async run(args, ctx) {
    // frame.preview takes the tool's arguments under the same names: an error names the argument the caller
    // used (an absolute-path check says "output", not a name the caller never sent).
    const r = await ctx.backend.execute('frame.preview', args, { signal: ctx.signal });
    if (!r.ok) return { kind: 'error', error: r.error };
    const image = imageOutcome(r.result);
    if (!image) {
      ctx.log(`frame.preview returned no image: ${JSON.stringify(r.result)?.slice(0, 200)}`);
      return {
        kind: 'error',
        error: {
          code: 'tool_failed',
          message: 'frame.preview returned no image.',
          remediation: 'Report it with the server log (stderr).',
        },
      };
    }
    const warnings = [...((image.info.warnings as string[] | undefined) ?? []), ...(r.warnings ?? [])];
    return { ...image, info: { ...image.info, warnings } };
  },
});
