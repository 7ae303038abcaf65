import { Element, Text } from 'domhandler';
import type { ChildNode, Document, ParentNode } from 'domhandler';
import { isElement, removeNodes, textOf } from './dom.js';

/**
 * Phase 1 of extraction: take out everything that can never be content (scripts, styles,
 * form controls, embedded frames, comments, hidden elements) and note the signals the
 * JS_SHELL warning needs before they are gone.
 */

/** Elements dropped with their subtree wherever they are. */
const NEVER_CONTENT = new Set([
  'script', 'style', 'noscript', 'template', 'iframe', 'frame', 'frameset', 'svg', 'canvas', 'object',
  'embed', 'applet', 'link', 'meta', 'input', 'select', 'button', 'textarea', 'option', 'datalist',
  'map', 'area', 'audio', 'video', 'source', 'track', 'dialog', 'head', 'title', 'base', 'param',
]);

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;
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

/** Remove non-content nodes in place; returns what JS_SHELL detection needs. */
export function prepareDocument(doc: Document): ShellSignals {
  const signals: ShellSignals = { scriptCount: 0, scriptBytes: 0, spaRoot: false, noscriptAsksForJs: false };
  const doomed: ChildNode[] = [];
  const stack: ChildNode[] = [...doc.children].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as ChildNode;
    if (node.type === 'comment' || node.type === 'directive' || node.type === 'cdata') {
      doomed.push(node);
      continue;
    }
    if (!isElement(node)) continue;
    const name = node.name;
    const a = node.attribs;
    if (name === 'script') {
      const type = a.type ?? '';
      if (type.startsWith('math/tex')) {
        replaceWithMath(node, type.includes('mode=display'));
        continue;
      }
      signals.scriptCount++;
      const first = node.children[0];
      signals.scriptBytes += first && first.type === 'text' ? first.data.length : 0;
      doomed.push(node);
      continue;
    }
    if (name === 'noscript') {
      const text = textOf(node);
      if (ENABLE_JS.test(text)) signals.noscriptAsksForJs = true;
      if (!rescueNoscriptImage(node)) doomed.push(node);
      continue;
    }
    if (NEVER_CONTENT.has(name)) {
      doomed.push(node);
      continue;
    }
    if (a.id !== undefined && SPA_ROOT_IDS.has(a.id)) signals.spaRoot = true;
    if (a['ng-app'] !== undefined || a['data-reactroot'] !== undefined || a['data-server-rendered'] !== undefined) signals.spaRoot = true;
    if (isHidden(node)) {
      doomed.push(node);
      continue;
    }
    const kids = node.children;
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i] as ChildNode);
  }
  removeNodes(doomed);
  return signals;
}

function isHidden(el: Element): boolean {
  const a = el.attribs;
  if (a.hidden !== undefined) return true;
  if (a['aria-hidden'] === 'true' && !isMathCarrier(el)) return true;
  if (a.style !== undefined && HIDDEN_STYLE.test(a.style)) return true;
  if (a.class !== undefined && HIDDEN_CLASS.test(a.class)) return true;
  return false;
}

/** KaTeX/MathJax put the readable TeX next to an aria-hidden visual copy; keep the carriers. */
function isMathCarrier(el: Element): boolean {
  return el.name === 'math' || (el.attribs.class ?? '').includes('katex-mathml');
}

/** `<script type="math/tex">x</script>` (MathJax 2) → `<math data-tex="x">` for the writer. */
function replaceWithMath(script: Element, display: boolean): void {
  const tex = textOf(script);
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
function rescueNoscriptImage(noscript: Element): boolean {
  let prev = noscript.prev;
  while (prev && prev.type === 'text' && !prev.data.trim()) prev = prev.prev;
  if (!isElement(prev) || prev.name !== 'img') return false;
  const src = prev.attribs.src ?? '';
  if (src && !src.startsWith('data:')) return false;
  const inner = findImg(noscript);
  if (!inner) return false;
  prev.attribs = { ...prev.attribs, ...inner.attribs };
  return false;
}

function findImg(root: Element): Element | null {
  for (const c of root.children) {
    if (isElement(c) && c.name === 'img') return c;
  }
  // noscript content is often parsed as text; pull src/alt out of it.
  const raw = textOf(root);
  const m = /<img\b[^>]*\bsrc\s*=\s*["']([^"']+)["'][^>]*>/i.exec(raw);
  if (!m || !m[1]) return null;
  const alt = /\balt\s*=\s*["']([^"']*)["']/i.exec(m[0]);
  return new Element('img', { src: m[1], ...(alt && alt[1] ? { alt: alt[1] } : {}) }, []);
}

/** Visible text length of the prepared body, whitespace-collapsed (for JS_SHELL). */
export function visibleTextLength(root: ParentNode): number {
  return textOf(root).replace(/\s+/g, ' ').trim().length;
}

export function makeText(data: string): Text {
  return new Text(data);
}
