import { Element } from 'domhandler';
import type { ChildNode, ParentNode } from 'domhandler';
import { collapseWhitespace, contains, parseHtml, textOf } from './dom.js';

/**
 * Content the server sent outside the visible DOM, which a browser would show:
 *
 * - Thread software (Discourse and its kind) serves the whole thread inside `<noscript>`
 *   next to an empty script shell. When the visible page is nearly empty and a noscript
 *   holds far more text, the noscript is the page: its raw text (dom.ts reads noscript as
 *   a scripting browser does) is parsed again and put in its place.
 * - React streaming server rendering sends late parts of the page as `<div hidden id="S:n">`
 *   at the end of the body, with an inline `$RC("B:m","S:n")` that moves each one to its
 *   placeholder `<template id="B:m">`. The segment is content; it is put where the script
 *   would put it (or left at the end when no call names it).
 */

/** A noscript must hold at least this much text to be taken for the page. */
const NOSCRIPT_MIN_TEXT = 200;
/** …and this many times the visible text of the rest of the page (a shell shows a splash at most). */
const NOSCRIPT_SHELL_RATIO = 4;
/** React's segment and boundary ids. */
const SEGMENT_ID = /^S:\d+$/;
const BOUNDARY_ID = /^B:\d+$/;
/** `$RC("B:1","S:1")`: complete boundary B:1 with segment S:1. */
const COMPLETE_BOUNDARY = /\$RC\("(B:\d+)","(S:\d+)"\)/g;

export class ServedContent {
  /** Visible characters the prepare walk met outside noscripts (trimmed text nodes). */
  visibleText = 0;
  private readonly noscripts: Array<{ node: Element; depth: number }> = [];
  private readonly segments = new Map<string, Element>();
  private readonly boundaries = new Map<string, Element>();
  private readonly swaps: Array<[string, string]> = [];

  noteNoscript(node: Element, depth: number): void {
    this.noscripts.push({ node, depth });
  }

  /** A `hidden` element that is a streamed segment: content, not hidden. */
  isStreamedSegment(el: Element): boolean {
    const id = el.attribs.id;
    if (id === undefined || !SEGMENT_ID.test(id)) return false;
    this.segments.set(id, el);
    return true;
  }

  noteTemplate(el: Element): void {
    const id = el.attribs.id;
    if (id !== undefined && BOUNDARY_ID.test(id)) this.boundaries.set(id, el);
  }

  noteScript(text: string): void {
    if (!text.includes('$RC(')) return;
    COMPLETE_BOUNDARY.lastIndex = 0;
    for (let m = COMPLETE_BOUNDARY.exec(text); m !== null; m = COMPLETE_BOUNDARY.exec(text))
      this.swaps.push([m[1] as string, m[2] as string]);
  }

  /** Move each streamed segment to its placeholder (before it: the placeholder is removed later). */
  placeSegments(): void {
    for (const [boundaryId, segmentId] of this.swaps) {
      const boundary = this.boundaries.get(boundaryId);
      const segment = this.segments.get(segmentId);
      if (!boundary || !segment || !boundary.parent || contains(segment, boundary)) continue;
      detach(segment);
      insertBefore(boundary, segment);
    }
  }

  /**
   * Replace every noscript that holds the page by a `<div>` of its parsed content and return
   * those divs (with their depth) for the prepare walk to clean. Empty when the page is not a shell.
   */
  rescueNoscripts(): Array<{ div: Element; depth: number }> {
    const out: Array<{ div: Element; depth: number }> = [];
    for (const { node, depth } of this.noscripts) {
      const raw = textOf(node);
      if (raw.length < NOSCRIPT_MIN_TEXT || raw.length < this.visibleText * NOSCRIPT_SHELL_RATIO) continue;
      const fragment = parseHtml(raw);
      const text = collapseWhitespace(textOf(fragment)).length;
      if (text < NOSCRIPT_MIN_TEXT || text < this.visibleText * NOSCRIPT_SHELL_RATIO || !node.parent) continue;
      const div = new Element('div', { 'data-pith-noscript': '' }, fragment.children as ChildNode[]);
      for (const c of div.children) c.parent = div;
      replaceNode(node, div);
      out.push({ div, depth });
    }
    return out;
  }
}

function detach(node: ChildNode): void {
  const parent = node.parent;
  if (!parent) return;
  const i = parent.children.indexOf(node);
  if (i >= 0) parent.children.splice(i, 1);
  if (node.prev) node.prev.next = node.next;
  if (node.next) node.next.prev = node.prev;
  node.parent = null;
  node.prev = null;
  node.next = null;
}

function insertBefore(ref: ChildNode, node: ChildNode): void {
  const parent = ref.parent as ParentNode;
  const i = parent.children.indexOf(ref);
  parent.children.splice(i, 0, node);
  node.parent = parent;
  node.prev = ref.prev;
  node.next = ref;
  if (ref.prev) ref.prev.next = node;
  ref.prev = node;
}

function replaceNode(old: ChildNode, node: Element): void {
  insertBefore(old, node);
  detach(old);
}
