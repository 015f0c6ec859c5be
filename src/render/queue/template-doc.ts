/**
 * The document a queue item renders: the job's snapshot with the item's props applied (apply-props.ts). A
 * footage prop's file is probed here, through the engine's ports (so confinement applies), as file.import would.
 */
import {
  applyProps,
  footageProps,
  type EnginePorts,
  type ProbedFootage,
  type Project,
  type RenderQueueItem,
} from '../../engine/index.js';
import { importMedia } from '../../engine/commands/media-import.js';

/** `doc` as `item` renders it: unchanged without props; a new document with them (the snapshot is untouched). */
export async function templateDoc(doc: Project, item: RenderQueueItem, ports: EnginePorts): Promise<Project> {
  if (!item.props || !Object.keys(item.props).length) return doc;
  const comp = doc.items.find((i) => i.id === item.comp);
  if (comp?.type !== 'composition') return doc;
  const footage = new Map<string, ProbedFootage>();
  for (const path of footageProps(comp, item.props)) {
    if (footage.has(path)) continue;
    const probed = await importMedia({ ports }, path, { sequence: false, frameRate: undefined });
    footage.set(path, probed);
  }
  return applyProps(doc, item.comp, item.props, footage);
}
