import type { Element } from 'domhandler';
import { collapseWhitespace, isElement, textOf } from './dom.js';

/**
 * Math for the Markdown writer: KaTeX, MathML (with a TeX annotation or `alttext`, else
 * presentation MathML converted to TeX) and MathJax 2 scripts (turned into
 * `<math data-tex>` by prepare.ts) all come out as TeX for `$…$` / `$$…$$`.
 */

function hasClassToken(el: Element, token: string): boolean {
  const c = el.attribs.class;
  return c !== undefined && ` ${c} `.includes(` ${token} `);
}

export function isMath(el: Element): boolean {
  if (el.name === 'math' || el.name === 'mjx-container') return true;
  return el.name === 'span' && (hasClassToken(el, 'katex') || hasClassToken(el, 'katex-display'));
}

export function mathTex(el: Element): string {
  const direct = el.attribs['data-tex'];
  if (direct) return direct.trim();
  let annotation: string | null = null;
  let mathml: Element | null = null;
  const stack: Element[] = [el];
  while (stack.length > 0 && annotation === null) {
    const n = stack.pop() as Element;
    if (n.name === 'annotation' && /tex/i.test(n.attribs.encoding ?? '')) annotation = textOf(n);
    else {
      if (n.name === 'math' && !mathml) mathml = n;
      for (const c of n.children) if (isElement(c)) stack.push(c);
    }
  }
  if (annotation !== null) return annotation.trim();
  const alt = (mathml ?? el).attribs.alttext;
  if (alt) return alt.trim();
  return mathmlToTex(mathml ?? el, 0)
    .replace(/\s+/g, ' ')
    .trim();
}

const MATH_SYMBOLS: Record<string, string> = {
  π: '\\pi',
  '∞': '\\infty',
  '∑': '\\sum',
  '∫': '\\int',
  '≤': '\\le',
  '≥': '\\ge',
  '≠': '\\ne',
  '±': '\\pm',
  '×': '\\times',
  '·': '\\cdot',
  '→': '\\to',
  α: '\\alpha',
  β: '\\beta',
  σ: '\\sigma',
  μ: '\\mu',
  θ: '\\theta',
  λ: '\\lambda',
  '∂': '\\partial',
  '√': '\\sqrt',
};

/** Presentation MathML → TeX for the common elements (scripts, fractions, roots, under/over). */
function mathmlToTex(el: Element, depth: number): string {
  if (depth > 60) return collapseWhitespace(textOf(el));
  const kids = el.children.filter(isElement);
  const arg = (i: number): string => {
    const k = kids[i];
    if (!k) return '';
    const t = mathmlToTex(k, depth + 1).trim();
    return t.length === 1 ? t : `{${t}}`;
  };
  switch (el.name) {
    case 'mi':
    case 'mn':
    case 'mo':
    case 'mtext': {
      const t = collapseWhitespace(textOf(el));
      return [...t]
        .map((ch) => (MATH_SYMBOLS[ch] ? `${MATH_SYMBOLS[ch]} ` : ch))
        .join('')
        .trim();
    }
    case 'msup':
      return `${arg(0)}^${arg(1)}`;
    case 'msub':
      return `${arg(0)}_${arg(1)}`;
    case 'msubsup':
    case 'munderover':
      return `${arg(0)}_${arg(1)}^${arg(2)}`;
    case 'munder':
      return `${arg(0)}_${arg(1)}`;
    case 'mover':
      return `${arg(0)}^${arg(1)}`;
    case 'mfrac':
      return `\\frac${arg(0).startsWith('{') ? arg(0) : `{${arg(0)}}`}${arg(1).startsWith('{') ? arg(1) : `{${arg(1)}}`}`;
    case 'msqrt':
      return `\\sqrt{${kids.map((k) => mathmlToTex(k, depth + 1)).join(' ')}}`;
    case 'mroot':
      return `\\sqrt[${mathmlToTex(kids[1] ?? el, depth + 1)}]{${mathmlToTex(kids[0] ?? el, depth + 1)}}`;
    case 'semantics':
      return kids[0] ? mathmlToTex(kids[0], depth + 1) : '';
    case 'annotation':
    case 'annotation-xml':
      return '';
    default:
      return kids.length > 0 ? kids.map((k) => mathmlToTex(k, depth + 1)).join(' ') : collapseWhitespace(textOf(el));
  }
}
