import { compile } from 'css-select';
import type { Selector } from 'css-what';
import { isTraversal, parse as parseSelector } from 'css-what';
import type { AnyNode, Document, Element } from 'domhandler';
import type { CssRule } from './css-rules.js';
import { topLevelRules } from './css-rules.js';
import { mediaAppliesOnDesktop } from './media-query.js';
import { isElement, notableForVisibility, textOf, walkElements } from './dom.js';

/**
 * What a reader of the page sees (issue 21). Text styled so that nobody sees it — font-size
 * 0, opacity 0, off-screen, clipped to nothing, the colour of its background — is the usual
 * way to plant instructions for AI agents in a page: it is not content. Content the page
 * reveals on interaction (a tab panel, an accordion panel a button names, `hidden=
 * "until-found"`, a "read more" tail) is content, although hidden at load.
 *
 * Decided from inline styles and from the page's own `<style>` sheets (css-rules.ts reads
 * their top-level rules; css-select matches the selectors of those that hide, in one walk
 * of the document), bounded like everything that reads target content: at most
 * MAX_CSS_CHARS of CSS and MAX_HIDING_RULES rules that hide.
 */

/**
 * Why an element is hidden. `ui`: ordinary show/hide in the markup (menus, modals);
 * `sheet-ui`: the same from a stylesheet rule; `invisible`: text styled away.
 */
export type HideReason = 'ui' | 'sheet-ui' | 'invisible';

/** CSS read from the page's `<style>` elements; the rest is ignored. */
const MAX_CSS_CHARS = 256 * 1024;
/** Stylesheet rules that hide something, matched against the page at most. */
const MAX_HIDING_RULES = 300;
/** Font sizes under this (px) are unreadable. */
const MIN_READABLE_PX = 2;
/** Offsets beyond this (px) put a box off-screen (the `left: -9999px` trick). */
const OFF_SCREEN_PX = 999;
/**
 * Invisibly styled text longer than this is kept: planted instructions are a sentence or a
 * paragraph, while whole sections styled away are layout and animation tricks (a `font-size:
 * 0` row whose columns reset it, a section faded in on scroll). Kept text is still checked
 * for PROMPT_INJECTION.
 */
export const INVISIBLE_MAX_CHARS = 400;

export interface VisibilityPlan {
  /** Elements a top-level rule of the page's stylesheets hides, and why. */
  bySheet: Map<Element, HideReason>;
  /** ids named by a control's `aria-controls`: panels the page opens on interaction. */
  controlled: Set<string>;
}

/**
 * One pass over the document before prepare's walk: the stylesheets and the controlled
 * ids must be known before any element is judged (a `<style>` or a button may come after
 * the element it concerns).
 */
export function planVisibility(doc: Document): VisibilityPlan {
  const css: string[] = [];
  let cssChars = 0;
  const controlled = new Set<string>();
  // the only elements the plan reads (noted by the parser: no walk over the whole document)
  for (const node of notableForVisibility(doc)) {
    if (node.name === 'style') {
      // a sheet for some screens only (`<style media="(min-width: 1080px)">`, one per breakpoint)
      if (cssChars >= MAX_CSS_CHARS || !mediaAppliesOnDesktop(node.attribs.media)) continue;
      // textOf skips style content on purpose; the sheet is the text children themselves
      const text = node.children
        .map((c) => (c.type === 'text' ? c.data : ''))
        .join('')
        .slice(0, MAX_CSS_CHARS - cssChars);
      cssChars += text.length;
      css.push(text);
      continue;
    }
    const controls = node.attribs['aria-controls'];
    // a control that opens a popup (a menu, a listbox, a dialog) reveals UI, not content
    const popup = node.attribs['aria-haspopup'];
    if (controls !== undefined && (popup === undefined || popup === 'false'))
      for (const id of controls.split(/\s+/)) if (id) controlled.add(id);
  }
  return { bySheet: css.length > 0 ? sheetHiddenElements(doc, css.join('\n')) : new Map(), controlled };
}

/** Elements hidden by the stylesheet rules that are not inside an at-rule (no media query guesses). */
function sheetHiddenElements(doc: Document, css: string): Map<Element, HideReason> {
  const hidden = new Map<Element, HideReason>();
  const index = new SelectorIndex();
  let rules = 0;
  for (const rule of topLevelRules(css, mayHide)) {
    if (rules >= MAX_HIDING_RULES) break;
    const reason = hideReason(rule.declarations);
    if (reason === null || isUpgradeGuard(rule)) continue;
    rules++;
    const kind: HideReason = reason === 'ui' ? 'sheet-ui' : reason;
    for (const selector of splitSelectorList(rule.selectors)) index.add(selector, kind);
  }
  if (index.size === 0) return hidden;
  // one walk: each element is tested only against the selectors its id, classes or tag can match
  walkElements(doc, (el) => {
    for (const entry of index.candidates(el)) {
      if (hidden.get(el) === 'invisible') break;
      if (entry.test(el)) hidden.set(el, entry.kind);
    }
    // a template's content is inert (and dropped by prepare); its own rules live in its shadow root
    return el.name !== 'template';
  });
  return hidden;
}

/** A custom element's name as a type selector: after the start, a comma, a combinator or `(`. */
const CUSTOM_ELEMENT_TYPE = /(?:^|[\s,>+~(])[a-z][a-z0-9]*-[a-z0-9-]*(?![\w-])/i;

/**
 * A sheet's guard against a flash of unstyled components: `visibility: hidden` or
 * `opacity: 0` on custom elements (`x-card`, `:not(:defined)`) until their script upgrades
 * them and shows them. A reader sees what they hold once the page has loaded, so the rule
 * hides nothing (`display: none` on a component is a real choice and stays).
 */
function isUpgradeGuard(rule: CssRule): boolean {
  const d = rule.declarations;
  const display = d.get('display');
  if (display?.startsWith('none')) return false;
  const byVisibility = d.get('visibility')?.startsWith('hidden') === true;
  const byOpacity = d.get('opacity') !== undefined && Number.parseFloat(d.get('opacity') as string) === 0;
  if (!byVisibility && !byOpacity) return false;
  return rule.selectors.includes(':defined') || CUSTOM_ELEMENT_TYPE.test(rule.selectors);
}

/** Properties hideReason reads, as a quick test of a rule's raw block before its declarations are read. */
const HIDING_PROPERTY = /display|visibility|opacity|font-size|text-indent|position|clip|overflow|transform|transparent|rgba/i;
const BACKGROUND = /background/i;
const COLOR_PROPERTY = /(?:^|[;{\s])color\s*:/i;

/** Whether a rule's block could hide its elements (false: it certainly does not). */
function mayHide(block: string): boolean {
  return HIDING_PROPERTY.test(block) || (BACKGROUND.test(block) && COLOR_PROPERTY.test(block));
}

interface IndexedSelector {
  test: (el: Element) => boolean;
  kind: HideReason;
}

/**
 * Compiled selectors filed under what their rightmost compound requires (an id, a class or
 * a tag), as browsers file style rules: an element is tested against the few that can match.
 */
class SelectorIndex {
  private readonly byId = new Map<string, IndexedSelector[]>();
  private readonly byClass = new Map<string, IndexedSelector[]>();
  private readonly byTag = new Map<string, IndexedSelector[]>();
  private readonly anyElement: IndexedSelector[] = [];
  size = 0;

  add(selector: string, kind: HideReason): void {
    // pseudo-elements and states never hide what a reader sees at load
    if (selector.includes('::') || /:(?:before|after|hover|focus|active|visited|target|checked)\b/.test(selector)) return;
    if (badNameStart(selector)) return; // browsers drop such a rule; css-what would read it
    let tokens: Selector[];
    let test: (el: Element) => boolean;
    try {
      const parsed = parseSelector(selector);
      if (parsed.length !== 1 || parsed[0] === undefined) return;
      tokens = parsed[0];
      test = compile<AnyNode, Element>([tokens]);
    } catch {
      return; // a selector css-select cannot run hides nothing we keep
    }
    const entry = { test, kind };
    const [bucket, key] = this.bucketOf(tokens);
    if (bucket === null) this.anyElement.push(entry);
    else {
      const list = bucket.get(key);
      if (list) list.push(entry);
      else bucket.set(key, [entry]);
    }
    this.size++;
  }

  /**
   * The selectors that may match `el`: by id, by each class in order, by tag, then the rest.
   * A plain loop filling one reused array (no generator, no class `split` per element: this
   * runs for every element of a page with a sheet that hides something); valid until the next call.
   */
  candidates(el: Element): readonly IndexedSelector[] {
    const out = this.found;
    out.length = 0;
    const id = el.attribs.id;
    if (id !== undefined) pushAll(out, this.byId.get(id));
    const classes = el.attribs.class;
    if (classes !== undefined && this.byClass.size > 0) {
      let start = 0;
      for (let i = 0; i <= classes.length; i++) {
        if (i < classes.length && !isSpace(classes.charCodeAt(i))) continue;
        if (i > start) pushAll(out, this.byClass.get(classes.slice(start, i)));
        start = i + 1;
      }
    }
    pushAll(out, this.byTag.get(el.name));
    pushAll(out, this.anyElement);
    return out;
  }

  private readonly found: IndexedSelector[] = [];

  /** The bucket of a selector's rightmost compound (`ignoreCase: "quirks"` is case-sensitive in css-select's standards mode). */
  private bucketOf(tokens: Selector[]): [Map<string, IndexedSelector[]> | null, string] {
    let tag: string | null = null;
    let cls: string | null = null;
    for (let i = tokens.length - 1; i >= 0; i--) {
      const t = tokens[i] as Selector;
      if (isTraversal(t)) break; // a combinator: the rightmost compound ends here
      if (t.type === 'attribute' && t.name === 'id' && t.action === 'equals' && t.ignoreCase !== true) return [this.byId, t.value];
      if (t.type === 'attribute' && t.name === 'class' && t.action === 'element' && t.ignoreCase !== true) cls ??= t.value;
      if (t.type === 'tag') tag = t.name.toLowerCase(); // HTML element names are lower-case in the DOM
    }
    if (cls !== null) return [this.byClass, cls];
    if (tag !== null) return [this.byTag, tag];
    return [null, ''];
  }
}

function pushAll(out: IndexedSelector[], list: readonly IndexedSelector[] | undefined): void {
  if (list !== undefined) for (const entry of list) out.push(entry);
}

/** Whether a UTF-16 code unit is whitespace as the regex `\s` reads it (class lists were split at `/\s+/`). */
function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** A class or id selector starting with a digit (`.14e05`, `#-1a`): invalid CSS unless escaped. */
function badNameStart(selector: string): boolean {
  let bad = false;
  scanSelector(selector, (c, i, depth) => {
    if ((c === 46 || c === 35) && depth.brackets === 0) {
      const next = selector.charCodeAt(i + 1) === 45 ? selector.charCodeAt(i + 2) : selector.charCodeAt(i + 1);
      if (next >= 48 && next <= 57) bad = true;
    }
  });
  return bad;
}

/** The selectors of a list, split at commas outside brackets, parentheses and strings. */
function splitSelectorList(list: string): string[] {
  const out: string[] = [];
  let from = 0;
  scanSelector(list, (c, i, depth) => {
    if (c === 44 && depth.brackets === 0 && depth.parens === 0) {
      out.push(list.slice(from, i).trim());
      from = i + 1;
    }
  });
  out.push(list.slice(from).trim());
  return out.filter((s) => s !== '');
}

/** Calls `visit` with each character code of a selector outside strings and escapes, and the bracket and parenthesis depth there. */
function scanSelector(text: string, visit: (code: number, index: number, depth: { brackets: number; parens: number }) => void): void {
  const depth = { brackets: 0, parens: 0 };
  let quote = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote !== 0) {
      if (c === 92) i++;
      else if (c === quote) quote = 0;
      continue;
    }
    if (c === 34 || c === 39) quote = c;
    else if (c === 92) i++;
    else if (c === 91) depth.brackets++;
    else if (c === 93 && depth.brackets > 0) depth.brackets--;
    else if (c === 40) depth.parens++;
    else if (c === 41 && depth.parens > 0) depth.parens--;
    else visit(c, i, depth);
  }
}

/** Declarations of an inline `style` attribute (a tolerant split: values there are simple). */
export function inlineDeclarations(style: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of style.split(';')) {
    const colon = part.indexOf(':');
    if (colon < 0) continue;
    const name = part.slice(0, colon).trim().toLowerCase();
    if (name)
      out.set(
        name,
        part
          .slice(colon + 1)
          .replace(/!important/i, '')
          .trim()
          .toLowerCase(),
      );
  }
  return out;
}

/** Whether declarations hide their element, and how. */
export function hideReason(d: Map<string, string>): HideReason | null {
  const value = (name: string): string | undefined => {
    const v = d.get(name);
    return v?.endsWith('!important') ? v.slice(0, -'!important'.length).trimEnd() : v;
  };
  if (value('display') === 'none' || value('visibility') === 'hidden' || value('visibility') === 'collapse') return 'ui';
  const opacity = value('opacity');
  // opacity 0 next to a transform or transition is a fade-in an animation library starts from
  const animated = d.has('transform') || d.has('-webkit-transform') || d.has('transition') || d.has('animation') || d.has('will-change');
  if (opacity !== undefined && !animated && /^(?:0+(?:\.0*)?|\.0+)%?$/.test(opacity)) return 'invisible';
  const fontSize = value('font-size');
  if (fontSize !== undefined && tinyFontSize(fontSize)) return 'invisible';
  const textIndent = px(value('text-indent'));
  if (textIndent !== null && textIndent <= -OFF_SCREEN_PX) return 'invisible';
  const position = value('position');
  if (position === 'absolute' || position === 'fixed') {
    for (const side of ['left', 'top', 'right', 'bottom']) {
      const offset = px(value(side));
      if (offset !== null && Math.abs(offset) >= OFF_SCREEN_PX) return 'invisible';
    }
  }
  const clip = value('clip');
  if (clip !== undefined && /^rect\(\s*(?:0|1px)(?:[\s,]+(?:0|1px)){3}\s*\)$/.test(clip)) return 'invisible';
  const clipPath = value('clip-path');
  if (clipPath !== undefined && /^(?:inset\(\s*(?:50|100)%\s*\)|circle\(\s*0(?:px|%)?\s*\))$/.test(clipPath)) return 'invisible';
  const overflow = value('overflow');
  if (overflow === 'hidden' && (zeroLength(value('width')) || zeroLength(value('height')))) return 'invisible';
  const transform = value('transform');
  if (transform !== undefined && /^scale\(\s*0(?:\.0+)?\s*\)$/.test(transform)) return 'invisible';
  const color = value('color');
  if (color !== undefined) {
    if (color === 'transparent' || /^rgba\(.*,\s*0(?:\.0+)?\s*\)$/.test(color)) return 'invisible';
    const background = value('background-color') ?? value('background');
    if (background !== undefined && sameColour(color, background)) return 'invisible';
  }
  return null;
}

function tinyFontSize(v: string): boolean {
  if (/^0(?:\.0+)?(?:px|em|rem|pt|%|vw|vh)?$/.test(v)) return true;
  const n = px(v);
  return n !== null && n < MIN_READABLE_PX;
}

function zeroLength(v: string | undefined): boolean {
  return v !== undefined && /^0(?:\.0+)?(?:px|em|rem|%)?$/.test(v);
}

/** A length in px, or null when it is not one (em, %, calc…). */
function px(v: string | undefined): number | null {
  if (v === undefined) return null;
  const m = /^(-?\d+(?:\.\d+)?)px$/.exec(v);
  return m ? Number(m[1]) : null;
}

const NAMED: Record<string, string> = { white: '#ffffff', black: '#000000', '#fff': '#ffffff', '#000': '#000000' };

function normalColour(c: string): string {
  const v = c.replace(/\s+/g, '');
  if (NAMED[v]) return NAMED[v] as string;
  const rgb = /^rgba?\((\d+),(\d+),(\d+)(?:,1(?:\.0+)?)?\)$/.exec(v);
  if (rgb) return `#${[rgb[1], rgb[2], rgb[3]].map((n) => Number(n).toString(16).padStart(2, '0')).join('')}`;
  if (/^#[0-9a-f]{3}$/.test(v)) return `#${v[1]}${v[1]}${v[2]}${v[2]}${v[3]}${v[3]}`;
  return v;
}

function sameColour(a: string, b: string): boolean {
  return normalColour(a) === normalColour(b);
}

/**
 * Elements an animation library fades or slides in (they start at opacity 0 or off their
 * place and are shown on scroll): their start state is not hiding. Generic tokens only.
 */
const ANIMATED_CLASS = /(?:^|[\s_-])(?:animated?|animation|fade|fadein|reveal|aos|wow|motion|sal|scroll-reveal|et_animated)(?:[\s_-]|$)/i;

export function looksAnimated(el: Element): boolean {
  const a = el.attribs;
  return (
    a['data-aos'] !== undefined ||
    a['data-animation'] !== undefined ||
    a['data-sal'] !== undefined ||
    a['data-w-id'] !== undefined ||
    (a.class !== undefined && ANIMATED_CLASS.test(a.class))
  );
}

/**
 * Content revealed on interaction, kept although hidden at load: tab panels (tabs.ts names
 * them), `hidden="until-found"`, a panel a control names (`aria-controls`), the hidden tail
 * of a "read more" text (a sibling control that says so).
 */
export function isRevealable(el: Element, plan: VisibilityPlan): boolean {
  const a = el.attribs;
  if (a.role === 'tabpanel') return true;
  if (a.hidden === 'until-found') return true;
  if (a.id !== undefined && plan.controlled.has(a.id)) return true;
  return wrapsControlledPanel(el, plan) || readMoreTail(el) || answerToQuestion(el);
}

/** A question heading an FAQ entry is at most this long, and at least this many words ("Need help?" is a prompt). */
const QUESTION_MAX_CHARS = 300;
const QUESTION_MIN_WORDS = 3;

/**
 * The answer of an FAQ accordion without ARIA: hidden right after its question (a short
 * block ending with "?"), shown when the question is clicked.
 */
function answerToQuestion(el: Element): boolean {
  const q = adjacentElement(el, 'prev');
  if (!q || q.children.length === 0) return false;
  const text = textOf(q).trim();
  return text.length <= QUESTION_MAX_CHARS && text.endsWith('?') && text.split(/\s+/).length >= QUESTION_MIN_WORDS;
}

/** Single-child wrappers looked through for a controlled panel (an accordion's collapse box). */
const PANEL_WRAPPER_DEPTH = 3;

/**
 * An accordion often animates a wrapper around its panel: the wrapper is the one hidden at
 * load (`display: none; height: 0`), the panel inside it is the one the button names.
 */
function wrapsControlledPanel(el: Element, plan: VisibilityPlan): boolean {
  let only: Element | null = el;
  for (let depth = 0; only && depth < PANEL_WRAPPER_DEPTH; depth++) {
    only = soleElementChild(only);
    const id = only?.attribs.id;
    if (id !== undefined && plan.controlled.has(id)) return true;
  }
  return false;
}

/** The element child of `el` when it has exactly one (text beside it aside from whitespace: none). */
function soleElementChild(el: Element): Element | null {
  let found: Element | null = null;
  for (const c of el.children) {
    if (isElement(c)) {
      if (found) return null;
      found = c;
    } else if (c.type === 'text' && c.data.trim() !== '') return null;
  }
  return found;
}

const READ_MORE = /^(?:read|show|see|view) (?:more|all|full)\b|^more\b|^…?\s*(?:read|show) more/i;

function readMoreTail(el: Element): boolean {
  for (const side of [adjacentElement(el, 'prev'), adjacentElement(el, 'next')]) {
    // the control, or a row holding only the control
    for (let s: Element | null = side, depth = 0; s && depth <= PANEL_WRAPPER_DEPTH; s = soleElementChild(s), depth++) {
      if ((s.name === 'button' || s.name === 'a' || s.attribs.role === 'button') && READ_MORE.test(textOf(s).trim())) return true;
    }
  }
  return false;
}

/** The nearest element sibling on one side, past whitespace-only text. */
function adjacentElement(el: Element, side: 'prev' | 'next'): Element | null {
  let s = el[side];
  while (s && s.type === 'text' && s.data.trim() === '') s = s[side];
  return s && isElement(s) ? s : null;
}
