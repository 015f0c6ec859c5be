/**
 * Bundled fonts. Text must look the same on every machine, so only fonts shipped with the project are used:
 * Inter (SIL OFL, from @fontsource/inter) regular and bold, copied into fixtures/fonts. They are registered
 * once per thread (each worker thread loads this module afresh; GlobalFonts itself may be shared, so
 * registration is also skipped when the family is already known).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GlobalFonts } from '@napi-rs/canvas';
import { EngineError } from '../engine/core.js';

import { BUNDLED_FONTS as BUNDLED } from './font-list.js';

let registered: ReadonlySet<string> | null = null;

/** fixtures/fonts of this package (src/render and dist/render are both two levels below the root). */
function fontDirs(): string[] {
  const dirs = [fileURLToPath(new URL('../../fixtures/fonts/', import.meta.url))];
  try {
    // Fallback when the package was installed without fixtures: the npm font package itself.
    const pkg = createRequire(import.meta.url).resolve('@fontsource/inter/package.json');
    dirs.push(join(dirname(pkg), 'files'));
  } catch {
    // not installed: fixtures/fonts must do
  }
  return dirs;
}

/** Registers the bundled fonts (idempotent) and returns the family names text layers may use. */
export function ensureFonts(): ReadonlySet<string> {
  if (registered) return registered;
  const families = new Set<string>();
  const dirs = fontDirs();
  for (const font of BUNDLED) {
    const dir = dirs.find((d) => existsSync(join(d, font.file)));
    if (!dir) continue;
    // GlobalFonts may already hold it (another thread, or a second renderer in this one).
    const known = GlobalFonts.families.some(
      (f) => f.family === font.family && f.styles.some((s) => s.weight === font.weight),
    );
    if (known || GlobalFonts.registerFromPath(join(dir, font.file), font.family)) families.add(font.family);
  }
  registered = families;
  return families;
}

/** The bundled families, sorted. */
export function availableFamilies(): string[] {
  return [...ensureFonts()].sort();
}

/** Throws bad_argument naming the available families when `family` is not bundled. */
export function checkFamily(family: string, layerName: string): void {
  if (ensureFonts().has(family)) return;
  const list = availableFamilies();
  throw new EngineError(
    'bad_argument',
    `Text layer "${layerName}" uses font family "${family}", which is not available. Available: ${list.join(', ') || '(none)'}.`,
    `Set fontFamily to one of: ${list.join(', ')}.`,
  );
}
