/**
 * robots.txt per RFC 9309: groups by product token (ours, else `*`), rules combined
 * across matching groups, the longest (most octets) match wins, Allow wins ties, `*`
 * wildcards and `$` end anchors, percent-encoding normalised on both sides. Pure.
 */
export const ROBOTS_PRODUCT_TOKEN = 'PithBot';
/** RFC 9309 §2.5: parse at least 500 KiB; we parse exactly that much. */
export const ROBOTS_MAX_BYTES = 500 * 1024;
/**
 * Rules kept for our crawler (the first ones, in file order, over all matching groups).
 * A check runs every rule over the path, so this bounds it: 5,000 rules that all start
 * with `*` against an 8 KB path cost ~15 ms of CPU (test/unit/hostile/robots-matcher).
 */
export const ROBOTS_MAX_RULES = 5_000;
/** A longer rule is ignored: longer than any URL we fetch, it is not a real rule. */
export const ROBOTS_MAX_RULE_CHARS = 8192;

export interface RobotsRule {
  allow: boolean;
  /** Normalised pattern (percent-encoding canonical, `*`/`$` kept). */
  pattern: string;
}

/** What applies to our crawler on one origin. */
export type RobotsPolicy = { kind: 'allow-all' } | { kind: 'disallow-all' } | { kind: 'rules'; rules: RobotsRule[] };

interface Group {
  agents: string[];
  rules: RobotsRule[];
}

/** Parses robots.txt text and keeps only the rules for `token` (falling back to `*`). */
export function parseRobots(text: string, token: string = ROBOTS_PRODUCT_TOKEN): RobotsPolicy {
  const capped = text.length > ROBOTS_MAX_BYTES ? text.slice(0, ROBOTS_MAX_BYTES) : text;
  const groups = parseGroups(capped.replace(/^\uFEFF/, ''));
  const wanted = token.toLowerCase();
  let matching = groups.filter((g) => g.agents.includes(wanted));
  if (matching.length === 0) matching = groups.filter((g) => g.agents.includes('*'));
  const rules = matching.flatMap((g) => g.rules).slice(0, ROBOTS_MAX_RULES);
  return rules.length === 0 ? { kind: 'allow-all' } : { kind: 'rules', rules };
}

function parseGroups(text: string): Group[] {
  const groups: Group[] = [];
  let current: Group | null = null;
  let lastWasAgent = false;
  for (const rawLine of text.split(/\r\n|\r|\n/)) {
    const hash = rawLine.indexOf('#');
    const line = (hash < 0 ? rawLine : rawLine.slice(0, hash)).trim();
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line
      .slice(0, colon)
      .trim()
      .toLowerCase()
      .replace(/[\s_]+/g, '-');
    const value = line.slice(colon + 1).trim();
    if (key === 'user-agent' || key === 'useragent') {
      if (!current || !lastWasAgent) {
        current = { agents: [], rules: [] };
        groups.push(current);
      }
      current.agents.push(agentToken(value));
      lastWasAgent = true;
      continue;
    }
    if (key === 'allow' || key === 'disallow') {
      lastWasAgent = false;
      if (!current || value === '' || value.length > ROBOTS_MAX_RULE_CHARS) continue;
      current.rules.push({ allow: key === 'allow', pattern: normalizePath(value) });
    }
    // sitemap and unknown keys do not end a run of user-agent lines (RFC 9309 §2.2.4)
  }
  return groups;
}

/** `PithBot/1.0 (+url)` → `pithbot`; `*` stays `*`. */
function agentToken(value: string): string {
  if (value.startsWith('*')) return '*';
  return (/^[A-Za-z_-]+/.exec(value)?.[0] ?? value).toLowerCase();
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/**
 * Canonical form for comparison: non-ASCII and control/space characters
 * percent-encoded as UTF-8, `%XX` of unreserved characters decoded, other `%xx`
 * upper-cased.
 */
export function normalizePath(input: string): string {
  let out = '';
  const bytes = Buffer.from(input, 'utf8');
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] ?? 0;
    if (b === 0x25 && i + 2 < bytes.length + 0 && isHex(bytes[i + 1]) && isHex(bytes[i + 2])) {
      const code = parseInt(String.fromCharCode(bytes[i + 1] ?? 0, bytes[i + 2] ?? 0), 16);
      const ch = String.fromCharCode(code);
      out += code < 0x80 && UNRESERVED.test(ch) ? ch : `%${code.toString(16).toUpperCase().padStart(2, '0')}`;
      i += 2;
    } else if (b <= 0x20 || b >= 0x7f) {
      out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    } else {
      out += String.fromCharCode(b);
    }
  }
  return out;
}

function isHex(b: number | undefined): boolean {
  return b !== undefined && ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66));
}

/**
 * Does `pattern` (with `*` and a trailing `$`) match `path` from its start? The literal
 * pieces between stars are found left to right, each at its first place after the previous
 * one: the earliest place leaves the most room, so it is never wrong to take it. Each piece
 * is searched once over the path left of it: O(pattern + path), whatever the stars.
 */
export function patternMatches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const pieces = (anchored ? pattern.slice(0, -1) : pattern).split('*');
  const first = pieces[0]!;
  if (pieces.length === 1) return anchored ? path === first : path.startsWith(first);
  if (!path.startsWith(first)) return false;
  let at = first.length;
  const last = pieces.length - 1;
  for (let i = 1; i < last; i++) {
    const piece = pieces[i]!;
    if (piece === '') continue;
    const found = path.indexOf(piece, at);
    if (found < 0) return false;
    at = found + piece.length;
  }
  const tail = pieces[last]!;
  // Anchored, the last piece must end the path (and start after what matched before it).
  if (anchored) return path.length - tail.length >= at && path.endsWith(tail);
  return tail === '' || path.indexOf(tail, at) >= 0;
}

/** Is `pathAndQuery` (e.g. `/a/b?c=d`) allowed under `policy`? */
export function isAllowedByRobots(policy: RobotsPolicy, pathAndQuery: string): boolean {
  if (policy.kind === 'allow-all') return true;
  if (policy.kind === 'disallow-all') return false;
  const path = normalizePath(pathAndQuery === '' ? '/' : pathAndQuery);
  if (path === '/robots.txt') return true;
  let best: RobotsRule | null = null;
  // A cached policy may predate the cap.
  for (const rule of policy.rules.length > ROBOTS_MAX_RULES ? policy.rules.slice(0, ROBOTS_MAX_RULES) : policy.rules) {
    if (!patternMatches(rule.pattern, path)) continue;
    if (!best || rule.pattern.length > best.pattern.length || (rule.pattern.length === best.pattern.length && rule.allow && !best.allow)) {
      best = rule;
    }
  }
  return best === null || best.allow;
}
