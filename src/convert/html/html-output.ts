import type { ChildNode, Element } from 'domhandler';
import type { ImageMode, LinkMode } from '../types.js';
import { isElement, isText } from './dom.js';
import { GUTTER, codeLanguage, codeText } from './markdown-code.js';
import { isMath, mathTex } from './markdown-math.js';
import { isHeadingAnchor } from './markdown.js';
import { imageSource, outputUrl } from './urls.js';

/**
 * `format: html`: the cleaned content written back as HTML through an allow-list (issue 21,
 * item 3). We sanitise our own DOM rather than re-parse a serialisation: prepare already
 * took out scripts, styles, frames, forms controls and hidden text, and a writer that emits
 * only listed elements and attributes, escaping every text and attribute value, cannot
 * let anything else through, whatever the page's markup. Measured against sanitize-html
 * in bench/README.md.
 *
 * - Elements outside KEEP are unwrapped (their children stay), those in DROP go with their
 *   content: foreign content (`svg`, `math`: MathML becomes its TeX in `<code>`), forms and
 *   their controls, embedded and head elements, scripts and styles.
 * - Attributes: only those listed per element; never an event handler, `style`, `srcdoc`,
 *   `class` (but `language-x` on code, derived by us) or `id`.
 * - Every `href` and `src` goes through `resolveUrl`, the one URL policy: a refused link is
 *   its text, a refused image its alt text.
 */

const KEEP = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'blockquote',
  'pre',
  'code',
  'hr',
  'br',
  'table',
  'caption',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'figure',
  'figcaption',
  'details',
  'summary',
  'address',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'aside',
  'nav',
  'a',
  'img',
  'em',
  'strong',
  'b',
  'i',
  'u',
  's',
  'del',
  'ins',
  'mark',
  'small',
  'sub',
  'sup',
  'abbr',
  'cite',
  'q',
  'dfn',
  'kbd',
  'samp',
  'var',
  'time',
  'span',
  'bdi',
  'ruby',
  'rt',
  'rp',
  'wbr',
]); // prettier-ignore

/** The elements `format: html` may contain (the bench feeds the same list to sanitize-html). */
export const HTML_OUTPUT_ELEMENTS: ReadonlySet<string> = KEEP;

/** Never written, content included (prepare drops most of them already; this is the backstop). */
const DROP = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'svg',
  'canvas',
  'base',
  'meta',
  'link',
  'head',
  'title',
  'form',
  'input',
  'button',
  'select',
  'option',
  'optgroup',
  'textarea',
  'datalist',
  'output',
  'audio',
  'video',
  'source',
  'track',
  'param',
  'map',
  'area',
  'dialog',
  'portal',
  'math',
]); // prettier-ignore

const VOID = new Set(['br', 'hr', 'img', 'wbr']);
const NUMBER = /^\d{1,4}$/;
const LANG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8}){0,3}$/;
const CODE_LANG = /^[A-Za-z0-9_+#.-]{1,30}$/;

const ANY_TEXT = /^/;

/** Per element, the attributes kept and the check their value must pass (Maps: no prototype keys). */
const ATTRS = new Map<string, ReadonlyMap<string, RegExp>>([
  [
    'td',
    new Map([
      ['colspan', NUMBER],
      ['rowspan', NUMBER],
    ]),
  ],
  [
    'th',
    new Map([
      ['colspan', NUMBER],
      ['rowspan', NUMBER],
      ['scope', /^(?:row|col|rowgroup|colgroup)$/],
    ]),
  ],
  [
    'ol',
    new Map([
      ['start', /^-?\d{1,6}$/],
      ['reversed', /^(?:reversed)?$/],
    ]),
  ],
  ['li', new Map([['value', /^-?\d{1,6}$/]])],
  ['time', new Map([['datetime', /^[\d:TZ+. -]{1,40}$/]])],
  ['abbr', new Map([['title', ANY_TEXT]])],
  ['details', new Map([['open', /^(?:open)?$/]])],
]); // prettier-ignore
/** Allowed on every kept element. */
const GLOBAL_ATTRS = new Map<string, RegExp>([
  ['lang', LANG],
  ['dir', /^(?:ltr|rtl|auto)$/i],
]);

export interface HtmlOutputOptions {
  base: string | null;
  drop?: ReadonlySet<Element>;
  imageMode?: ImageMode;
  linkMode?: LinkMode;
  /** `clean_urls: false` keeps URLs exactly as found. */
  cleanUrls?: boolean;
}

/** The content roots (minus `drop`) as sanitised HTML, one root after another. */
export function writeHtml(roots: readonly ChildNode[], opts: HtmlOutputOptions): string {
  const writer = new HtmlWriter(opts);
  for (const root of roots) writer.node(root, false);
  return `${writer.out.join('').trim()}\n`;
}

class HtmlWriter {
  readonly out: string[] = [];
  private readonly drop: ReadonlySet<Element>;

  constructor(private readonly opts: HtmlOutputOptions) {
    this.drop = opts.drop ?? new Set();
  }

  node(node: ChildNode, inPre: boolean): void {
    if (isText(node)) {
      const text = inPre ? escapeHtml(node.data) : collapsed(node.data);
      // one line break between blocks, however many dropped elements stood there
      if (text !== '\n' || this.out[this.out.length - 1] !== '\n') this.out.push(text);
      return;
    }
    if (!isElement(node) || this.drop.has(node)) return;
    const name = node.name;
    const cls = node.attribs.class;
    if (isMath(node)) this.math(node);
    else if (DROP.has(name)) return;
    else if (cls !== undefined && name !== 'pre' && name !== 'code' && GUTTER.test(cls)) return;
    else if (name === 'pre') this.pre(node);
    else if (name === 'img') this.image(node);
    else if (name === 'a') this.link(node, inPre);
    else if (!KEEP.has(name)) this.children(node, inPre);
    else this.element(name, this.attributes(node), node, inPre);
  }

  private children(el: Element, inPre: boolean): void {
    for (const c of el.children) this.node(c, inPre);
  }

  private element(name: string, attrs: string, el: Element | null, inPre: boolean): void {
    this.out.push(`<${name}${attrs}>`);
    if (VOID.has(name)) return;
    if (el) this.children(el, inPre);
    this.out.push(`</${name}>`);
  }

  private attributes(el: Element): string {
    let s = '';
    const own = ATTRS.get(el.name);
    for (const [name, value] of Object.entries(el.attribs)) {
      const rule = own?.get(name) ?? GLOBAL_ATTRS.get(name);
      if (rule === undefined || !rule.test(value)) continue;
      s += attribute(name, value);
    }
    return s;
  }

  private link(el: Element, inPre: boolean): void {
    if (isHeadingAnchor(el)) return;
    const href = el.attribs.href;
    const url = href !== undefined && href.trim() !== '#' ? outputUrl(href, this.opts.base, this.opts.cleanUrls !== false) : null;
    if (url === null || this.opts.linkMode === 'text') {
      this.children(el, inPre);
      return;
    }
    const title = el.attribs.title;
    this.element('a', attribute('href', url) + (title ? attribute('title', title) : ''), el, inPre);
  }

  private image(img: Element): void {
    const mode = this.opts.imageMode ?? 'keep';
    if (mode === 'drop') return;
    const src = imageSource(img);
    const url = src ? outputUrl(src, this.opts.base, this.opts.cleanUrls !== false) : null;
    const alt = (img.attribs.alt ?? '').replace(/\s+/g, ' ').trim();
    if (url === null || mode === 'alt') {
      if (alt) this.out.push(escapeHtml(alt));
      return;
    }
    let attrs = attribute('src', url) + attribute('alt', alt);
    for (const size of ['width', 'height']) {
      const v = img.attribs[size];
      if (v !== undefined && NUMBER.test(v)) attrs += attribute(size, v);
    }
    this.element('img', attrs, null, false);
  }

  private pre(pre: Element): void {
    let code: Element | null = null;
    for (const c of pre.children) if (isElement(c) && c.name === 'code') code = c;
    const lang = codeLanguage(pre, code);
    const cls = lang && CODE_LANG.test(lang) ? attribute('class', `language-${lang}`) : '';
    this.out.push(`<pre><code${cls}>${escapeHtml(codeText(pre))}</code></pre>`);
  }

  private math(el: Element): void {
    const tex = mathTex(el);
    if (tex) this.out.push(`<code>${escapeHtml(tex)}</code>`);
  }
}

/** Outside `<pre>`: whitespace runs as one space, or one newline when they held a line break. */
function collapsed(text: string): string {
  if (text.trim() === '') return text.includes('\n') ? '\n' : text === '' ? '' : ' ';
  return escapeHtml(text.replace(/[\t\n\r\f ]+/g, ' '));
}

function attribute(name: string, value: string): string {
  return ` ${name}="${escapeHtml(value).replace(/"/g, '&quot;')}"`;
}

/** Text and attribute values: `&`, `<`, `>` (and `"` in attributes) as entities. */
export function escapeHtml(s: string): string {
  if (!/[&<>]/.test(s)) return s;
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
