/** The warning for characters the bundled fonts cannot draw: the text commands and the renderer say the same. */
export function missingGlyphsMessage(missing: readonly string[]): string {
  return `The bundled fonts cannot draw ${missing.slice(0, 12).join(' ')}: those characters render as boxes or in a fallback font that differs between machines. Use Latin text for identical frames everywhere.`;
}
