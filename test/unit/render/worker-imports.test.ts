// What a render worker loads before its first frame, from its static imports: not the engine's command catalog
// (its schemas and immer took ~25 ms) nor sharp (~45 ms, loaded on first use: sharp-module.ts).
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { repoRoot } from '../../helpers/cli.js';

const src = join(repoRoot, 'src');

/** Every source file and package reached by static value imports from `entries` (type-only ones are erased). */
function staticGraph(entries: string[]): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(
      /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm,
    )) {
      const spec = m[1]!;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec).replace(/\.js$/, '.ts'));
      else if (!spec.startsWith('node:'))
        packages.add(spec.split('/')[0]!.startsWith('@') ? spec : spec.split('/')[0]!);
    }
  };
  entries.forEach((e) => visit(join(src, e)));
  return { files: new Set([...files].map((f) => relative(src, f))), packages };
}

describe('render worker imports', () => {
  const graph = staticGraph(['render/queue/worker.ts', 'render/index.ts']);

  it('reach the engine model but not its command catalog, and not sharp', () => {
    expect(graph.files).toContain('engine/core.ts');
    expect(graph.files).toContain('render/renderer.ts');
    expect(graph.files).not.toContain('engine/index.ts');
    expect([...graph.files].filter((f) => f.startsWith('engine/commands/'))).toEqual([]);
    expect(graph.packages).toContain('@napi-rs/canvas');
    expect(graph.packages).not.toContain('sharp');
    expect(graph.packages).not.toContain('immer');
  });

  it('sees a static import where there is one (the walk can fail)', () => {
    const engine = staticGraph(['engine/index.ts']);
    expect(engine.files).toContain('engine/commands/comp.ts');
    expect(engine.packages).toContain('immer');
  });
});
