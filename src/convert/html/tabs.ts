import { Element, Text } from 'domhandler';
import type { ParentNode } from 'domhandler';
import { collapseWhitespace, isElement, textOf, walkElements, pushAll } from './dom.js';

/**
 * Tab sets (install commands per package manager, code per language, product tabs) keep
 * every panel, but the tab strip that names them is UI and is removed. Without the names
 * the panels read as unexplained repeats, so each panel gets its tab's label as a bold
 * first line. Two markups are understood:
 *
 * - ARIA: `role="tablist"` holding `role="tab"`s, panels `role="tabpanel"` matched by
 *   `aria-controls`, `href="#id"`, `aria-labelledby` or, failing all, by position
 *   (Docusaurus, Starlight, sphinx-tabs, Bootstrap, Radix…).
 * - Radio inputs with `<label for>` (MkDocs Material / pymdownx tabbed, sphinx-design):
 *   the panel is the label's next sibling, or the same-position child of the sibling
 *   container that holds one block per label.
 *
 * Nothing is changed when the tabs and panels cannot be paired one to one.
 */

/** Tab strips sit at most this many levels below the element that also holds their panels. */
const MAX_CONTAINER_HOPS = 4;
/** Longer "labels" are not tab names. */
const MAX_LABEL_CHARS = 80;

export function labelTabPanels(tablists: readonly Element[], radioLabels: readonly Element[]): Element[] {
  const consumed: Element[] = [];
  for (const list of tablists) labelAriaTabs(list);
  const seenGroups = new Set<ParentNode>();
  for (const label of radioLabels) {
    const group = label.parent;
    if (!group || seenGroups.has(group)) continue;
    seenGroups.add(group);
    pushAll(consumed, labelRadioTabs(group));
  }
  return consumed;
}

function labelAriaTabs(list: Element): void {
  const tabs: Element[] = [];
  walkElements(list, (el) => {
    if (el.attribs.role === 'tab') tabs.push(el);
  });
  if (tabs.length === 0) return;
  let container: ParentNode | null = list.parent;
  for (let hop = 0; container && hop < MAX_CONTAINER_HOPS; hop++, container = container.parent) {
    // panels of nested tab sets sit inside ours: do not descend into a panel
    const panels: Element[] = [];
    walkElements(container, (el) => {
      if (el.attribs.role !== 'tabpanel') return true;
      panels.push(el);
      return false;
    });
    if (panels.length === 0) continue;
    const pairs = pairAriaTabs(tabs, panels);
    if (pairs) for (const [tab, panel] of pairs) prependLabel(panel, tab);
    return;
  }
}

function pairAriaTabs(tabs: readonly Element[], panels: readonly Element[]): Array<[Element, Element]> | null {
  const byId = new Map<string, Element>();
  const byLabelledBy = new Map<string, Element>();
  for (const p of panels) {
    if (p.attribs.id) byId.set(p.attribs.id, p);
    if (p.attribs['aria-labelledby']) byLabelledBy.set(p.attribs['aria-labelledby'], p);
  }
  const pairs: Array<[Element, Element]> = [];
  for (const tab of tabs) {
    const a = tab.attribs;
    const href = a.href?.startsWith('#') ? a.href.slice(1) : undefined;
    const panel =
      (a['aria-controls'] && byId.get(a['aria-controls'])) || (href && byId.get(href)) || (a.id && byLabelledBy.get(a.id)) || undefined;
    if (!panel) break;
    pairs.push([tab, panel]);
  }
  if (pairs.length === tabs.length) return pairs;
  // No explicit links (Docusaurus): the n-th tab names the n-th panel.
  if (tabs.length !== panels.length) return null;
  return tabs.map((t, i) => [t, panels[i] as Element]);
}

/** Labels of one radio group: returns the labels (and their inputs) that became panel titles. */
function labelRadioTabs(group: ParentNode): Element[] {
  const labels: Element[] = [];
  for (const c of group.children) if (isElement(c) && c.name === 'label' && isRadioLabel(c)) labels.push(c);
  if (labels.length < 2) return [];
  const panels = labels.map(nextContentSibling);
  if (panels.every((p) => p !== null)) {
    for (const [i, label] of labels.entries()) prependLabel(panels[i] as Element, label);
    return labels;
  }
  // Labels grouped in a strip (MkDocs Material): a sibling of the strip holds one block per label.
  if (!isElement(group)) return [];
  for (let s = group.next; s; s = s.next) {
    if (!isElement(s)) continue;
    const blocks = s.children.filter(isElement);
    if (blocks.length !== labels.length) continue;
    for (const [i, label] of labels.entries()) prependLabel(blocks[i] as Element, label);
    return labels;
  }
  return [];
}

/** A `<label for=x>` whose `x` is a radio input close by (same group or its parent). */
function isRadioLabel(label: Element): boolean {
  const target = label.attribs.for;
  if (!target) return false;
  for (let scope: ParentNode | null = label.parent, hop = 0; scope && hop < 2; scope = scope.parent, hop++) {
    for (const c of scope.children) {
      if (isElement(c) && c.name === 'input' && c.attribs.id === target) return (c.attribs.type ?? '').toLowerCase() === 'radio';
    }
  }
  return false;
}

function nextContentSibling(label: Element): Element | null {
  for (let s = label.next; s; s = s.next) {
    if (!isElement(s)) continue;
    if (s.name === 'input') continue;
    return s.name === 'label' ? null : s;
  }
  return null;
}

/** `<p><strong>label</strong></p>` as the panel's first child. */
/** The panel's first element when it is a heading (looking through single wrappers). */
function firstHeading(panel: Element): Element | null {
  let el: Element | undefined = panel;
  for (let depth = 0; el && depth < 4; depth++) {
    const kids: Element[] = el.children.filter(isElement);
    const lead = kids[0];
    if (!lead) return null;
    if (/^h[1-6]$/.test(lead.name)) return lead;
    el = kids.length === 1 ? lead : undefined;
  }
  return null;
}

function prependLabel(panel: Element, tab: Element): void {
  const text = collapseWhitespace(textOf(tab));
  if (text === '' || text.length > MAX_LABEL_CHARS) return;
  // A panel that opens with a heading naming itself needs no label (WooCommerce's "Description").
  const heading = firstHeading(panel);
  if (heading && collapseWhitespace(textOf(heading)).toLowerCase() === text.toLowerCase()) return;
  const strong = new Element('strong', {}, [new Text(text)]);
  const p = new Element('p', { 'data-pith-tab': '' }, [strong]);
  (strong.children[0] as Text).parent = strong;
  strong.parent = p;
  p.parent = panel;
  const first = panel.children[0];
  if (first) {
    p.next = first;
    first.prev = p;
  }
  panel.children.unshift(p);
}
