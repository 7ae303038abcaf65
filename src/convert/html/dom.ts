import { Parser } from 'htmlparser2';
import { Text } from 'domhandler';
import type { AnyNode, ChildNode, Document, Element, ParentNode } from 'domhandler';

/**
 * DOM helpers over htmlparser2/domhandler. Nothing here recurses over the tree: pages may
 * nest 100,000 levels deep, so walks use explicit stacks, and `capDepth` flattens anything
 * deeper than MAX_DEPTH so that later phases (which do recurse) stay far from the stack limit.
 */

/** Deeper than any real page (the 181 benchmark pages peak around 40); keeps recursion safe. */
export const MAX_DEPTH = 256;

/**
 * htmlparser2 keeps its open-element stack with unshift/shift, so every open tag costs
 * O(depth): 100,000 nested elements take seconds. Past this depth further open tags are
 * ignored (their text still arrives), the same trick the parser uses for a nested <form>.
 */
export const MAX_PARSE_DEPTH = 512;

/**
 * A slot on every parsed element for per-element analysis data (stats.ts). Present from
 * construction, so filling it later does not change the object's shape.
 */
export const ANALYSIS = Symbol('pith.analysis');

const PARSE_OPTIONS = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true } as const;

/** `</noscript`, the end sequence the tokenizer looks for inside a raw-text element. */
const NOSCRIPT_END = new Uint8Array([...'</noscript'].map((c) => c.charCodeAt(0)));

/** The tokenizer fields used to read `<noscript>` as raw text (private in htmlparser2's typings). */
interface RawTextTokenizer {
  isSpecial: boolean;
  currentSequence: Uint8Array;
  sequenceIndex: number;
  state: number;
  stateCDATASequence(c: number): void;
}

/** htmlparser2's tokenizer states (its `State` enum is not exported). */
const STATE_IN_SPECIAL_COMMENT = 21;
const STATE_IN_COMMENT_LIKE = 22;
/** `]`, the first byte of `]]>`, the sequence a CDATA section waits for. */
const CLOSE_BRACKET = 0x5d;

/**
 * Parser whose open-element stack never grows past MAX_PARSE_DEPTH, and which reads
 * `<noscript>` as raw text, as a browser with scripting on does. Parsed as markup, a
 * tracking pixel written `<noscript><iframe …/></noscript>` opens a raw-text `<iframe>`
 * that swallows the rest of the page; as text it is harmless, and prepare.ts parses the
 * text again when the noscript holds the page (thread software serves it there).
 */
// @ts-expect-error emitOpenTag is private in htmlparser2's typings; overriding it is the point
class DepthCappedParser extends Parser {
  override emitOpenTag(name: string): void {
    const self = this as unknown as {
      stack: string[];
      tagname: string;
      openTagStart: number;
      startIndex: number;
      tokenizer: RawTextTokenizer;
    };
    if (self.stack.length >= MAX_PARSE_DEPTH && !VOID_ELEMENTS.has(name)) {
      self.openTagStart = self.startIndex;
      self.tagname = '';
      return;
    }
    // @ts-expect-error see above
    super.emitOpenTag(name);
    if (name === 'noscript') {
      const t = self.tokenizer;
      t.isSpecial = true;
      t.currentSequence = NOSCRIPT_END;
      t.sequenceIndex = 0;
    }
  }
}

export function parseHtml(html: string): Document {
  const handler = new LightTreeBuilder();
  const parser = new DepthCappedParser(handler, PARSE_OPTIONS);
  cdataAsBrowsersDo(parser);
  fastForwardByIndexOf(parser);
  skipPlainRuns(parser);
  parser.end(html);
  adoptContentAfterBody(handler.root);
  visibilityNotes.set(handler.root, handler.notable);
  return handler.root;
}

/** Per parsed document, what `notableForVisibility` returns (noted while parsing). */
const visibilityNotes = new WeakMap<Document, Element[]>();

/**
 * The `<style>` elements and the elements with `aria-controls` of a document, in document
 * order: what visibility.ts plans from. parseHtml notes them while it builds the tree, which
 * saves a walk over the whole document; elements removed since (read steering's selectors)
 * are left out, as such a walk would leave them out.
 */
export function notableForVisibility(doc: Document): Element[] {
  const noted = visibilityNotes.get(doc);
  if (noted !== undefined) return noted.filter((el) => rootOf(el) === doc);
  // a document parsed elsewhere (tests): walk it
  const out: Element[] = [];
  walkElements(doc, (el) => {
    if (isNotable(el.name, el.attribs)) out.push(el);
  });
  return out;
}

function isNotable(name: string, attribs: Record<string, string>): boolean {
  return name === 'style' || attribs['aria-controls'] !== undefined;
}

/** The node at the top of `node`'s tree (its document, or a detached subtree's root). */
export function rootOf(node: AnyNode): AnyNode {
  let n = node;
  while (n.parent !== null) n = n.parent;
  return n;
}

/** `ancestor` is `el` or holds it. */
export function contains(ancestor: Element, el: Element): boolean {
  for (let p: ParentNode | null = el; p; p = p.parent) if (p === ancestor) return true;
  return false;
}

/** The closest element holding both `a` and `b` (one of them when it holds the other). */
export function commonAncestor(a: Element, b: Element): Element | null {
  const seen = new Set<Element>();
  for (let p: Element | null = a; p; p = isElement(p.parent) ? p.parent : null) seen.add(p);
  for (let p: Element | null = b; p; p = isElement(p.parent) ? p.parent : null) if (seen.has(p)) return p;
  return null;
}

/**
 * `<![CDATA[` outside SVG and MathML is a bogus comment that ends at the next `>`, as a
 * browser reads it; htmlparser2 reads on to the next `]]>`, so a stray `<![CDATA[` at the
 * top of a template (some forum themes print one) hides the whole page in a comment.
 */
function cdataAsBrowsersDo(parser: object): void {
  const p = parser as unknown as { tokenizer: RawTextTokenizer; isInForeignContext(): boolean };
  const t = p.tokenizer;
  const original = t.stateCDATASequence;
  t.stateCDATASequence = function (this: RawTextTokenizer, c: number): void {
    original.call(this, c);
    if (this.state === STATE_IN_COMMENT_LIKE && this.currentSequence[0] === CLOSE_BRACKET && !p.isInForeignContext())
      this.state = STATE_IN_SPECIAL_COMMENT;
  };
}

/** The tokenizer fields its `fastForwardTo` reads and sets. */
interface ForwardingTokenizer {
  buffer: string;
  index: number;
  offset: number;
  fastForwardTo(c: number): boolean;
}

/**
 * The tokenizer skips through script, style and comment text to the next `<` (or `-`, `]`)
 * one character at a time in JavaScript; `indexOf` does the same search natively (scripts
 * and sheets are most of a page's bytes). Same result: the index of the character, or the
 * last index of the buffer when it is absent.
 */
export function fastForwardByIndexOf(parser: object): void {
  const t = (parser as unknown as { tokenizer: ForwardingTokenizer }).tokenizer;
  t.fastForwardTo = function (this: ForwardingTokenizer, c: number): boolean {
    const at = this.buffer.indexOf(String.fromCharCode(c), this.index + 1 - this.offset);
    if (at >= 0) {
      this.index = at + this.offset;
      return true;
    }
    this.index = this.buffer.length + this.offset - 1;
    return false;
  };
}

/** The tokenizer fields and states `skipPlainRuns` replaces. */
interface RunTokenizer {
  buffer: string;
  index: number;
  offset: number;
  stateText(c: number): void;
  stateInAttributeValueDoubleQuotes(c: number): void;
  stateInAttributeValueSingleQuotes(c: number): void;
}

/**
 * The next occurrence of one character in the tokenizer's buffer, remembered: each search
 * covers [from, at), so asking again from a later index before `at` needs no search (no
 * rescans when the character is rare).
 */
class NextChar {
  private buffer = '';
  private from = 0;
  private at = 0;
  constructor(private readonly char: string) {}

  /** Index of the first `char` at or after `from`, else the buffer's length. */
  find(buffer: string, from: number): number {
    if (buffer !== this.buffer || from < this.from || from > this.at) {
      const i = buffer.indexOf(this.char, from);
      this.buffer = buffer;
      this.from = from;
      this.at = i < 0 ? buffer.length : i;
    }
    return this.at;
  }
}

/**
 * With entity decoding on, the tokenizer visits text and quoted attribute values one
 * character at a time, doing nothing but wait for `<` (or the closing quote) and `&`. These
 * states jump straight to the character before the next of those (the parse loop then
 * steps onto it): the same tokens, without a state dispatch per character.
 */
export function skipPlainRuns(parser: object): void {
  const t = (parser as unknown as { tokenizer: RunTokenizer }).tokenizer;
  const lt = new NextChar('<');
  const amp = new NextChar('&');
  const dquote = new NextChar('"');
  const squote = new NextChar("'");
  const skipTo = (self: RunTokenizer, stop: NextChar): void => {
    const from = self.index - self.offset + 1;
    self.index = Math.min(stop.find(self.buffer, from), amp.find(self.buffer, from)) + self.offset - 1;
  };
  const text = t.stateText;
  t.stateText = function (this: RunTokenizer, c: number): void {
    if (c === LT || c === AMP) text.call(this, c);
    else skipTo(this, lt);
  };
  const inDouble = t.stateInAttributeValueDoubleQuotes;
  t.stateInAttributeValueDoubleQuotes = function (this: RunTokenizer, c: number): void {
    if (c === DQUOTE || c === AMP) inDouble.call(this, c);
    else skipTo(this, dquote);
  };
  const inSingle = t.stateInAttributeValueSingleQuotes;
  t.stateInAttributeValueSingleQuotes = function (this: RunTokenizer, c: number): void {
    if (c === SQUOTE || c === AMP) inSingle.call(this, c);
    else skipTo(this, squote);
  };
}

const LT = 0x3c;
const AMP = 0x26;
const DQUOTE = 0x22;
const SQUOTE = 0x27;

/**
 * Markup after `</body>` or `</html>` belongs to the body, as a browser builds it (the
 * "after body" insertion modes): a stray `</body></html>` early in a template otherwise
 * leaves the whole article outside the body, where main-content detection never looks.
 */
function adoptContentAfterBody(root: Document): void {
  const html = root.children.find((c): c is Element => isElement(c) && c.name === 'html');
  const body = html?.children.find((c): c is Element => isElement(c) && c.name === 'body');
  if (!html || !body) return;
  const strays: ChildNode[] = [];
  const take = (parent: ParentNode, after: ChildNode): void => {
    const i = parent.children.indexOf(after);
    for (const c of parent.children.slice(i + 1)) if (isElement(c) || (isText(c) && c.data.trim() !== '')) strays.push(c);
  };
  take(html, body);
  take(root, html);
  if (strays.length === 0) return;
  const moved = new Set(strays);
  for (const parent of [html, root] as ParentNode[]) {
    const kept = parent.children.filter((c) => !moved.has(c));
    if (kept.length !== parent.children.length) relink(parent, kept);
  }
  relink(body, [...body.children, ...strays]);
}

/**
 * Builds the same tree as domhandler's DomHandler (same fields: type, name, attribs,
 * children, parent, prev, next, data), from object literals instead of class instances,
 * without start/end indices (unused). Measured 1.12× faster as a whole on a page of
 * 750,000 elements (most of such a page's time is allocating and collecting the DOM).
 */
class LightTreeBuilder {
  readonly root: Document = { type: 'root', children: [], parent: null, prev: null, next: null } as unknown as Document;
  private readonly stack: ParentNode[] = [this.root];
  private lastText: { data: string } | null = null;
  /** See notableForVisibility. */
  readonly notable: Element[] = [];

  onopentag(name: string, attribs: Record<string, string>): void {
    const type = name === 'script' ? 'script' : name === 'style' ? 'style' : 'tag';
    const el = { type, name, attribs, children: [], parent: null, prev: null, next: null, [ANALYSIS]: undefined } as unknown as Element;
    this.add(el);
    if (isNotable(name, attribs)) this.notable.push(el);
    this.stack.push(el);
  }

  onclosetag(): void {
    this.lastText = null;
    if (this.stack.length > 1) this.stack.pop();
  }

  ontext(data: string): void {
    // the tokenizer hands text over in pieces (around entities): one node per run
    if (this.lastText !== null) {
      this.lastText.data += data;
      return;
    }
    const text = { type: 'text', data, parent: null, prev: null, next: null } as unknown as Text;
    this.add(text);
    this.lastText = text;
  }

  oncomment(data: string): void {
    this.add({ type: 'comment', data, parent: null, prev: null, next: null } as unknown as ChildNode);
  }

  oncommentend(): void {
    this.lastText = null;
  }

  oncdatastart(): void {
    const cdata = { type: 'cdata', children: [], parent: null, prev: null, next: null } as unknown as ParentNode & ChildNode;
    this.add(cdata);
    const text = { type: 'text', data: '', parent: cdata, prev: null, next: null } as unknown as Text;
    cdata.children.push(text);
    this.lastText = text;
  }

  oncdataend(): void {
    this.lastText = null;
  }

  onprocessinginstruction(name: string, data: string): void {
    this.add({ type: 'directive', name, data, parent: null, prev: null, next: null } as unknown as ChildNode);
  }

  private add(node: ChildNode): void {
    const parent = this.stack[this.stack.length - 1] as ParentNode;
    const kids = parent.children;
    const prev = kids[kids.length - 1];
    if (prev !== undefined) {
      node.prev = prev;
      prev.next = node;
    }
    node.parent = parent;
    kids.push(node);
    if (node.type !== 'text') this.lastText = null;
  }
}

const VOID_ELEMENTS = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/**
 * The text of a small subtree, read with a bound: '' once more than `maxNodes` nodes would be
 * read (or a node has more children than that), and the text so far once it is longer than
 * `maxChars`. A label, a button or a screen-reader copy is a handful of nodes; a large
 * element costs no more than the bound, so callers may ask it of every element.
 */
export function boundedTextOf(el: Element, maxNodes: number, maxChars = Number.POSITIVE_INFINITY): string {
  let out = '';
  let seen = 0;
  const stack: ChildNode[] = [el];
  while (stack.length > 0 && out.length <= maxChars) {
    if (++seen > maxNodes) return '';
    const n = stack.pop() as ChildNode;
    if (isText(n)) out += n.data;
    else if (isElement(n)) {
      if (n.children.length > maxNodes) return '';
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as ChildNode);
    }
  }
  return out;
}

/**
 * Append every item of `items` to `target`. Not `target.push(...items)`: a spread passes each
 * item as an argument on the stack, and a page of a million sibling paragraphs overflows it.
 */
export function pushAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}

/** The first child that is an element, or null. */
export function firstElementChild(el: Element): Element | null {
  for (const c of el.children) if (isElement(c)) return c;
  return null;
}

export function isElement(node: AnyNode | null | undefined): node is Element {
  return node !== null && node !== undefined && (node.type === 'tag' || node.type === 'script' || node.type === 'style');
}

export function isText(node: AnyNode | null | undefined): node is Text {
  return node !== null && node !== undefined && node.type === 'text';
}

export function attr(el: Element, name: string): string {
  return el.attribs[name] ?? '';
}

/** Iterative pre-order walk over elements below `root`; `visit` returning false skips the subtree. */
export function walkElements(root: ParentNode, visit: (el: Element) => unknown): void {
  const stack: ChildNode[] = [];
  for (let i = root.children.length - 1; i >= 0; i--) stack.push(root.children[i] as ChildNode);
  while (stack.length > 0) {
    const node = stack.pop() as ChildNode;
    if (!isElement(node)) continue;
    if (visit(node) === false) continue;
    const kids = node.children;
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as ChildNode);
  }
}

/** All elements with one of the given tag names, document order. */
export function findAll(root: ParentNode, names: ReadonlySet<string>): Element[] {
  const out: Element[] = [];
  walkElements(root, (el) => {
    if (names.has(el.name)) out.push(el);
  });
  return out;
}

export function findFirst(root: ParentNode, name: string): Element | null {
  let found: Element | null = null;
  walkElements(root, (el) => {
    if (found) return false;
    if (el.name === name) {
      found = el;
      return false;
    }
    return true;
  });
  return found;
}

/** Raw text of a subtree (no whitespace normalisation), iterative; skips script/style. */
export function textOf(root: AnyNode): string {
  if (isText(root)) return root.data;
  if (!('children' in root)) return '';
  const parts: string[] = [];
  const stack: AnyNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as AnyNode;
    if (isText(node)) {
      parts.push(node.data);
    } else if ('children' in node && node.type !== 'script' && node.type !== 'style') {
      const kids = node.children;
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as AnyNode);
    }
  }
  return parts.join('');
}

export function collapseWhitespace(s: string): string {
  return s.replace(/[\s\u00a0]+/g, ' ').trim();
}

export function removeNode(node: ChildNode): void {
  const parent = node.parent;
  if (!parent) return;
  const kids = parent.children;
  const idx = kids.indexOf(node);
  if (idx < 0) return;
  kids.splice(idx, 1);
  if (node.prev) node.prev.next = node.next;
  if (node.next) node.next.prev = node.prev;
  node.parent = null;
  node.prev = null;
  node.next = null;
}

/** Remove many children of possibly different parents in one pass per parent (O(n)). */
export function removeNodes(nodes: readonly ChildNode[]): void {
  const byParent = new Map<ParentNode, Set<ChildNode>>();
  for (const n of nodes) {
    if (!n.parent) continue;
    let set = byParent.get(n.parent);
    if (!set) byParent.set(n.parent, (set = new Set()));
    set.add(n);
  }
  for (const [parent, set] of byParent) {
    const kept = parent.children.filter((c) => !set.has(c));
    relink(parent, kept);
    for (const n of set) {
      n.parent = null;
      n.prev = null;
      n.next = null;
    }
  }
}

function relink(parent: ParentNode, kids: ChildNode[]): void {
  parent.children = kids;
  for (let i = 0; i < kids.length; i++) {
    const k = kids[i] as ChildNode;
    k.parent = parent;
    k.prev = (kids[i - 1] as ChildNode | undefined) ?? null;
    k.next = (kids[i + 1] as ChildNode | undefined) ?? null;
  }
}

/** Replace an element's children by one text node holding their text (depth cap). */
export function flattenChildren(el: Element): void {
  const text = textOf(el);
  relink(el, text ? [new Text(text)] : []);
}

/** class + id of an element, lower-cased, for pattern tests. */
export function classAndId(el: Element): string {
  const c = el.attribs.class;
  const i = el.attribs.id;
  if (c === undefined && i === undefined) return '';
  return `${c ?? ''} ${i ?? ''}`.toLowerCase();
}

/**
 * The template's base class: the first class token without digits. Items rendered from one
 * template share it, while per-item (`post-1234`) and state (`sale`, `accepted-answer`) tokens
 * come after it.
 */
export function baseClass(el: Element): string {
  const cls = el.attribs.class;
  if (!cls) return '';
  // A hand scan: this runs for every child of every element (page-signals.ts, thread.ts).
  let start = 0;
  let digit = false;
  for (let i = 0; i <= cls.length; i++) {
    const c = i < cls.length ? cls.charCodeAt(i) : 32;
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 12) {
      if (i > start && !digit) return cls.slice(start, i);
      start = i + 1;
      digit = false;
    } else if (c >= 48 && c <= 57) digit = true;
  }
  return '';
}

/** An element's template: its tag and base class (repeated items of one template share it). */
export function templateKey(el: Element): string {
  return `${el.name}.${baseClass(el)}`;
}

/** `parent`'s element children grouped by template, in order, without those `skip` names; and how many were grouped. */
export function childrenByTemplate(parent: Element, skip?: ReadonlySet<Element>): { groups: Map<string, Element[]>; elements: number } {
  const groups = new Map<string, Element[]>();
  let elements = 0;
  for (const c of parent.children) {
    if (!isElement(c) || skip?.has(c)) continue;
    elements++;
    const key = templateKey(c);
    const g = groups.get(key);
    if (g) g.push(c);
    else groups.set(key, [c]);
  }
  return { groups, elements };
}

/**
 * Every group of at least `min` element siblings of one template under `root` (its own
 * children included), handed to `visit` with their parent and template key. Subtrees whose
 * root `skip` names are not entered. One walk; each element's children are grouped once.
 * Later siblings' subtrees are visited first (callers keeping the first best rely on it).
 */
export function forEachTemplateGroup(
  root: Element,
  min: number,
  visit: (parent: Element, key: string, members: Element[]) => void,
  skip?: (el: Element) => boolean,
): void {
  const stack: Element[] = [root];
  while (stack.length > 0) {
    const el = stack.pop() as Element;
    if (skip?.(el)) continue;
    let kids = 0;
    for (const c of el.children) {
      if (!isElement(c)) continue;
      kids++;
      stack.push(c);
    }
    if (kids < min) continue;
    for (const [key, members] of childrenByTemplate(el).groups) if (members.length >= min) visit(el, key, members);
  }
}

export function hasClass(el: Element, re: RegExp): boolean {
  const c = el.attribs.class;
  return c !== undefined && re.test(c);
}
