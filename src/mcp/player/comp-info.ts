/**
 * What the player needs to know about a composition (size, rate, frame count), read through `project.inspect`
 * so it works the same in headless and bridge mode, and resolved the way the commands resolve `comp`: an id,
 * or a name when it is unique; none means the active composition.
 */
import type { CompSummary, ErrorInfo } from '../../engine/index.js';
import { isPlainObject, type ToolContext } from '../tools/types.js';

/** What the player reads of a composition (frames 0 .. frames-1). */
export type PlayerComp = Pick<
  CompSummary,
  'id' | 'name' | 'width' | 'height' | 'frameRate' | 'duration' | 'frames'
>;

type Found = { ok: true; comp: PlayerComp } | { ok: false; error: ErrorInfo };

const LIST_REMEDY = 'doc_inspect lists the compositions (project.compositions) with their ids and names.';

/** The composition `ref` names (default: the active one), or why there is none. */
export async function findPlayerComp(ctx: ToolContext, ref: string | undefined): Promise<Found> {
  const r = await ctx.backend.execute('project.inspect', {});
  if (!r.ok) return { ok: false, error: r.error };
  const project = isPlainObject(r.result) && isPlainObject(r.result.project) ? r.result.project : {};
  const comps = (Array.isArray(project.compositions) ? project.compositions : []) as PlayerComp[];
  const wanted = ref ?? (typeof project.activeComp === 'string' ? project.activeComp : undefined);
  if (wanted === undefined) {
    return {
      ok: false,
      error: {
        code: 'not_found',
        message: 'There is no active composition to play.',
        remediation: 'Create one with command_run {id: "comp.new"}, or pass "comp".',
      },
    };
  }
  const byId = comps.find((c) => c.id === wanted);
  const named = comps.filter((c) => c.name === wanted);
  const comp = byId ?? (named.length === 1 ? named[0] : undefined);
  if (comp) return { ok: true, comp };
  return {
    ok: false,
    error: {
      code: named.length > 1 ? 'bad_argument' : 'not_found',
      message:
        named.length > 1
          ? `${named.length} compositions are named "${wanted}".`
          : `There is no composition "${wanted}".`,
      remediation: `Pass a composition id; ${LIST_REMEDY}`,
    },
  };
}
