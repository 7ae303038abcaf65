import { Element, Text } from 'domhandler';
import type { ChildNode, Document, ParentNode } from 'domhandler';
import { MAX_DEPTH, boundedTextOf, collapseWhitespace, flattenChildren, isElement, removeNodes, textOf } from './dom.js';
import { ServedContent } from './served-content.js';
import { BLOCK_TAGS } from './stats.js';
import { labelTabPanels } from './tabs.js';
import type { HideReason, VisibilityPlan } from './visibility.js';
import { INVISIBLE_MAX_CHARS, hideReason, inlineDeclarations, isRevealable, looksAnimated, planVisibility } from './visibility.js';

/**
 * Phase 1 of extraction: take out everything that can never be content (scripts, styles,
 * form controls, embedded frames, comments, hidden elements) and note the signals the
 * JS_SHELL warning needs before they are gone. Tab panels get their tab's name (tabs.ts).
 */

/** Elements dropped with their subtree wherever they are. */
const NEVER_CONTENT = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'frame',
  'frameset',
  'svg',
  'canvas',
  'object',
  'embed',
  'applet',
  'link',
  'meta',
  'input',
  'select',
  'button',
  'textarea',
  'option',
  'datalist',
  'map',
  'area',
  'audio',
  'video',
  'source',
  'track',
  'dialog',
  'head',
  'title',
  'base',
  'param',
]);

/** Text-level edits shop themes mark aria-hidden while a screen-reader copy says the same. */
const VISIBLE_EDITS = new Set(['del', 'ins', 's', 'strike']);
/** Screen-reader-only and hidden utility classes carry labels like "Share on X", never content. */
const HIDDEN_CLASS = /(?:^|\s)(?:hidden|d-none|is-hidden|sr-only|visually-hidden|screen-reader-text|visuallyhidden|a11y-hidden)(?:\s|$)/i;
const SPA_ROOT_IDS = new Set(['root', 'app', '__next', '__nuxt', 'svelte', 'ember-app', 'react-root', 'main-app', 'q-app']);
const ENABLE_JS = /enable javascript|javascript (?:is )?(?:required|disabled)|requires javascript|turn on javascript/i;

export interface ShellSignals {
  scriptCount: number;
  scriptBytes: number;
  spaRoot: boolean;
  noscriptAsksForJs: boolean;
}

/** What metadata.ts needs from the markup, collected during the same walk. */
export interface RawMetadata {
  metas: Map<string, string>;
  titleTag: string | null;
  htmlLang: string | null;
  baseHref: string | null;
  jsonLd: string[];
  firstH1: string | null;
  relAuthor: string | null;
}

/** Page-type evidence that prepare removes or sees first (controls, microdata). */
export interface MarkupHints {
  /** schema.org microdata types (`itemtype` without its URL prefix) and how often each occurs. */
  itemTypes: Map<string, number>;
  /** Add-to-cart / buy controls and cart forms. */
  cartControls: number;
  /** Text areas (reply and comment boxes, contact forms). */
  textAreas: number;
}

/** Text a reader never sees, set aside by prepare (issue 21). */
export interface HiddenText {
  /** Characters of text styled to be invisible (font-size 0, off-screen, …): dropped, or kept with keepHidden. */
  invisibleChars: number;
  /** Characters of collapsed panels kept because the page reveals them on interaction. */
  revealableChars: number;
  /** The hidden text itself (every kind, capped), for the PROMPT_INJECTION check. */
  sample: string;
}

export interface PrepareOptions {
  maxDepth?: number;
  /** Keep text styled to be invisible (still counted and checked). */
  keepHidden?: boolean;
}

/** Hidden text kept for the injection check, at most. */
const HIDDEN_SAMPLE_CHARS = 64 * 1024;
/** A hidden block is a cloak over the page (kept) when it holds this much text… */
const CLOAK_MIN_CHARS = 500;
/** …and this share of the body's text with the page heading or a main landmark in it, or the second share alone. */
const CLOAK_MIN_SHARE = 0.5;
const CLOAK_ALONE_SHARE = 0.7;
const CLOAK_MARKS = new Set(['h1', 'main', 'article']);

export interface Prepared {
  signals: ShellSignals;
  hidden: HiddenText;
  raw: RawMetadata;
  hints: MarkupHints;
  /** Elements flattened because they sat deeper than MAX_DEPTH. */
  flattened: number;
  /** First `<body>` and `<html>` in document order (saves two whole-tree searches when absent). */
  firstBody: Element | null;
  firstHtml: Element | null;
}

/**
 * One iterative walk over the whole document: cap the depth, collect metadata sources,
 * remove non-content nodes, note JS_SHELL signals. Mutates `doc`.
 */
export function prepareDocument(doc: Document, options: PrepareOptions = {}): Prepared {
  const walk = new PrepareWalk(options.maxDepth ?? MAX_DEPTH, planVisibility(doc), options.keepHidden === true);
  walk.run(doc.children, 1);
  walk.served.placeSegments();
  for (const { div, depth } of walk.served.rescueNoscripts()) walk.run(div.children, depth + 1);
  // before removal: tab strips and radio inputs are still in the tree to pair with panels
  const tabNames = new Set(labelTabPanels(walk.tablists, walk.tabLabels));
  for (const label of tabNames) walk.doomed.push(label);
  markChoiceLabels(walk.tabLabels, tabNames, walk.choiceInputs, walk.choices);
  for (const [table, rows] of walk.orderRows) table.attribs['data-pith-order-rows'] = String(rows);
  for (const label of pickerLabels(walk.tabLabels, walk.selectIds)) walk.doomed.push(label);
  removeNodes(walk.doomed);
  const { signals, raw, hints, flattened, firstBody, firstHtml, hidden } = walk;
  return { signals, raw, hints, flattened, firstBody, firstHtml, hidden };
}

/**
 * The label of a drop-down ("Size", "Sort by", "Quantity", "Country"): its control is gone,
 * and a picker's name without its choices tells the reader nothing. Labels of checkboxes and
 * radios stay (a filter's or a swatch's name may be the only text of an option).
 */
function pickerLabels(labels: readonly Element[], selectIds: ReadonlySet<string>): Element[] {
  if (selectIds.size === 0) return [];
  return labels.filter((l) => selectIds.has(l.attribs.for ?? '') && l.parent !== null);
}

/** The state of the prepare walk; `run` may be called again on content found afterwards. */
class PrepareWalk {
  readonly signals: ShellSignals = { scriptCount: 0, scriptBytes: 0, spaRoot: false, noscriptAsksForJs: false };
  readonly raw: RawMetadata = {
    metas: new Map(),
    titleTag: null,
    htmlLang: null,
    baseHref: null,
    jsonLd: [],
    firstH1: null,
    relAuthor: null,
  };
  readonly hints: MarkupHints = { itemTypes: new Map(), cartControls: 0, textAreas: 0 };
  readonly served = new ServedContent();
  readonly doomed: ChildNode[] = [];
  readonly tablists: Element[] = [];
  readonly tabLabels: Element[] = [];
  /** Radio and checkbox inputs by id, for the labels that name their choices. */
  readonly choiceInputs = new Map<string, Element>();
  /** Tables and how many of their rows hold a quantity field (an order form). */
  readonly orderRows = new Map<Element, number>();
  /** Labels around their radio or checkbox input. */
  readonly choices: Array<[Element, Element]> = [];
  /** Ids of the drop-downs removed with the other controls: their labels go with them. */
  readonly selectIds = new Set<string>();
  readonly hidden: HiddenText = { invisibleChars: 0, revealableChars: 0, sample: '' };
  flattened = 0;
  firstBody: Element | null = null;
  firstHtml: Element | null = null;

  constructor(
    private readonly maxDepth: number,
    private readonly visibility: VisibilityPlan,
    private readonly keepHidden: boolean,
  ) {}

  /**
   * Whether to drop a hidden element. Revealed-on-interaction panels stay (counted);
   * invisible text stays only with keepHidden (counted either way); a page's streamed
   * segments are placed elsewhere (served-content.ts).
   */
  private dropHidden(node: Element, reason: HideReason): boolean {
    if (node.attribs.hidden !== undefined && this.served.isStreamedSegment(node)) return false;
    const text = textOf(node);
    if (this.hidden.sample.length < HIDDEN_SAMPLE_CHARS) this.hidden.sample += ` ${text.slice(0, HIDDEN_SAMPLE_CHARS)}`;
    if (isRevealable(node, this.visibility)) {
      this.hidden.revealableChars += text.trim().length;
      return false;
    }
    const chars = text.trim().length;
    // styling judged by colour or size only matters to text: a rule (an <hr> the colour of
    // its background) or an empty box stays where it is
    if (chars === 0 && reason !== 'ui') return false;
    if (reason === 'invisible') {
      if (chars > INVISIBLE_MAX_CHARS) return false;
      this.hidden.invisibleChars += chars;
      return !this.keepHidden;
    }
    if (chars >= CLOAK_MIN_CHARS && this.isCloak(node, chars)) {
      this.hidden.revealableChars += chars;
      return false;
    }
    // a stylesheet's show/hide of a whole section is left to the page's scripts to undo
    if (reason === 'sheet-ui') return chars <= INVISIBLE_MAX_CHARS;
    return true;
  }

  private bodyChars = -1;

  /**
   * A cloak: the page's scripts hide the whole page until they are ready (an anti-flicker
   * or age-gate wrapper, a framework waiting for its styles) and show it then. A hidden
   * block holding most of the page's text, with the page heading or its main landmark in
   * it, is the page, not a menu or a dialog.
   */
  private isCloak(node: Element, chars: number): boolean {
    if (this.bodyChars < 0) this.bodyChars = this.firstBody ? textOf(this.firstBody).trim().length : 0;
    if (chars >= this.bodyChars * CLOAK_MIN_SHARE) return chars >= this.bodyChars * CLOAK_ALONE_SHARE || holdsAny(node, CLOAK_MARKS);
    // A shop's mega menus can outweigh its page by their link text alone: weigh the words
    // outside links too (only when the block has the page heading, so the walk is rare).
    if (!holdsAny(node, CLOAK_MARKS)) return false;
    if (this.bodyProse < 0) this.bodyProse = this.firstBody ? proseChars(this.firstBody) : 0;
    return proseChars(node) >= this.bodyProse * CLOAK_MIN_SHARE;
  }

  private bodyProse = -1;

  /** A quantity field in a table row: the row is a line of an order form (a variant per row, the amount to buy). */
  private noteQuantity(input: Element): void {
    let row: Element | null = null;
    let p = input.parent;
    for (let hop = 0; isElement(p) && hop < ORDER_ROW_HOPS; hop++, p = p.parent) {
      if (p.name === 'tr') row = p;
      else if (p.name === 'table') {
        if (row && this.lastOrderRow !== row) this.orderRows.set(p, (this.orderRows.get(p) ?? 0) + 1);
        this.lastOrderRow = row;
        return;
      }
    }
  }

  private lastOrderRow: Element | null = null;

  /** A radio or checkbox input: its id is kept for `<label for>`, and a label around it is marked now. */
  private noteChoice(input: Element): void {
    const type = (input.attribs.type ?? '').toLowerCase();
    if (type !== 'radio' && type !== 'checkbox') return;
    const id = input.attribs.id;
    if (id && !this.choiceInputs.has(id)) this.choiceInputs.set(id, input);
    let p = input.parent;
    for (let hop = 0; isElement(p) && hop < CHOICE_LABEL_HOPS; hop++, p = p.parent) {
      if (p.name === 'label') {
        this.choices.push([p, input]);
        return;
      }
    }
  }

  run(nodes: readonly ChildNode[], startDepth: number): void {
    const { signals, raw, doomed, served } = this;
    const stack: ChildNode[] = [];
    const depths: number[] = [];
    for (let i = nodes.length - 1; i >= 0; i--) {
      stack.push(nodes[i] as ChildNode);
      depths.push(startDepth);
    }
    while (stack.length > 0) {
      const node = stack.pop() as ChildNode;
      const depth = depths.pop() as number;
      if (node.type === 'text') {
        served.visibleText += node.data.trim().length;
        continue;
      }
      if (node.type === 'comment' || node.type === 'directive' || node.type === 'cdata') {
        doomed.push(node);
        continue;
      }
      if (!isElement(node)) continue;
      const name = node.name;
      const a = node.attribs;
      if (name === 'script') {
        const type = (a.type ?? '').toLowerCase();
        if (type.startsWith('math/tex')) {
          replaceWithMath(node, type.includes('mode=display'));
          continue;
        }
        const first = node.children[0];
        const text = first && first.type === 'text' ? first.data : '';
        if (type === 'application/ld+json') raw.jsonLd.push(text);
        else {
          signals.scriptCount++;
          signals.scriptBytes += text.length;
          served.noteScript(text);
        }
        doomed.push(node);
        continue;
      }
      if (name === 'noscript') {
        if (ENABLE_JS.test(textOf(node))) signals.noscriptAsksForJs = true;
        rescueNoscriptImage(node);
        served.noteNoscript(node, depth);
        doomed.push(node);
        continue;
      }
      if (name === 'input' && (a.type ?? '').toLowerCase() === 'checkbox' && isElement(node.parent) && node.parent.name === 'li') {
        continue; // GFM task list item: the writer renders [x] / [ ]
      }
      if (a.itemtype !== undefined) noteItemTypes(a.itemtype, this.hints.itemTypes);
      if (NEVER_CONTENT.has(name)) {
        if (name === 'input') {
          this.noteChoice(node);
          if ((a.type ?? '').toLowerCase() === 'number') this.noteQuantity(node);
        }
        collectHeadFact(node, raw);
        if (name === 'button' || name === 'input') {
          if (CART_CONTROL.test(name === 'input' ? (a.value ?? '') : textOf(node))) this.hints.cartControls++;
        } else if (name === 'textarea') this.hints.textAreas++;
        else if (name === 'select' && a.id !== undefined) this.selectIds.add(a.id);
        if (name === 'template') served.noteTemplate(node);
        else if (name === 'head') {
          // keep walking the head for meta/title/base, then drop it
          for (let i = node.children.length - 1; i >= 0; i--) {
            stack.push(node.children[i] as ChildNode);
            depths.push(depth + 1);
          }
        }
        doomed.push(node);
        continue;
      }
      if (name === 'form' && a.action !== undefined && CART_FORM.test(a.action)) this.hints.cartControls++;
      // Grids often render "Add to basket" as a link styled as a button.
      else if (name === 'a' && a.class !== undefined && CART_LINK_CLASS.test(a.class) && CART_CONTROL.test(textOf(node)))
        this.hints.cartControls++;
      if (name === 'body') this.firstBody ??= node;
      else if (name === 'html') this.firstHtml ??= node;
      if (name === 'html' && raw.htmlLang === null) raw.htmlLang = a.lang || a['xml:lang'] || null;
      else if (name === 'h1' && raw.firstH1 === null) raw.firstH1 = textOf(node);
      else if (name === 'a' && raw.relAuthor === null && a.rel !== undefined && /(?:^|\s)author(?:\s|$)/.test(a.rel))
        raw.relAuthor = textOf(node);
      if (a.role === 'tablist') this.tablists.push(node);
      else if (name === 'label' && a.for !== undefined) this.tabLabels.push(node);
      if (a.id !== undefined && SPA_ROOT_IDS.has(a.id)) signals.spaRoot = true;
      if (a['ng-app'] !== undefined || a['data-reactroot'] !== undefined || a['data-server-rendered'] !== undefined) signals.spaRoot = true;
      const hidden = hiddenReason(node, this.visibility);
      if (hidden !== null && this.dropHidden(node, hidden)) {
        doomed.push(node);
        continue;
      }
      if (repeatsTextBefore(node)) {
        doomed.push(node);
        continue;
      }
      if (depth >= this.maxDepth && node.children.length > 0) {
        flattenChildren(node);
        this.flattened++;
        continue;
      }
      const kids = node.children;
      for (let i = kids.length - 1; i >= 0; i--) {
        stack.push(kids[i] as ChildNode);
        depths.push(depth + 1);
      }
    }
  }
}

/** A quantity field sits at most this many levels below its table. */
const ORDER_ROW_HOPS = 12;
/** A label wraps its input at most this many levels up. */
const CHOICE_LABEL_HOPS = 3;

/** An input group of this many choices whose labels all say the same word labels a widget ("Swatch", "Compare"). */
const WIDGET_GROUP_MIN = 3;
/** A control's word is at most this long. */
const WIDGET_TEXT_MAX = 40;

/**
 * Labels that name a choice of a radio or checkbox input (a colour, a size, a review filter,
 * a consent box) get `data-pith-choice`: `on` when the input is checked, else `off`, and
 * `widget` when every label of the input group (inputs of one `name`) says the same thing:
 * then the label is the control's word ("Swatch" under each colour), not the choice's name.
 * The inputs are gone after prepare; region.ts reads the mark. `choices` holds the labels
 * around their input; the `<label for>`s are paired here (those not turned into tab names).
 */
function markChoiceLabels(
  labels: readonly Element[],
  tabNames: ReadonlySet<Element>,
  inputs: ReadonlyMap<string, Element>,
  choices: Array<[Element, Element]>,
): void {
  for (const label of labels) {
    const input = tabNames.has(label) ? undefined : inputs.get(label.attribs.for ?? '');
    if (input) choices.push([label, input]);
  }
  const groups = new Map<string, { size: number; text: string | null }>();
  for (const [label, input] of choices) {
    if (label.attribs['data-pith-choice'] !== 'on') label.attribs['data-pith-choice'] = input.attribs.checked !== undefined ? 'on' : 'off';
    const name = input.attribs.name;
    if (!name) continue;
    // Read with a bound: a widget's word is short, and nested labels must not be reread.
    const raw = collapseWhitespace(boundedTextOf(label, ECHO_MAX_NODES, WIDGET_TEXT_MAX)).trim();
    const text = raw.length > 0 && raw.length <= WIDGET_TEXT_MAX ? raw : null;
    const group = groups.get(name);
    if (!group) groups.set(name, { size: 1, text });
    else {
      group.size++;
      if (group.text !== text) group.text = null;
    }
  }
  for (const [label, input] of choices) {
    const group = groups.get(input.attribs.name ?? '');
    if (group && group.size >= WIDGET_GROUP_MIN && group.text) label.attribs['data-pith-choice'] = 'widget';
  }
}

/** Buttons that put a product in a cart (a few languages). */
const CART_CONTROL =
  /add to (?:cart|bag|basket|trolley)|buy (?:it )?now|add to shopping|in den warenkorb|ajouter au panier|añadir al carrito|aggiungi al carrello|in winkelwagen|do koszyka|カートに入れる/i;
const CART_FORM = /cart|basket|checkout/i;
const CART_LINK_CLASS = /cart|basket|button|btn/i;

function noteItemTypes(value: string, into: Map<string, number>): void {
  for (const t of value.split(/\s+/)) {
    if (!t) continue;
    const name = t.slice(t.lastIndexOf('/') + 1);
    into.set(name, (into.get(name) ?? 0) + 1);
  }
}

function collectHeadFact(el: Element, raw: RawMetadata): void {
  const a = el.attribs;
  if (el.name === 'meta') {
    const key = (a.property ?? a.name ?? a.itemprop ?? '').toLowerCase();
    if (key && a.content !== undefined && !raw.metas.has(key)) raw.metas.set(key, a.content);
  } else if (el.name === 'title') {
    if (raw.titleTag === null) raw.titleTag = textOf(el);
  } else if (el.name === 'base') {
    if (raw.baseHref === null && a.href) raw.baseHref = a.href;
  }
}

/** A repeated text this short may be a word said twice on purpose ("Bye bye"). */
const ECHO_MIN_CHARS = 4;

/**
 * An inline element right after a text that says exactly the same thing (`EUR 163.12<span
 * class="clipped">EUR 163.12</span>`): a copy for screen readers under a class we do not
 * know. Read with a bound of the text's length, so a large element costs no more.
 */
function repeatsTextBefore(el: Element): boolean {
  const prev = el.prev;
  if (prev?.type !== 'text' || BLOCK_TAGS.has(el.name)) return false;
  const before = prev.data.trim();
  if (before.length < ECHO_MIN_CHARS || !prev.data.endsWith(before)) return false;
  return boundedTextOf(el, ECHO_MAX_NODES, before.length + 1).trim() === before;
}

/** Nodes read of a possible echo or a choice label, at most (a copy for screen readers is a span or two). */
const ECHO_MAX_NODES = 16;

/** Why a reader would not see `el` (attributes, utility classes, inline style, the page's sheets), or null. */
function hiddenReason(el: Element, visibility: VisibilityPlan): HideReason | null {
  const a = el.attribs;
  // Inactive tabs (install commands per package manager, code per language) are content.
  if (a.role === 'tabpanel') return null;
  // A tab strip is UI; a "tablist" wrapped around the panels themselves is the tab set.
  if (a.role === 'tablist' && !holdsTabPanel(el)) return 'ui';
  // A tab is a control (its name goes onto its panel, tabs.ts), also when its strip stays;
  // a long "tab" is a slide of a carousel that borrowed the role.
  if (a.role === 'tab' && isShortLabel(el)) return 'ui';
  if (a.hidden !== undefined) return 'ui';
  // a popover (menu, tooltip, "install the app" card) is not rendered until a control opens it
  if (a.popover !== undefined) return 'ui';
  // aria-hidden hides from screen readers only; edits (a struck-out old price) stay on screen.
  if (a['aria-hidden'] === 'true' && !isMathCarrier(el) && !VISIBLE_EDITS.has(el.name)) return 'ui';
  if (a.class !== undefined && (HIDDEN_CLASS.test(a.class) || isViewportOverlay(a.class))) return 'ui';
  // schema.org list positions ("1", "2") are ordering data that themes hide, not text.
  if (a.itemprop === 'position' && /^\s*\d{1,6}\s*$/.test(textOf(el))) return 'ui';
  // a rendered page: the browser marked what no reader sees (src/render/invisible.ts)
  if (a['data-pith-invisible'] !== undefined) return 'invisible';
  const inline = a.style !== undefined ? hideReason(inlineDeclarations(a.style)) : null;
  if (inline === 'ui') return 'ui';
  if (looksAnimated(el)) return null;
  return inline ?? visibility.bySheet.get(el) ?? null;
}

/**
 * A layer pinned over the whole viewport (utility classes `fixed` and `inset-0`): a modal, a
 * drawer menu or its backdrop, which scripts open on top of the page, never the page itself
 * (a cloak over the page is still kept by dropHidden).
 */
function isViewportOverlay(cls: string): boolean {
  // most classes lack the token: skip the split (this runs on every element)
  if (!cls.includes('inset-0')) return false;
  const tokens = cls.split(/\s+/);
  return tokens.includes('fixed') && tokens.includes('inset-0');
}

/** Elements a tab strip is searched for a panel, at most (strips are small; the search stays bounded). */
const TABLIST_SCAN_MAX = 400;

/** `list` holds a `role="tabpanel"` within its first TABLIST_SCAN_MAX elements. */
function holdsTabPanel(list: Element): boolean {
  const stack: Element[] = [list];
  for (let seen = 0; stack.length > 0 && seen < TABLIST_SCAN_MAX; seen++) {
    const el = stack.pop() as Element;
    if (el !== list && el.attribs.role === 'tabpanel') return true;
    for (const c of el.children) if (isElement(c)) stack.push(c);
  }
  return false;
}

/** A tab's name is at most this long (tabs.ts reads no longer labels either). */
const TAB_LABEL_MAX_CHARS = 80;

/** `el` holds at most TAB_LABEL_MAX_CHARS of text, read within TABLIST_SCAN_MAX nodes. */
function isShortLabel(el: Element): boolean {
  let chars = 0;
  const stack: ChildNode[] = [el];
  for (let seen = 0; stack.length > 0; seen++) {
    if (seen >= TABLIST_SCAN_MAX) return false;
    const n = stack.pop() as ChildNode;
    if (n.type === 'text') {
      chars += n.data.trim().length;
      if (chars > TAB_LABEL_MAX_CHARS) return false;
    } else if (isElement(n)) for (const c of n.children) stack.push(c);
  }
  return true;
}

/** Characters of text outside links (each text node trimmed; scripts and styles skipped). */
function proseChars(root: Element): number {
  let n = 0;
  const stack: ChildNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as ChildNode;
    if (node.type === 'text') n += node.data.trim().length;
    else if (isElement(node) && node.name !== 'a' && node.type !== 'script' && node.type !== 'style')
      for (const c of node.children) stack.push(c);
  }
  return n;
}

function holdsAny(root: Element, names: ReadonlySet<string>): boolean {
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    if (names.has(el.name)) return true;
    for (const c of el.children) if (isElement(c)) stack.push(c);
  }
  return false;
}

/** KaTeX/MathJax put the readable TeX next to an aria-hidden visual copy; keep the carriers. */
function isMathCarrier(el: Element): boolean {
  return el.name === 'math' || (el.attribs.class ?? '').includes('katex-mathml');
}

/** `<script type="math/tex">x</script>` (MathJax 2) → `<math data-tex="x">` for the writer. */
function replaceWithMath(script: Element, display: boolean): void {
  const tex = script.children
    .map((c) => (c.type === 'text' ? c.data : ''))
    .join('')
    .trim();
  const math = new Element('math', { 'data-tex': tex, ...(display ? { display: 'block' } : {}) }, []);
  const parent = script.parent as ParentNode | null;
  if (!parent) return;
  const idx = parent.children.indexOf(script);
  parent.children[idx] = math;
  math.parent = parent;
  math.prev = script.prev;
  math.next = script.next;
  if (script.prev) script.prev.next = math;
  if (script.next) script.next.prev = math;
}

/**
 * Lazy-loading pages put the real `<img>` in `<noscript>` after a placeholder. When the
 * previous element is an image without a usable source, swap the noscript image in.
 */
function rescueNoscriptImage(noscript: Element): void {
  let prev = noscript.prev;
  while (prev && prev.type === 'text' && !prev.data.trim()) prev = prev.prev;
  if (!isElement(prev) || prev.name !== 'img') return;
  const src = prev.attribs.src ?? '';
  if (src && !src.startsWith('data:')) return;
  const inner = findImg(noscript);
  if (!inner) return;
  prev.attribs = { ...prev.attribs, ...inner.attribs };
}

function findImg(root: Element): Element | null {
  for (const c of root.children) {
    if (isElement(c) && c.name === 'img') return c;
  }
  // noscript content is often parsed as text; pull src/alt out of it.
  const tag = firstImgTagWithSrc(textOf(root));
  if (!tag) return null;
  const alt = /\balt\s*=\s*["']([^"']*)["']/i.exec(tag.text);
  return new Element('img', { src: tag.src, ...(alt?.[1] ? { alt: alt[1] } : {}) }, []);
}

const IMG_OPEN = /<img\b/gi;
const SRC_ATTR = /\bsrc\s*=\s*["']([^"']+)["']/gi;

/**
 * The first `<img …>` in text that has a `src`, and its last `src` value: what
 * `/<img\b[^>]*\bsrc\s*=\s*["']([^"']+)["'][^>]*>/i` found, without its rescan of the
 * rest of the text from every `<img` when no `>` closes them.
 */
function firstImgTagWithSrc(raw: string): { text: string; src: string } | null {
  IMG_OPEN.lastIndex = 0;
  for (let open = IMG_OPEN.exec(raw); open !== null; open = IMG_OPEN.exec(raw)) {
    const end = raw.indexOf('>', open.index);
    // No `>` left: no later tag can close either.
    if (end < 0) return null;
    const text = raw.slice(open.index, end + 1);
    let src: string | undefined;
    for (const m of text.matchAll(SRC_ATTR)) src = m[1];
    if (src) return { text, src };
    // Every `<img` before this `>` ends its tag there too.
    IMG_OPEN.lastIndex = end + 1;
  }
  return null;
}

export function makeText(data: string): Text {
  return new Text(data);
}
