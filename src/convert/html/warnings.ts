import type { Warning } from '../types.js';
import type { HiddenText, ShellSignals } from './prepare.js';

/**
 * JS_SHELL: the server sent almost no text and the page is built by scripts (an SPA root,
 * heavy inline scripts, a "please enable JavaScript" noscript). LOW_CONTENT: the extracted
 * main content is very short (a stub, a login wall, an error page).
 */

/** Visible characters of the whole body below which a script-driven page is a shell. */
export const JS_SHELL_MAX_TEXT = 200;
/** Inline script bytes that mark a page as script-driven even without a known SPA root. */
const JS_SHELL_SCRIPT_BYTES = 5000;
const JS_SHELL_SCRIPT_COUNT = 5;
/** Main-content characters below which LOW_CONTENT is raised. */
export const LOW_CONTENT_CHARS = 150;

export function pageWarnings(signals: ShellSignals, bodyTextLength: number, contentTextLength: number): Warning[] {
  const scriptDriven =
    signals.spaRoot ||
    signals.noscriptAsksForJs ||
    signals.scriptBytes >= JS_SHELL_SCRIPT_BYTES ||
    signals.scriptCount >= JS_SHELL_SCRIPT_COUNT;
  if (bodyTextLength < JS_SHELL_MAX_TEXT && scriptDriven) {
    return [
      { code: 'JS_SHELL', message: `the page looks like a JavaScript shell: only ${bodyTextLength} characters of server-rendered text` },
    ];
  }
  if (contentTextLength < LOW_CONTENT_CHARS) {
    return [{ code: 'LOW_CONTENT', message: `the main content is very short (${contentTextLength} characters)` }];
  }
  return [];
}

/**
 * HIDDEN_TEXT: text styled so that no reader sees it (font-size 0, opacity 0, off-screen,
 * clipped, the colour of its background) was left out — or kept, with `keep_hidden`. Never
 * silent: such text is how instructions are planted for AI agents. Collapsed panels the
 * page opens on interaction are kept, and the message counts them too (a page can dress
 * hidden text as a panel).
 */
export function hiddenTextWarning(hidden: HiddenText, kept: boolean): Warning | null {
  if (hidden.invisibleChars === 0) return null;
  const panels = hidden.revealableChars > 0 ? `; ${hidden.revealableChars} characters of collapsed panels were kept` : '';
  return {
    code: 'HIDDEN_TEXT',
    message: `${hidden.invisibleChars} characters of text styled to be invisible were ${kept ? 'kept (keep_hidden)' : 'left out'}${panels}`,
  };
}
