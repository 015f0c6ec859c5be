/**
 * A PNG of the whole page drawn in the page (modern-screenshot: the DOM as SVG foreignObject, canvases as
 * images), for a person's browser where the app has no browser of its own to ask.
 *
 * Fonts are handed over as CSS with data: URLs made here: the library's own way of finding them builds a
 * <style> in a scratch document, which the page's CSP (style-src 'self') refuses. The library is loaded on first
 * use, as a chunk of its own.
 *
 * Form controls are drawn as they are now, not as the page first wrote them: the DOM is drawn from its
 * serialised markup, which holds attributes, and a tick box's tick or a menu's choice is a property (`checked`,
 * `selected`). An agent's screenshot showed Freeze unticked and stream 0 chosen where the person saw them ticked
 * and stream 1. Each clone is given the live control's state as attributes (`liveStates`).
 */

/** The page's Latin Inter faces as @font-face rules with the font files inlined; built once. */
let fontCss: Promise<string> | null = null;

function faceRules(): CSSFontFaceRule[] {
  const rules: CSSFontFaceRule[] = [];
  for (const sheet of document.styleSheets) {
    let list: CSSRuleList;
    try {
      list = sheet.cssRules;
    } catch {
      continue;
    }
    for (const rule of list) if (rule instanceof CSSFontFaceRule) rules.push(rule);
  }
  // Latin only (the UI's text; other subsets would multiply the size of every screenshot). Browsers rewrite
  // unicode-range (U+0000-00FF becomes U+0-FF), so the subset is told by its file name.
  return rules.filter((r) => /-latin-\d+-normal/.test(r.style.getPropertyValue('src')));
}

async function dataUrl(url: string): Promise<string> {
  const blob = await (await fetch(url)).blob();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error(`could not read ${url}`));
    reader.readAsDataURL(blob);
  });
}

async function buildFontCss(): Promise<string> {
  const faces = await Promise.all(
    faceRules().map(async (rule) => {
      const src = rule.style.getPropertyValue('src');
      const woff2 = /url\(["']?([^"')]+\.woff2)["']?\)/.exec(src)?.[1];
      if (!woff2) return '';
      const data = await dataUrl(new URL(woff2, rule.parentStyleSheet?.href ?? location.href).href);
      const prop = (name: string) => rule.style.getPropertyValue(name);
      return `@font-face{font-family:${prop('font-family')};font-style:${prop('font-style') || 'normal'};font-weight:${prop('font-weight') || '400'};src:url(${data}) format('woff2');unicode-range:${prop('unicode-range')};}`;
    }),
  );
  return faces.join('\n');
}

const MARK = 'data-ec-shot';

/**
 * Marks the page's tick boxes, radio buttons and menus, and returns what the clone of each needs to look as it
 * does now; `unmark` takes the marks off the page again.
 */
function liveStates(): { onClone(root: Node): void; unmark(): void } {
  const controls = [...document.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input, select')];
  controls.forEach((c, i) => c.setAttribute(MARK, String(i)));
  return {
    onClone(root) {
      if (!(root instanceof Element)) return;
      for (const clone of root.querySelectorAll(`[${MARK}]`)) {
        const live = controls[Number(clone.getAttribute(MARK))];
        clone.removeAttribute(MARK);
        if (live instanceof HTMLInputElement) {
          clone.toggleAttribute('checked', live.checked);
          if (live.type !== 'checkbox' && live.type !== 'radio') clone.setAttribute('value', live.value);
        } else if (live instanceof HTMLSelectElement)
          [...clone.querySelectorAll('option')].forEach((o, k) =>
            o.toggleAttribute('selected', live.options[k]?.selected ?? false),
          );
      }
    },
    unmark: () => controls.forEach((c) => c.removeAttribute(MARK)),
  };
}

export async function screenshotPage(): Promise<{ png: string; width: number; height: number }> {
  const width = window.innerWidth;
  const height = window.innerHeight;
  fontCss ??= buildFontCss().catch(() => '');
  const [{ domToPng }, cssText] = await Promise.all([import('modern-screenshot'), fontCss]);
  const states = liveStates();
  const url = await domToPng(document.documentElement, {
    width,
    height,
    scale: 1,
    backgroundColor: '#161616',
    // No workers: the CSP allows no blob: workers, and one page is one pass anyway.
    workerNumber: 0,
    font: cssText ? { cssText } : false,
    onCloneNode: (root) => states.onClone(root),
  }).finally(() => states.unmark());
  return { png: url.slice(url.indexOf(',') + 1), width, height };
}
