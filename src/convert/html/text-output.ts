import type { ChildNode, Element } from 'domhandler';
import type { ImageMode } from '../types.js';
import { isElement, isText, pushAll } from './dom.js';
import { GUTTER, codeText } from './markdown-code.js';
import { isMath, mathTex } from './markdown-math.js';
import { isHeadingAnchor } from './markdown.js';
import { BLOCK_TAGS } from './stats.js';

/**
 * `format: text`: the content as plain text, no Markdown syntax and no escaping, as a
 * reader would copy it: blocks apart by a blank line, list items one a line (`- ` or
 * `1. `), table rows one a line with tab-separated cells, links as their text, images as
 * their alt text (`image_mode: drop` leaves them out), code as it is.
 */

export interface TextOutputOptions {
  drop?: ReadonlySet<Element>;
  imageMode?: ImageMode;
}

const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'object', 'embed', 'head']);

export function writeText(roots: readonly ChildNode[], opts: TextOutputOptions): string {
  const writer = new TextWriter(opts);
  const text = writer.blocks(roots).join('\n\n');
  return text === '' ? '' : `${text}\n`;
}

class TextWriter {
  private readonly drop: ReadonlySet<Element>;

  constructor(private readonly opts: TextOutputOptions) {
    this.drop = opts.drop ?? new Set();
  }

  /** Sibling nodes as blocks: runs of inline content become one block each. */
  blocks(nodes: readonly ChildNode[]): string[] {
    const out: string[] = [];
    let inline = '';
    const flush = (): void => {
      const line = tidy(inline);
      if (line) out.push(line);
      inline = '';
    };
    for (const node of nodes) {
      if (isText(node)) inline += spaced(node.data);
      else if (isElement(node) && !this.skipped(node)) {
        if (BLOCK_TAGS.has(node.name) && !isMath(node)) {
          flush();
          pushAll(out, this.block(node));
        } else inline += this.inline(node);
      }
    }
    flush();
    return out;
  }

  private skipped(el: Element): boolean {
    if (this.drop.has(el) || SKIPPED.has(el.name)) return true;
    const cls = el.attribs.class;
    return cls !== undefined && el.name !== 'pre' && el.name !== 'code' && GUTTER.test(cls);
  }

  private block(el: Element): string[] {
    switch (el.name) {
      case 'pre':
        return [trimEndNewlines(codeText(el))];
      case 'hr':
      case 'br':
        return [];
      case 'ul':
      case 'ol':
      case 'menu':
        return [this.list(el, el.name === 'ol')].filter(Boolean);
      case 'table':
        return [this.table(el)].filter(Boolean);
      default:
        return this.blocks(el.children);
    }
  }

  private inline(el: Element): string {
    if (el.name === 'br') return '\n';
    if (isMath(el)) return mathTex(el);
    if (el.name === 'a' && isHeadingAnchor(el)) return '';
    if (el.name === 'img') return this.opts.imageMode === 'drop' ? '' : ` ${el.attribs.alt ?? ''} `;
    let s = '';
    for (const c of el.children) {
      if (isText(c)) s += spaced(c.data);
      else if (isElement(c) && !this.skipped(c)) s += BLOCK_TAGS.has(c.name) ? `\n${this.blocks([c]).join('\n')}\n` : this.inline(c);
    }
    return s;
  }

  private list(el: Element, ordered: boolean): string {
    const start = Number.parseInt(el.attribs.start ?? '', 10);
    let n = ordered && Number.isFinite(start) ? start : 1;
    const items: string[] = [];
    for (const c of el.children) {
      if (!isElement(c) || this.skipped(c)) continue;
      const body = this.blocks(c.name === 'li' ? c.children : [c]).join('\n');
      if (!body) continue;
      const marker = c.name === 'li' ? (ordered ? `${n++}. ` : '- ') : '';
      items.push(marker + body.replace(/\n/g, `\n${' '.repeat(marker.length)}`));
    }
    return items.join('\n');
  }

  private table(el: Element): string {
    const rows: string[] = [];
    const visit = (node: Element): void => {
      for (const c of node.children) {
        if (!isElement(c) || this.skipped(c)) continue;
        if (c.name === 'tr') {
          const cells = c.children.filter((x): x is Element => isElement(x) && (x.name === 'td' || x.name === 'th'));
          const row = cells.map((cell) => this.blocks(cell.children).join(' ').replace(/\s+/g, ' ').trim()).join('\t');
          if (row.trim()) rows.push(row);
        } else if (c.name !== 'table') visit(c);
      }
    };
    visit(el);
    return rows.join('\n');
  }
}

function trimEndNewlines(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 10) end--;
  return s.slice(0, end);
}

/** A text node's whitespace as spaces: only `<br>` breaks a line. */
function spaced(s: string): string {
  return s.replace(/[\s\u00a0]+/g, ' ');
}

/** Inline text: whitespace runs collapsed, line breaks from `<br>` kept, lines trimmed. */
function tidy(s: string): string {
  return s
    .split('\n')
    .map((line) => line.replace(/[\s\u00a0]+/g, ' ').trim())
    .filter((line, i, all) => line !== '' || (i > 0 && all[i - 1] !== ''))
    .join('\n')
    .trim();
}
