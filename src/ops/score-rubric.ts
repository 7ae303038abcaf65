import type { Element } from 'domhandler';
import { collapseWhitespace } from '../convert/html/dom.js';
import { hasInlineLink } from '../convert/inline-scan.js';
import { isAllowedByRobots, parseRobots } from '../fetch/robots.js';
import type { HtmlPage } from './html-page.js';
import { elements, visibleText } from './html-page.js';

/**
 * The agent-readability rubric (docs/score.md): thirteen checks worth 100 points. Pure:
 * the page and the probe answers come in, the score goes out.
 */
export interface ScoreCheck {
  id: string;
  label: string;
  passed: boolean;
  points: number;
  maxPoints: number;
  detail: string;
}

export type Grade = 'A' | 'B' | 'C' | 'D' | 'F';

export interface Score {
  value: number;
  grade: Grade;
  checks: ScoreCheck[];
}

/** What a probe saw; null when it could not be fetched (network error, time-out). */
export interface ProbeAnswer {
  status: number;
  contentType: string | null;
  text: string;
}

export interface ScoreSignals {
  url: string;
  /** The parsed page; null when the document is not HTML. */
  page: HtmlPage | null;
  robots: ProbeAnswer | null;
  llms: ProbeAnswer | null;
  sitemap: (ProbeAnswer & { url: string }) | null;
  /** The page fetched again with `Accept: text/markdown`. */
  markdown: ProbeAnswer | null;
}

/** Crawlers of AI products whose robots.txt access is checked (2 points each). */
export const AI_CRAWLERS = ['GPTBot', 'ClaudeBot', 'PerplexityBot', 'Google-Extended', 'CCBot'] as const;

/** Visible text that counts as server-rendered main content (full points / half points). */
export const CONTENT_FULL_CHARS = 500;
export const CONTENT_HALF_CHARS = 200;
/** Visible text over HTML size: full points at 20 %, two points at 8 %. */
export const RATIO_FULL = 0.2;
export const RATIO_PARTIAL = 0.08;

const GRADES: Array<[number, Grade]> = [
  [90, 'A'],
  [80, 'B'],
  [70, 'C'],
  [60, 'D'],
];

export function gradeOf(value: number): Grade {
  return GRADES.find(([min]) => value >= min)?.[1] ?? 'F';
}

export function computeScore(signals: ScoreSignals): Score {
  const checks = [
    ...pageChecks(signals.page),
    aiCrawlersCheck(signals.url, signals.robots),
    llmsTxtCheck(signals.llms),
    sitemapCheck(signals.sitemap),
    markdownCheck(signals.markdown),
  ];
  const value = checks.reduce((sum, c) => sum + c.points, 0);
  return { value, grade: gradeOf(value), checks };
}

function check(id: string, label: string, max: number, points: number, detail: string): ScoreCheck {
  return { id, label, passed: points === max, points, maxPoints: max, detail };
}

const PAGE_CHECKS: Array<[string, string, number]> = [
  ['server_rendered_content', 'Main content is server-rendered (not a JavaScript shell)', 20],
  ['title', 'Page has a title', 5],
  ['meta_description', 'Page has a meta description', 5],
  ['lang', 'Document language is declared', 5],
  ['heading_outline', 'One h1 and a heading outline without skipped levels', 10],
  ['landmarks', 'Semantic landmarks (main, header/nav/footer)', 5],
  ['json_ld', 'Valid JSON-LD structured data', 10],
  ['canonical', 'Canonical link', 5],
  ['text_ratio', 'Text-to-markup ratio', 5],
];

function pageChecks(page: HtmlPage | null): ScoreCheck[] {
  if (page === null) {
    return PAGE_CHECKS.map(([id, label, max]) => check(id, label, max, 0, 'the document is not an HTML page'));
  }
  const all = elements(page.doc, () => true);
  const by = (name: string): Element[] => all.filter((el) => el.name === name);
  const body = by('body')[0] ?? page.doc;
  const text = visibleText(body);
  const out: ScoreCheck[] = [];

  const contentPoints = text.length >= CONTENT_FULL_CHARS ? 20 : text.length >= CONTENT_HALF_CHARS ? 10 : 0;
  out.push(
    check(
      'server_rendered_content',
      'Main content is server-rendered (not a JavaScript shell)',
      20,
      contentPoints,
      `${text.length} characters of visible text in the HTML as served${contentPoints === 0 ? '; looks like a JavaScript shell' : ''} (full points from ${CONTENT_FULL_CHARS}, half from ${CONTENT_HALF_CHARS})`,
    ),
  );

  const title = collapseWhitespace(
    by('title')
      .map((t) => visibleTextOf(t))
      .join(' '),
  );
  out.push(check('title', 'Page has a title', 5, title ? 5 : 0, title ? `title: "${truncate(title, 80)}"` : 'no <title> or an empty one'));

  const description = metaContent(all, 'description');
  out.push(
    check(
      'meta_description',
      'Page has a meta description',
      5,
      description ? 5 : 0,
      description ? `${description.length} characters` : 'no <meta name="description">',
    ),
  );

  const lang = (by('html')[0]?.attribs.lang ?? '').trim();
  const langOk = /^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$/i.test(lang);
  out.push(
    check(
      'lang',
      'Document language is declared',
      5,
      langOk ? 5 : 0,
      lang ? `lang="${truncate(lang, 20)}"${langOk ? '' : ' is not a language tag'}` : 'no lang attribute on <html>',
    ),
  );

  out.push(headingCheck(all));
  out.push(landmarkCheck(all));
  out.push(jsonLdCheck(by('script')));
  out.push(canonicalCheck(all, page.base));

  const ratio = page.html.length === 0 ? 0 : visibleText(page.doc).length / page.html.length;
  const ratioPoints = ratio >= RATIO_FULL ? 5 : ratio >= RATIO_PARTIAL ? 2 : 0;
  out.push(
    check(
      'text_ratio',
      'Text-to-markup ratio',
      5,
      ratioPoints,
      `${(ratio * 100).toFixed(1)} % of the HTML is visible text (full points from ${RATIO_FULL * 100} %, 2 points from ${RATIO_PARTIAL * 100} %)`,
    ),
  );
  return out;
}

function visibleTextOf(el: Element): string {
  return el.children.map((c) => ('data' in c ? String(c.data) : '')).join('');
}

function metaContent(all: Element[], name: string): string {
  const meta = all.find((el) => el.name === 'meta' && (el.attribs.name ?? '').toLowerCase() === name);
  return collapseWhitespace(meta?.attribs.content ?? '');
}

function headingCheck(all: Element[]): ScoreCheck {
  const levels = all.filter((el) => /^h[1-6]$/.test(el.name)).map((el) => Number(el.name.slice(1)));
  const h1s = levels.filter((l) => l === 1).length;
  let prev = 0;
  let skipped: string | null = null;
  for (const level of levels) {
    if (level > prev + 1 && skipped === null) skipped = `h${prev === 0 ? '-' : prev} → h${level}`;
    prev = level;
  }
  const outlineOk = levels.length >= 2 && skipped === null;
  const points = (h1s === 1 ? 5 : 0) + (outlineOk ? 5 : 0);
  const parts = [
    h1s === 1 ? 'one h1' : `${h1s} h1 elements (want exactly one)`,
    levels.length < 2
      ? `${levels.length} heading(s) (want at least two)`
      : skipped
        ? `skipped level ${skipped}`
        : `${levels.length} headings, no skipped level`,
  ];
  return check('heading_outline', 'One h1 and a heading outline without skipped levels', 10, points, parts.join('; '));
}

function landmarkCheck(all: Element[]): ScoreCheck {
  const role = (el: Element): string => (el.attribs.role ?? '').toLowerCase();
  const hasMain = all.some((el) => el.name === 'main' || role(el) === 'main');
  const others = new Set(
    all.flatMap((el) => {
      if (['header', 'nav', 'footer'].includes(el.name)) return [el.name];
      const r = role(el);
      if (r === 'banner') return ['header'];
      if (r === 'navigation') return ['nav'];
      if (r === 'contentinfo') return ['footer'];
      return [];
    }),
  );
  const points = (hasMain ? 3 : 0) + (others.size > 0 ? 2 : 0);
  const found = [...(hasMain ? ['main'] : []), ...[...others].sort()];
  return check(
    'landmarks',
    'Semantic landmarks (main, header/nav/footer)',
    5,
    points,
    found.length ? `found: ${found.join(', ')}` : 'no main, header, nav or footer landmark',
  );
}

function jsonLdCheck(scripts: Element[]): ScoreCheck {
  const blocks = scripts.filter((s) => (s.attribs.type ?? '').trim().toLowerCase() === 'application/ld+json');
  const label = 'Valid JSON-LD structured data';
  if (blocks.length === 0) return check('json_ld', label, 10, 0, 'no application/ld+json block');
  let typed = 0;
  for (const [i, block] of blocks.entries()) {
    let data: unknown;
    try {
      data = JSON.parse(visibleTextOf(block));
    } catch {
      return check('json_ld', label, 10, 0, `block ${i + 1} of ${blocks.length} is not valid JSON`);
    }
    const items = Array.isArray(data) ? data : [data];
    if (items.every((item) => isRecord(item) && '@context' in item && hasType(item))) typed++;
  }
  if (typed === blocks.length) return check('json_ld', label, 10, 10, `${blocks.length} block(s), all with @context and @type`);
  return check('json_ld', label, 10, 5, `${blocks.length - typed} of ${blocks.length} block(s) lack @context or @type`);
}

function hasType(item: Record<string, unknown>): boolean {
  if ('@type' in item) return true;
  const graph = item['@graph'];
  return Array.isArray(graph) && graph.length > 0 && graph.every((g) => isRecord(g) && '@type' in g);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function canonicalCheck(all: Element[], base: string): ScoreCheck {
  const link = all.find((el) => el.name === 'link' && (el.attribs.rel ?? '').toLowerCase().split(/\s+/).includes('canonical'));
  const label = 'Canonical link';
  if (!link) return check('canonical', label, 5, 0, 'no <link rel="canonical">');
  const href = (link.attribs.href ?? '').trim();
  let url: URL | null = null;
  try {
    url = href ? new URL(href, base) : null;
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    return check('canonical', label, 5, 0, `canonical href "${truncate(href, 80)}" is not an http(s) URL`);
  return check('canonical', label, 5, 5, `canonical: ${truncate(url.href, 120)}`);
}

function aiCrawlersCheck(pageUrl: string, robots: ProbeAnswer | null): ScoreCheck {
  const label = 'robots.txt lets AI crawlers read the page';
  const max = AI_CRAWLERS.length * 2;
  if (robots === null || robots.status >= 500) {
    return check('ai_crawlers', label, max, 0, 'robots.txt is unreachable or answers 5xx; crawlers treat that as "disallow all"');
  }
  if (robots.status >= 400) return check('ai_crawlers', label, max, max, `robots.txt answers ${robots.status}: every crawler is allowed`);
  if (robots.status !== 200) return check('ai_crawlers', label, max, 0, `robots.txt answers ${robots.status}`);
  const url = new URL(pageUrl);
  const path = url.pathname + url.search;
  const blocked = AI_CRAWLERS.filter((token) => !isAllowedByRobots(parseRobots(robots.text, token), path));
  const points = (AI_CRAWLERS.length - blocked.length) * 2;
  return check(
    'ai_crawlers',
    label,
    max,
    points,
    blocked.length === 0 ? `allowed: ${AI_CRAWLERS.join(', ')}` : `blocked: ${blocked.join(', ')}`,
  );
}

function llmsTxtCheck(llms: ProbeAnswer | null): ScoreCheck {
  const label = '/llms.txt is present and well-formed';
  if (llms === null) return check('llms_txt', label, 10, 0, '/llms.txt could not be fetched');
  if (llms.status !== 200) return check('llms_txt', label, 10, 0, `/llms.txt answers ${llms.status}`);
  const text = llms.text.replace(/^\uFEFF/, '');
  if (llms.contentType === 'text/html' || /^\s*<(?:!doctype|html)/i.test(text)) {
    return check('llms_txt', label, 10, 0, '/llms.txt answers an HTML page, not Markdown');
  }
  const firstLine = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
  const hasH1 = /^# \S/.test(firstLine);
  const hasLink = hasInlineLink(text);
  if (hasH1 && hasLink) return check('llms_txt', label, 10, 10, 'starts with an H1 title and lists links');
  return check(
    'llms_txt',
    label,
    10,
    5,
    `present but not well-formed: ${hasH1 ? '' : 'no "# Title" first line'}${!hasH1 && !hasLink ? '; ' : ''}${hasLink ? '' : 'no Markdown links'}`,
  );
}

function sitemapCheck(sitemap: ScoreSignals['sitemap']): ScoreCheck {
  const label = 'A sitemap is reachable';
  if (sitemap === null) return check('sitemap', label, 5, 0, 'no sitemap could be fetched');
  if (sitemap.status !== 200) return check('sitemap', label, 5, 0, `${truncate(sitemap.url, 120)} answers ${sitemap.status}`);
  const ok = /<(?:[\w-]+:)?(?:urlset|sitemapindex)[\s>]/.test(sitemap.text) || sitemap.text.startsWith('\u001f\u008b');
  return check(
    'sitemap',
    label,
    5,
    ok ? 5 : 0,
    ok ? `sitemap at ${truncate(sitemap.url, 120)}` : `${truncate(sitemap.url, 120)} is not a sitemap`,
  );
}

function markdownCheck(md: ProbeAnswer | null): ScoreCheck {
  const label = 'Markdown content negotiation (Accept: text/markdown)';
  if (md === null) return check('markdown_negotiation', label, 5, 0, 'the page could not be fetched again with Accept: text/markdown');
  const ok = md.status === 200 && (md.contentType === 'text/markdown' || md.contentType === 'text/x-markdown');
  return check(
    'markdown_negotiation',
    label,
    5,
    ok ? 5 : 0,
    ok ? `answers ${md.contentType}` : `answers ${md.status} ${md.contentType ?? 'without a Content-Type'}`,
  );
}

function truncate(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
