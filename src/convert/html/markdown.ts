import type { ChildNode, Element } from 'domhandler';
import { collapseWhitespace, findFirst, isElement, isText, textOf, pushAll } from './dom.js';
import { GUTTER, codeLanguage, codeText, fencedCode } from './markdown-code.js';
import { isMath, mathTex } from './markdown-math.js';
import {
  HARD_BREAK,
  breakNestedLinks,
  escapeBrackets,
  escapeLineStart,
  escapeTableCell,
  escapeText,
  joinEscaped,
  inlineCode,
  linkDestination,
} from './markdown-escape.js';
import { renderTable } from './markdown-table.js';
import { BLOCK_TAGS } from './stats.js';
import type { StatsMap } from './stats.js';
import type { ImageMode, LinkMode, PageImage, PageLink } from '../types.js';
import {
  altRepeatsNearbyText,
  countContent,
  isDecorativeImage,
  isDeclaredDecoration,
  isPermalinkLabel,
  leftOutOfWall,
  stripUnrendered,
} from './lean.js';
import type { ContentCounts } from './lean.js';
import { imageSource, isSameDocumentLink, linksToProfile, outputUrl } from './urls.js';

/**
 * Our HTML → GitHub-flavoured Markdown writer. Blocks are rendered to strings and joined
 * with one blank line; inline content is collapsed, escaped minimally and finished per
 * paragraph. Recursion depth is bounded by the parser's depth cap (dom.ts MAX_DEPTH).
 */

export interface WriterOptions {
  /** Absolute base for links and images (page URL or `<base href>`), null to keep them as is. */
  base: string | null;
  /** The page's own URL (links to a place in it are written as their text in lean output). */
  page?: string | null;
  /** Elements to skip (from main-content detection). */
  drop?: ReadonlySet<Element>;
  /** Precomputed stats (for "does this inline element hold blocks?"); optional. */
  stats?: StatsMap;
  /** `image_mode`: images as Markdown images (default), as their alt text, or left out. */
  imageMode?: ImageMode;
  /** `link_mode`: inline links (default), numbered references listed at the end, or link text only. */
  linkMode?: LinkMode;
  /** `clean_urls`: tracking parameters removed and redirect wrappers unwrapped (default true). */
  cleanUrls?: boolean;
  /** Lean output (default true): decorative images, repeated links and unrendered markup left out. */
  lean?: boolean;
  /** Pictures of a grid's cards (card-images.ts): left out of lean output. */
  cardImages?: ReadonlySet<Element>;
  /**
   * Pictures the author marked `alt=""` are decoration (HTML's own meaning of an empty alt):
   * on landing, shop and grid pages, where such pictures are backgrounds and illustrations.
   * A story's bare picture stays (editors often leave its alt empty).
   */
  emptyAltIsDecoration?: boolean;
  /**
   * The page is a thread (lean output): links to member profiles and post permalinks are
   * written as their text. The author line keeps who wrote and when; a profile URL and a
   * permalink on every post were the thread's costliest chrome (about 7 % of a forum
   * page's tokens).
   */
  thread?: boolean;
}

/** Most entries of the `links` and `images` lists of one page. */
export const MAX_LISTED = 5000;

const HEADING_LEVEL: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
const INLINE_CODE = new Set(['code', 'kbd', 'samp', 'tt', 'var']);
const STRONG = new Set(['strong', 'b']);
const EMPHASIS = new Set(['em', 'i', 'cite', 'dfn']);
const STRIKE = new Set(['del', 's', 'strike']);
const SKIP_INLINE = new Set(['br', 'wbr']);
/** Link text that is nothing but images. */
const IMAGE_ONLY = /^(?:!\[[^\]]*\]\([^)]*\)\s*)+$/;
/** Parents whose children are a line of text, whatever they are. */
const TEXT_PARENTS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'pre',
  'a',
  'span',
  'b',
  'strong',
  'em',
  'i',
  'label',
  'button',
  'summary',
  'code',
  'small',
  'sup',
  'sub',
]);
/** Whether an element holds text of its own between its children (cached per parent). */
const looseTextOf = new WeakMap<Element, boolean>();

/**
 * A custom element (`<ds-typography>`, `<x-card>`) is a block when it stands among blocks: a
 * design system's components print a page's copy and cards without a `<p>` or a `<div>`, and
 * lay out as blocks from their own styles. In a line of text (`Posted <relative-time>…`, a
 * `<g-emoji>` in a sentence) it stays inline.
 */
function standsAlone(el: Element): boolean {
  const parent = el.parent;
  if (!isElement(parent) || TEXT_PARENTS.has(parent.name)) return false;
  let loose = looseTextOf.get(parent);
  if (loose === undefined) {
    loose = parent.children.some((c) => isText(c) && c.data.trim() !== '');
    looseTextOf.set(parent, loose);
  }
  return !loose;
}

/** A footnote's way back to its reference: an arrow, a caret, "back". */
const BACK_ARROW = /^(?:[↩↑⤴⬆^]\uFE0E?|back)$/iu;
/** A path naming a picture file. */
const IMAGE_FILE = /\.(?:jpe?g|png|gif|webp|avif|bmp|tiff?)$/i;

export class MarkdownWriter {
  readonly base: string | null;
  private readonly page: string | null;
  private readonly drop: ReadonlySet<Element>;
  private readonly cardImages: ReadonlySet<Element>;
  private readonly emptyAltIsDecoration: boolean;
  private readonly thread: boolean;
  private readonly stats: StatsMap | undefined;
  private readonly imageMode: ImageMode;
  private readonly linkMode: LinkMode;
  private readonly cleanUrls: boolean;
  private readonly lean: boolean;
  private figureCaption: string | null = null;
  /** What the content holds, counted before writing (lean output). */
  private counts: ContentCounts | null = null;
  /** Link URLs already written. */
  private readonly written = new Set<string>();
  /** URL + link text → the item (post, card, row) it was last seen in. */
  private readonly seenIn = new Map<string, Element | null>();
  /** Image URLs already written. */
  private readonly writtenImages = new Set<string>();
  /** Alt texts of images already written (altSubject). */
  private readonly writtenAlts = new Set<string>();
  /** Reference numbers by URL (`link_mode: references`), in order of first use. */
  private readonly references = new Map<string, number>();
  /** Every link and image written (whatever the modes), deduplicated by URL, for the `links` and `images` lists. */
  readonly links = new Map<string, PageLink>();
  readonly images = new Map<string, PageImage>();

  constructor(opts: WriterOptions) {
    this.base = opts.base;
    this.page = opts.page ?? null;
    this.drop = opts.drop ?? new Set();
    this.cardImages = opts.cardImages ?? new Set();
    this.emptyAltIsDecoration = opts.emptyAltIsDecoration === true;
    this.thread = opts.thread === true;
    this.stats = opts.stats;
    this.imageMode = opts.imageMode ?? 'keep';
    this.linkMode = opts.linkMode ?? 'inline';
    this.cleanUrls = opts.cleanUrls !== false;
    this.lean = opts.lean !== false;
  }

  /** A link or image target through the URL policy (and cleaned unless `clean_urls: false`). */
  private url(href: string): string | null {
    return outputUrl(href, this.base, this.cleanUrls);
  }

  /** Render several roots (content and merged siblings) into one document. */
  render(roots: readonly ChildNode[]): string {
    if (this.lean) this.counts = countContent(roots, this.drop);
    const blocks = this.blocks(roots);
    if (this.references.size > 0) blocks.push([...this.references].map(([url, n]) => `[${n}]: ${linkDestination(url)}`).join('\n'));
    return finishDocument(blocks.join('\n\n'));
  }

  /**
   * A text node's content, escaped. With numbered references a `[` of the page's text is
   * escaped too: `[1]` typed on the page must not become a link to our reference 1.
   */
  private text(data: string): string {
    const clean = this.counts !== null && (data.includes('[') || data.includes('{')) ? stripUnrendered(data, this.counts.shortcodes) : data;
    const escaped = escapeText(clean.replace(/[\s\u00a0]+/g, ' '));
    return this.linkMode === 'references' && escaped.includes('[') ? escaped.replace(/\[/g, '\\[') : escaped;
  }

  /** The destination of a link: inline `(url)` or a numbered reference `[n]`. */
  private destination(url: string): string {
    if (this.linkMode !== 'references') return `(${linkDestination(url)})`;
    let n = this.references.get(url);
    if (n === undefined) {
      n = this.references.size + 1;
      this.references.set(url, n);
    }
    return `[${n}]`;
  }

  private noteLink(url: string, el: Element, href: string): void {
    if (href.trim().startsWith('#') || this.links.has(url) || this.links.size >= MAX_LISTED) return;
    this.links.set(url, { url, text: collapseWhitespace(textOf(el)) });
  }

  /** Render a list of sibling nodes as blocks. */
  blocks(nodes: readonly ChildNode[]): string[] {
    const out: string[] = [];
    let inline = '';
    for (const node of nodes) {
      if (isText(node)) {
        inline = joinEscaped(inline, this.text(node.data));
        continue;
      }
      if (!isElement(node)) continue;
      if (this.drop.has(node)) {
        // a dropped block ("Save 25%" between two prices) still kept the words beside it apart
        if (inline !== '' && BLOCK_TAGS.has(node.name)) inline = joinEscaped(inline, ' ');
        continue;
      }
      const cls = node.attribs.class;
      if (cls !== undefined && node.name !== 'pre' && node.name !== 'code' && GUTTER.test(cls)) continue; // line numbers beside a listing
      if (this.isBlock(node)) {
        if (inline !== '') {
          const p = finishParagraph(inline);
          if (p) out.push(p);
          inline = '';
        }
        for (const b of this.block(node)) if (b) out.push(b);
      } else {
        inline = joinInline(inline, this.inline(node));
      }
    }
    if (inline !== '') {
      const p = finishParagraph(inline);
      if (p) out.push(p);
    }
    return out;
  }

  private isBlock(el: Element): boolean {
    const name = el.name;
    if (BLOCK_TAGS.has(name)) return true;
    if (name === 'math') return el.attribs.display === 'block';
    if (name === 'span' && hasClassToken(el, 'katex-display')) return true;
    if (name === 'mjx-container') return el.attribs.display === 'true' || el.attribs.display === 'block';
    if (name === 'img' || name === 'picture') return false;
    if (name === 'code') return this.hasBlockChild(el) || hasBr(el);
    if (name.includes('-') && standsAlone(el)) return true;
    return this.hasBlockChild(el);
  }

  private hasBlockChild(el: Element): boolean {
    const s = this.stats?.get(el);
    if (s) return s.hasBlock;
    for (const c of el.children) if (isElement(c) && (BLOCK_TAGS.has(c.name) || this.hasBlockChild(c))) return true;
    return false;
  }

  private block(el: Element): string[] {
    const name = el.name;
    if (name === 'a') return this.blockLink(el);
    const level = HEADING_LEVEL[name];
    if (level !== undefined) {
      const text = oneLine(this.inlineChildren(el)).replace(/\*\*/g, '').trim();
      return text ? [`${'#'.repeat(level)} ${text.replace(/^\\?#/, '\\#')}`] : [];
    }
    switch (name) {
      case 'p':
        return this.blocks(el.children);
      case 'br':
        return [];
      case 'hr':
        return ['---'];
      case 'pre':
        return [this.preBlock(el)];
      case 'code':
        return [fencedCode(codeText(el), codeLanguage(el, null))];
      case 'ul':
      case 'ol':
      case 'menu':
        return [this.list(el, name === 'ol')];
      case 'blockquote':
        return [quote(this.blocks(el.children).join('\n\n'))];
      case 'table':
        return renderTable(el, this);
      case 'dl':
        return this.definitionList(el);
      case 'details':
        return this.details(el);
      case 'figure':
        return this.figure(el);
      case 'math':
      case 'mjx-container':
      case 'span':
        if (isMath(el)) return [this.math(el, true)];
        return this.blocks(el.children);
      default:
        return this.blocks(el.children);
    }
  }

  /**
   * A link around blocks (a card: image, heading, text). Markdown links are inline, so the
   * link goes on the first heading or paragraph, else on the first image.
   */
  private blockLink(el: Element): string[] {
    const blocks = this.blocks(el.children);
    const url = el.attribs.href !== undefined ? this.url(el.attribs.href) : null;
    if (!url || el.attribs.href?.trim() === '#') return blocks;
    this.noteLink(url, el, el.attribs.href as string);
    if (this.linkMode === 'text') return blocks;
    // a card linking to the page itself, or a place in it (a tab, a contents entry around a block)
    if (this.lean && isSameDocumentLink(url, this.page)) return blocks;
    if (this.lean && this.linkMode === 'inline') {
      if (this.written.has(url)) return blocks;
      this.written.add(url);
    }
    const dest = this.destination(url);
    let target = blocks.findIndex((b) => /^#{1,6} /.test(b) && !b.includes(']('));
    if (target < 0) target = blocks.findIndex((b) => !/^(?:[-*>|`$]|\d+\. |!\[)/.test(b) && !b.includes('\n') && !b.includes(']('));
    if (target >= 0) {
      const b = blocks[target] as string;
      const m = /^(#{1,6} )?(.*)$/.exec(b) as RegExpExecArray;
      blocks[target] = `${m[1] ?? ''}[${m[2]}]${dest}`;
      return blocks;
    }
    const img = blocks.findIndex((b) => /^!\[[^\]]*\]\([^)]*\)$/.test(b));
    if (img >= 0) blocks[img] = `[${blocks[img]}]${dest}`;
    return blocks;
  }

  private preBlock(pre: Element): string {
    let code: Element | null = null;
    for (const c of pre.children) {
      if (isElement(c) && c.name === 'code') code = c;
      else if (isElement(c) || (isText(c) && c.data.trim() !== '')) {
        code = null;
        break;
      }
    }
    return fencedCode(codeText(pre), codeLanguage(pre, code));
  }

  private list(el: Element, ordered: boolean): string {
    const startAttr = parseInt(el.attribs.start ?? '', 10);
    let n = ordered && Number.isFinite(startAttr) ? startAttr : 1;
    const items: string[] = [];
    for (const c of el.children) {
      if (!isElement(c) || this.drop.has(c)) continue;
      let content: string;
      if (c.name === 'li') {
        const parts = this.blocks(c.children);
        content = parts.reduce((acc, b) => (acc === '' ? b : `${acc}${isListBlock(b) ? '\n' : '\n\n'}${b}`), '');
      } else if ((c.name === 'ul' || c.name === 'ol') && items.length > 0) {
        const nested = this.list(c, c.name === 'ol');
        if (nested) items[items.length - 1] += `\n${indent(nested, ordered ? `${n - 1}. `.length : 2)}`;
        continue;
      } else {
        content = this.blocks([c]).join('\n\n');
      }
      if (!content.trim()) continue;
      const marker = ordered ? `${n}. ` : '- ';
      n++;
      items.push(marker + indent(content, marker.length).slice(marker.length));
    }
    return items.join('\n');
  }

  private definitionList(el: Element): string[] {
    const out: string[] = [];
    let current = '';
    for (const c of el.children) {
      if (!isElement(c) || this.drop.has(c)) continue;
      if (c.name === 'dt') {
        if (current) out.push(current);
        const t = oneLine(this.inlineChildren(c)).trim();
        current = t ? `**${t.replace(/^\*\*(.*)\*\*$/, '$1')}**` : '';
      } else if (c.name === 'dd') {
        const body = this.blocks(c.children).join('\n\n');
        if (!body) continue;
        const line = `: ${indent(body, 2).slice(2)}`;
        current = current ? `${current}\n${line}` : line;
      } else if (c.name === 'div') {
        if (current) out.push(current);
        current = '';
        pushAll(out, this.definitionList(c));
      }
    }
    if (current) out.push(current);
    return out;
  }

  private details(el: Element): string[] {
    const out: string[] = [];
    const rest: ChildNode[] = [];
    for (const c of el.children) {
      if (isElement(c) && c.name === 'summary') {
        const s = oneLine(this.inlineChildren(c)).trim();
        if (s) out.push(`**${s.replace(/^\*\*(.*)\*\*$/, '$1')}**`);
      } else {
        rest.push(c);
      }
    }
    return [...out, ...this.blocks(rest)];
  }

  private figure(el: Element): string[] {
    const saved = this.figureCaption;
    for (const c of el.children) {
      if (isElement(c) && c.name === 'figcaption') this.figureCaption = collapseWhitespace(textOf(c)) || null;
    }
    const kids = el.children.filter((c) => !(isElement(c) && c.name === 'figcaption' && this.drop.has(c)));
    const out = this.blocks(kids);
    this.figureCaption = saved;
    return out;
  }

  /** Inline rendering of an element's children. */
  inlineChildren(el: Element): string {
    let s = '';
    for (const c of el.children) {
      if (isText(c)) s = joinEscaped(s, this.text(c.data));
      else if (isElement(c) && !this.drop.has(c)) s = joinInline(s, this.inline(c));
    }
    return s;
  }

  /** Inline rendering of one element; block elements met here are flattened to text. */
  inline(el: Element): string {
    const name = el.name;
    if (name === 'br') return HARD_BREAK;
    if (SKIP_INLINE.has(name)) return '';
    if (isMath(el)) return this.math(el, false);
    if (name === 'img') return this.image(el);
    if (name === 'picture') {
      for (const c of el.children) if (isElement(c) && c.name === 'img') return this.image(c);
      return '';
    }
    if (INLINE_CODE.has(name)) return wrapSpaces(inlineCode(textOf(el)), textOf(el));
    if (name === 'a') return isHeadingAnchor(el) ? '' : this.link(el);
    if (name === 'input') {
      const type = (el.attribs.type ?? '').toLowerCase();
      return type === 'checkbox' ? (el.attribs.checked !== undefined ? '[x] ' : '[ ] ') : '';
    }
    if (name === 'sup' || name === 'sub') {
      const inner = this.inlineChildren(el).trim();
      return inner ? `<${name}>${inner}</${name}>` : '';
    }
    if (name === 'q') return `"${this.inlineChildren(el)}"`;
    const inner = this.inlineChildren(el);
    if (STRONG.has(name)) return wrap(inner, '**');
    if (EMPHASIS.has(name)) return wrap(inner, '*');
    if (STRIKE.has(name)) return wrap(inner, '~~');
    if (BLOCK_TAGS.has(name)) return ` ${inner} `;
    return inner;
  }

  private link(el: Element): string {
    const inner = this.inlineChildren(el);
    let text = oneLine(inner).trim();
    if (!text.includes('![')) text = text.replace(/(?<!\\)([[\]])/g, '\\$1');
    text = breakNestedLinks(text);
    const href = el.attribs.href;
    if (!text) return '';
    if (href === undefined || href.trim() === '' || href.trim() === '#') return inner;
    const url = this.url(href);
    if (!url) return inner;
    this.noteLink(url, el, href);
    if (this.linkMode === 'text') return inner;
    if (this.lean && this.thread && (linksToProfile(href) || isPermalinkLabel(text))) return inner;
    // a place in the page itself (a citation's `[13]`, a table of contents, a footnote's way
    // back): the Markdown keeps the text it points to, not the page's ids, so the URL only
    // costs tokens; a bare way-back arrow says nothing without it
    if (this.lean && isSameDocumentLink(url, this.page)) return BACK_ARROW.test(text) ? '' : inner;
    // numbered references already write each URL once
    if (this.lean && this.linkMode === 'inline' && !href.trim().startsWith('#')) {
      // a URL is written once: a repeat (the same card's title after its image, a profile
      // link on every post, "Check price" again) keeps its text, not the URL again
      if (this.written.has(url)) {
        // the same link again in the same post, card or row ("Check price" twice): once
        const key = `${url}\n${text}`;
        const item = itemOf(el);
        if (this.seenIn.get(key) === item) return '';
        this.seenIn.set(key, item);
        return inner;
      }
      // a linked picture whose target a text link of the content also names: the picture alone
      if (IMAGE_ONLY.test(text) && this.counts?.textLinks.has(href)) return inner;
      // a picture linked to itself or to a bigger copy ("click to enlarge"): the picture alone,
      // not its URL twice
      if (IMAGE_ONLY.test(text) && this.linksToPicture(el, url)) return inner;
      this.written.add(url);
      this.seenIn.set(`${url}\n${text}`, itemOf(el));
    }
    const lead = /^\s/.test(inner) ? ' ' : '';
    const trail = /\s$/.test(inner) ? ' ' : '';
    return `${lead}[${text}]${this.destination(url)}${trail}`;
  }

  /** The link goes to the picture it wraps, or to an image file (a larger copy of it). */
  private linksToPicture(link: Element, url: string): boolean {
    if (URL.canParse(url) && IMAGE_FILE.test(new URL(url).pathname)) return true;
    const img = findFirst(link, 'img');
    const src = img ? imageSource(img) : null;
    return src !== null && this.url(src) === url;
  }

  private image(img: Element): string {
    const src = imageSource(img);
    if (!src) return '';
    const url = this.url(src);
    const alt = collapseWhitespace(img.attribs.alt ?? '') || this.figureCaption || '';
    if (this.lean && isDecorativeImage(img, src, this.counts)) return '';
    if (this.lean && this.emptyAltIsDecoration && isDeclaredDecoration(img, this.counts)) return '';
    if (url && !this.images.has(url) && this.images.size < MAX_LISTED) this.images.set(url, { url, alt });
    if (this.imageMode === 'drop') return '';
    // a grid card's picture repeats the card's name: listed in `images`, not written
    if (this.lean && this.cardImages.has(img)) return '';
    // on a shop, landing or grid page, a picture named like the heading beside it says nothing more
    if (this.lean && this.emptyAltIsDecoration && altRepeatsNearbyText(img, alt)) return '';
    // on such a page, a wall of pictures alone: a strip of marks (logos, badges, swatches) is
    // not written, a gallery is shown by its first picture; the others add URLs and no words
    if (this.lean && this.emptyAltIsDecoration && leftOutOfWall(img, this.counts)) return '';
    if (this.lean && url) {
      // the same picture again (a thumbnail and its repeat): written once
      if (this.writtenImages.has(url)) return '';
      this.writtenImages.add(url);
      // the same alt again (a gallery's "Tent 1", "Tent 2", a generic alt on every card):
      // the first picture says it; the others add a URL each and no words
      const subject = altSubject(alt);
      if (subject !== '') {
        if (this.writtenAlts.has(subject)) return '';
        this.writtenAlts.add(subject);
      }
    }
    // an image whose URL the policy refuses is its alt text
    if (!url || this.imageMode === 'alt') return alt ? this.text(alt) : '';
    return `![${escapeBrackets(alt)}](${linkDestination(url)})`;
  }

  private math(el: Element, display: boolean): string {
    const tex = mathTex(el);
    if (!tex) return '';
    return display ? `$$\n${tex}\n$$` : `$${tex}$`;
  }

  /** For the table writer: a row the extraction dropped (an item's line of controls) is not written. */
  skipped(el: Element): boolean {
    return this.drop.has(el);
  }

  /** For the table writer: a cell's content on one line. */
  cell(el: Element): string {
    const only = el.children.length === 1 ? el.children[0] : undefined;
    if (only !== undefined && isText(only)) return escapeTableCell(this.text(only.data));
    const blocks = this.blocks(el.children);
    return escapeTableCell(blocks.join(' '));
  }
}

/** Permalink anchors next to headings (Sphinx ¶, GitHub/Docusaurus #, "Link to this heading"). */
export function isHeadingAnchor(el: Element): boolean {
  const cls = el.attribs.class ?? '';
  if (/(?:^|\s)(?:headerlink|anchor|hash-link|heading-anchor|anchorjs-link|header-anchor)(?:\s|$)/.test(cls)) return true;
  const t = textOf(el).trim();
  return (t === '¶' || t === '#' || t === '§' || t === '🔗') && (el.attribs.href ?? '').startsWith('#');
}

/** Trailing words of an alt that number or name a view rather than a subject. */
const ALT_NOISE = /^(?:[-–|#(),:]*|\(?\d{1,3}\)?|image|img|photo|picture|view|thumbnail|hover|primary|alt)$/;

/** An alt text without its running number or view word: `Tent 3/4 view 2` → `tent 3/4`. */
function altSubject(alt: string): string {
  const words = alt.toLowerCase().slice(0, 300).split(/\s+/);
  while (words.length > 0 && ALT_NOISE.test(words[words.length - 1] as string)) words.pop();
  return words.join(' ').trim();
}

/** Elements that hold one item of a page: a list item, a row, a post or card, a definition. */
const ITEM = new Set(['li', 'tr', 'article', 'dd', 'section', 'blockquote']);

/** The nearest item around an element, else its parent. */
function itemOf(el: Element): Element | null {
  let p = el.parent;
  for (let i = 0; i < 12 && p !== null && isElement(p); i++) {
    if (ITEM.has(p.name)) return p;
    p = p.parent;
  }
  return el.parent !== null && isElement(el.parent) ? el.parent : null;
}

function hasClassToken(el: Element, token: string): boolean {
  const c = el.attribs.class;
  return c !== undefined && ` ${c} `.includes(` ${token} `);
}

function hasBr(el: Element): boolean {
  for (const c of el.children) if (isElement(c) && (c.name === 'br' || hasBr(c))) return true;
  return false;
}

/** Emphasis markers hug the text: spaces and line breaks at either end move outside them. */
function wrap(inner: string, mark: string): string {
  let start = 0;
  let end = inner.length;
  while (start < end && isSpaceOrBreak(inner.charCodeAt(start))) start++;
  while (end > start && isSpaceOrBreak(inner.charCodeAt(end - 1))) end--;
  const t = inner.slice(start, end);
  if (!t) return inner;
  if (t.startsWith(mark) && t.endsWith(mark) && t.length > mark.length * 2) return inner;
  const head = inner.slice(0, start);
  const tail = inner.slice(end);
  const lead = head.includes(HARD_BREAK) ? HARD_BREAK : head ? ' ' : '';
  const trail = tail.includes(HARD_BREAK) ? HARD_BREAK : tail ? ' ' : '';
  return `${lead}${mark}${t}${mark}${trail}`;
}

/** Images placed side by side in the HTML stay apart in the Markdown. */
function joinInline(acc: string, piece: string): string {
  return acc.endsWith(')') && piece.startsWith('![') ? `${acc} ${piece}` : joinEscaped(acc, piece);
}

function isSpaceOrBreak(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 1 || c === 160;
}

function wrapSpaces(code: string, raw: string): string {
  if (!code) return raw.trim() === '' && raw.length > 0 ? ' ' : '';
  return `${/^\s/.test(raw) ? ' ' : ''}${code}${/\s$/.test(raw) ? ' ' : ''}`;
}

function oneLine(s: string): string {
  return s.split(HARD_BREAK).join(' ').replace(/\s+/g, ' ');
}

/** Turn collected inline content into a paragraph: collapse, trim, hard breaks, line starts. */
export function finishParagraph(inline: string): string {
  if (inline === '') return '';
  const collapsed = inline.replace(/[ \t\n\r\f]{2,}|[\t\n\r\f]/g, ' ');
  if (!collapsed.includes(HARD_BREAK)) return escapeLineStart(collapsed.trim());
  const lines = collapsed.split(HARD_BREAK);
  const kept: string[] = [];
  for (const l of lines) {
    const t = l.trim();
    if (t || kept.length > 0) kept.push(t);
  }
  while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop();
  const joined: string[] = [];
  for (const l of kept) {
    if (l === '' && joined[joined.length - 1] === '') continue;
    joined.push(l);
  }
  // An empty line inside a paragraph (<br><br>) starts a new paragraph.
  return joined
    .map((l) => escapeLineStart(l))
    .join('  \n')
    .replace(/ {2}\n {2}\n/g, '\n\n')
    .replace(/ {2}\n(?=\n)|\n {2}\n/g, '\n');
}

function isListBlock(b: string): boolean {
  return /^(?:[-*+]|\d+[.)]) /.test(b);
}

function indent(s: string, n: number): string {
  const pad = ' '.repeat(n);
  // most list items are one line: no split/map/join for them
  if (!s.includes('\n')) return s === '' ? '' : pad + s;
  return s
    .split('\n')
    .map((l) => (l === '' ? '' : pad + l))
    .join('\n');
}

function quote(s: string): string {
  if (!s) return '';
  return s
    .split('\n')
    .map((l) => (l === '' ? '>' : `> ${l}`))
    .join('\n');
}

/** Final clean-up: no runs of blank lines or trailing spaces outside code, one final newline. */
export function finishDocument(md: string): string {
  const lines = md.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let fence: string | null = null;
  for (const raw of lines) {
    // cheap pre-checks: most lines hold no fence and end without blanks (3.75 MB documents exist)
    const fenceMatch = raw.includes('```') || raw.includes('~~~') ? /^\s*(`{3,}|~{3,})/.exec(raw) : null;
    if (fence !== null) {
      out.push(raw);
      if (fenceMatch?.[1]?.startsWith(fence) && raw.trim() === fenceMatch[1]) fence = null;
      continue;
    }
    if (fenceMatch?.[1]) fence = fenceMatch[1];
    const last = raw.charCodeAt(raw.length - 1);
    const trailingBlank = last === 32 || last === 9;
    const line =
      !trailingBlank || (raw.endsWith('  ') && !raw.endsWith('   ') && raw.trim() !== '') ? raw : raw.replace(/(?<![ \t])[ \t]+$/, '');
    if (line === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(line);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.length > 0 ? `${out.join('\n')}\n` : '';
}
