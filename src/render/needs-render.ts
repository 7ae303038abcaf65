import type { Warning } from '../convert/types.js';

/**
 * `render: "auto"`: does the static result of a page call for a browser? Yes when the
 * converter warned JS_SHELL, or LOW_CONTENT on markup that is script-heavy (the little
 * text there is may be all the server sends before scripts build the rest). Pure; reads
 * at most SCAN_BYTES of the markup.
 */

/** Markup read to judge how script-heavy a page is. */
const SCAN_BYTES = 2 * 1024 * 1024;
/** This many `<script>` elements make markup script-heavy… */
const HEAVY_SCRIPT_COUNT = 5;
/** …or inline script taking at least this share of the markup. */
const HEAVY_INLINE_SHARE = 1 / 3;

export function staticResultNeedsRender(warnings: readonly Warning[], markup: Buffer): boolean {
  if (warnings.some((w) => w.code === 'JS_SHELL')) return true;
  return warnings.some((w) => w.code === 'LOW_CONTENT') && isScriptHeavy(markup);
}

export interface ScriptCensus {
  scripts: number;
  inlineBytes: number;
  modules: number;
  scannedBytes: number;
}

/** Counts `<script>` elements, their inline bytes and module scripts (a linear scan, no regex). */
export function scriptCensus(markup: Buffer): ScriptCensus {
  const text = markup.subarray(0, SCAN_BYTES).toString('latin1').toLowerCase();
  const census: ScriptCensus = { scripts: 0, inlineBytes: 0, modules: 0, scannedBytes: text.length };
  for (let at = text.indexOf('<script'); at >= 0; at = text.indexOf('<script', at + 7)) {
    const next = text.charCodeAt(at + 7);
    // `<script>` or `<script …>`, not `<scripts>` or `<script-x>`
    if (next !== 62 && next !== 32 && next !== 9 && next !== 10 && next !== 13 && next !== 47) continue;
    const openEnd = text.indexOf('>', at);
    if (openEnd < 0) break;
    census.scripts++;
    if (text.slice(at, openEnd).includes('module')) census.modules++;
    const close = text.indexOf('</script', openEnd);
    const end = close < 0 ? text.length : close;
    census.inlineBytes += end - openEnd - 1;
    at = end;
  }
  return census;
}

export function isScriptHeavy(markup: Buffer): boolean {
  const c = scriptCensus(markup);
  if (c.scripts === 0) return false;
  return c.scripts >= HEAVY_SCRIPT_COUNT || c.modules > 0 || c.inlineBytes >= c.scannedBytes * HEAVY_INLINE_SHARE;
}
