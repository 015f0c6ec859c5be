/**
 * Footage whose file is not there: what project.open reports and project.inspect marks, so an agent or a
 * pipeline learns it from the document's view rather than at the first preview (a placeholder) or render
 * (no_such_file). Looked up through the engine's ports, so a path the roots do not allow is never told about.
 */
import type { Project } from './model.js';

export interface MissingFootage {
  id: string;
  name: string;
  path: string;
}

export async function missingFootage(
  doc: Project,
  exists: (path: string) => Promise<boolean>,
): Promise<MissingFootage[]> {
  const missing: MissingFootage[] = [];
  for (const item of doc.items)
    if (item.type === 'footage' && !(await exists(item.path).catch(() => true)))
      missing.push({ id: item.id, name: item.name, path: item.path });
  return missing;
}
