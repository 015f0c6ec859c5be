/**
 * A PNG of the whole page drawn in the page (modern-screenshot: the DOM as SVG foreignObject, canvases as
 * images), for a person's browser where the app has no browser of its own to ask.
 *
 * Fonts are handed over as CSS with data: URLs made here: the library's own way of finding them builds a
 * <style> in a scratch document, which the page's CSP (style-src 'self') refuses. The library is loaded on first
 * use, as a chunk of its own.
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

export async function screenshotPage(): Promise<{ png: string; width: number; height: number }> {
  const width = window.innerWidth;
  const height = window.innerHeight;
  fontCss ??= buildFontCss().catch(() => '');
  const [{ domToPng }, cssText] = await Promise.all([import('modern-screenshot'), fontCss]);
  const url = await domToPng(document.documentElement, {
    width,
    height,
    scale: 1,
    backgroundColor: '#161616',
    // No workers: the CSP allows no blob: workers, and one page is one pass anyway.
    workerNumber: 0,
    font: cssText ? { cssText } : false,
  });
  return { png: url.slice(url.indexOf(',') + 1), width, height };
}
