/**
 * Whether a media query list (`<style media="…">`) applies on a desktop screen. Pages built
 * with atomic CSS-in-JS ship one `<style media>` sheet per breakpoint, and a layout copy
 * for each width (the desktop copy hidden on phones, the phone copy hidden on desktops):
 * reading every sheet as if it applied hides both copies and loses the page. The human
 * references we are judged against were made on a desktop screen, so that is the one
 * screen the queries are evaluated for. Anything this small reader does not understand
 * does not apply (a sheet that may hide nothing is the safe side).
 */

/** The screen assumed: a laptop's CSS width and height. */
const DESKTOP_WIDTH = 1280;
const DESKTOP_HEIGHT = 800;
/** `em`/`rem` in a media query are the initial font size. */
const EM_PX = 16;
/** A query list longer than this is not read (hostile input stays cheap). */
const MAX_QUERY_CHARS = 1000;

const FEATURE_NAME = /^[a-z-]+$/;
const LENGTH = /^(\d+(?:\.\d+)?|\.\d+)(px|em|rem)?$/;

export function mediaAppliesOnDesktop(media: string | undefined): boolean {
  if (media === undefined) return true;
  const list = media.replace(/\s+/g, ' ').trim().toLowerCase();
  if (list === '') return true;
  if (list.length > MAX_QUERY_CHARS) return false;
  return list.split(',').some((q) => queryApplies(q.trim()));
}

function queryApplies(query: string): boolean {
  if (query === '') return false;
  const parts = query.split(' and ');
  let negate = false;
  const first = (parts[0] as string).split(' ');
  // a leading media type, maybe after `only` or `not`
  if (!first[0]?.startsWith('(')) {
    let i = 0;
    if (first[i] === 'only') i++;
    else if (first[i] === 'not') {
      negate = true;
      i++;
    }
    const type = first[i];
    if (first.length !== i + 1 || type === undefined) return false;
    const onScreen = type === 'all' || type === 'screen';
    parts.shift();
    if (!onScreen) return negate && parts.length === 0;
  }
  for (const part of parts) {
    const holds = featureHolds(part.trim());
    if (holds === null) return false;
    if (!holds) return negate;
  }
  return !negate;
}

/** true / false for a feature this reader knows, null for one it does not. */
function featureHolds(part: string): boolean | null {
  if (!part.startsWith('(') || !part.endsWith(')')) return null;
  const inner = part.slice(1, -1);
  const colon = inner.indexOf(':');
  const name = (colon < 0 ? inner : inner.slice(0, colon)).trim();
  const value = colon < 0 ? undefined : inner.slice(colon + 1).trim();
  if (!FEATURE_NAME.test(name)) return null;
  switch (name) {
    case 'min-width':
      return compare(value, (px) => DESKTOP_WIDTH >= px);
    case 'max-width':
      return compare(value, (px) => DESKTOP_WIDTH <= px);
    case 'min-height':
      return compare(value, (px) => DESKTOP_HEIGHT >= px);
    case 'max-height':
      return compare(value, (px) => DESKTOP_HEIGHT <= px);
    case 'orientation':
      return value === undefined ? null : value === 'landscape';
    case 'hover':
      return value === undefined || value === 'hover';
    case 'pointer':
      return value === undefined || value === 'fine';
    case 'color':
      return true;
    default:
      return null;
  }
}

function compare(value: string | undefined, test: (px: number) => boolean): boolean | null {
  if (value === undefined) return null;
  const m = LENGTH.exec(value);
  if (!m) return null;
  const n = Number(m[1]);
  if (m[2] === undefined && n !== 0) return null;
  return test(m[2] === 'em' || m[2] === 'rem' ? n * EM_PX : n);
}
