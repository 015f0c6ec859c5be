/**
 * Pointing a footage item at a file again (After Effects' Replace Footage and Reload Footage): the file is
 * probed as file.import probes it, and the item keeps its id and name, so every layer showing it, with its
 * keyframes, timing and effects, shows the new file. The remedy for footage that moved, or changed on disk.
 */
import { z } from 'zod';
import { defineCommand, EDIT } from '../catalog.js';
import { findFootage } from '../resolve.js';
import { DEFAULT_SEQUENCE_RATE, importMedia } from './media-import.js';
import { AbsPath } from './params.js';

export const footageRelink = defineCommand({
  id: 'footage.relink',
  title: 'Relink Footage',
  category: 'File',
  description:
    'Points a footage item at a file (its new place, or the same path to read a file that changed on disk again): the file is probed as file.import does, and the item keeps its id and name, so every layer showing it shows the new file with its keyframes, timing and effects. One undo step.',
  example: { footage: 'Interview', path: '/media/interview-v2.mp4' },
  params: z.strictObject({
    footage: z.string().min(1).describe('Footage item id or unique name'),
    path: AbsPath,
    sequence: z
      .boolean()
      .optional()
      .describe('Read the run of numbered files that starts at "path" as an image sequence'),
    frameRate: z
      .number()
      .positive()
      .max(240)
      .optional()
      .describe(
        `Image sequences: frames per second (default: the item's own, else ${DEFAULT_SEQUENCE_RATE})`,
      ),
  }),
  pathParams: { path: 'read' },
  annotations: EDIT,
  mutates: true,
  async run(ctx, p) {
    const item = findFootage(ctx.doc, p.footage);
    const ownRate = item.media?.kind === 'sequence' ? (item.media.frameRate ?? undefined) : undefined;
    const found = await importMedia(ctx, p.path, {
      sequence: p.sequence ?? false,
      frameRate: p.frameRate ?? ownRate,
    });
    ctx.update((d) => {
      const draft = d.items.find((i) => i.id === item.id);
      if (draft?.type !== 'footage') return;
      draft.path = found.path;
      draft.width = found.width;
      draft.height = found.height;
      draft.format = found.format;
      if (found.media) draft.media = found.media;
      else delete draft.media;
    });
    return {
      id: item.id,
      path: found.path,
      width: found.width,
      height: found.height,
      format: found.format,
      media: found.media,
    };
  },
});

export const footageCommands = [footageRelink];
