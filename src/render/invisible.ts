/**
 * On a rendered page the browser knows what is visible: run in the page before its DOM is
 * taken, this marks with `data-pith-invisible` every element whose text no reader sees, by
 * computed style and layout (font-size under 2px, opacity 0, clipped, off-screen, zero
 * size with overflow hidden, text the colour of its background). The extraction engine
 * then treats the mark like its own static judgement (src/convert/html/visibility.ts):
 * left out with a HIDDEN_TEXT warning, or kept with keep_hidden.
 *
 * An element is marked only when its own text is invisible and each of its child elements
 * is marked too, so a `font-size: 0` row whose columns reset the size keeps its columns.
 * Bounded: at most MAX_ELEMENTS elements are judged.
 */
export const INVISIBLE_ATTRIBUTE = 'data-pith-invisible';

const MAX_ELEMENTS = 20_000;

export const MARK_INVISIBLE_SCRIPT = `(() => {
  const MARK = ${JSON.stringify(INVISIBLE_ATTRIBUTE)};
  const all = Array.from(document.body ? document.body.getElementsByTagName('*') : []).slice(0, ${MAX_ELEMENTS});
  const width = Math.max(document.documentElement.scrollWidth, innerWidth);
  const height = Math.max(document.documentElement.scrollHeight, innerHeight);
  const rgba = (c) => {
    const m = /rgba?\\(([^)]*)\\)/.exec(c);
    if (!m) return null;
    const p = m[1].split(',').map((x) => parseFloat(x));
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const background = (el) => {
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      const bg = rgba(getComputedStyle(e).backgroundColor);
      if (bg && bg.a > 0.99) return bg;
      if (getComputedStyle(e).backgroundImage !== 'none') return null;
    }
    return { r: 255, g: 255, b: 255, a: 1 };
  };
  const ownText = (el) => {
    let n = 0;
    for (const c of el.childNodes) if (c.nodeType === 3) n += c.data.trim().length;
    return n;
  };
  const invisible = (el) => {
    const cs = getComputedStyle(el);
    if (parseFloat(cs.fontSize) < 2) return true;
    if (parseFloat(cs.opacity) === 0) return true;
    if (cs.clip === 'rect(0px, 0px, 0px, 0px)' || /^inset\\(50%\\)/.test(cs.clipPath)) return true;
    const r = el.getBoundingClientRect();
    const x = r.left + scrollX, y = r.top + scrollY;
    if (x + r.width < -500 || y + r.height < -500 || x > width + 500 || y > height + 500) return true;
    if ((r.width === 0 || r.height === 0) && cs.overflow === 'hidden') return true;
    const fg = rgba(cs.color);
    if (fg && fg.a === 0) return true;
    const bg = fg ? background(el) : null;
    if (fg && bg && Math.abs(fg.r - bg.r) + Math.abs(fg.g - bg.g) + Math.abs(fg.b - bg.b) < 6) return true;
    return false;
  };
  let marked = 0;
  for (let i = all.length - 1; i >= 0; i--) {
    const el = all[i];
    const text = ownText(el);
    const kids = el.children;
    if (text === 0 && kids.length === 0) continue;
    let kidsHidden = true;
    for (const k of kids) if (!k.hasAttribute(MARK) && (k.textContent || '').trim() !== '') { kidsHidden = false; break; }
    if (!kidsHidden) continue;
    if (text === 0 && !Array.from(kids).some((k) => k.hasAttribute(MARK))) continue;
    if (invisible(el)) { el.setAttribute(MARK, ''); marked++; }
  }
  return marked;
})()`;
