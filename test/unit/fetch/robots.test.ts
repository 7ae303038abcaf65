import { describe, expect, it } from 'vitest';
import { isAllowedByRobots, normalizePath, parseRobots, patternMatches, ROBOTS_MAX_BYTES } from '../../../src/fetch/robots.js';

type Case = [name: string, robots: string, path: string, allowed: boolean];

const G = (lines: string): string => lines.split('|').join('\n');

/** RFC 9309 behaviour for product token PithBot; each row: robots.txt, path+query, allowed? */
const CASES: Case[] = [
  // empty and trivial files
  ['empty file', '', '/', true],
  ['only comments', '# nothing here', '/x', true],
  ['disallow all for *', G('User-agent: *|Disallow: /'), '/', false],
  ['disallow all for * deep path', G('User-agent: *|Disallow: /'), '/a/b/c?d=e', false],
  ['empty disallow allows', G('User-agent: *|Disallow:'), '/anything', true],
  ['allow all explicit', G('User-agent: *|Allow: /'), '/x', true],
  ['rules before any user-agent are ignored', G('Disallow: /|User-agent: other|Disallow: /x'), '/y', true],
  ['robots.txt itself is always allowed', G('User-agent: *|Disallow: /'), '/robots.txt', true],
  // product-token group selection
  ['our group beats *', G('User-agent: *|Disallow: /|User-agent: PithBot|Allow: /'), '/page', true],
  ['our group disallow with * allow', G('User-agent: *|Allow: /|User-agent: PithBot|Disallow: /'), '/page', false],
  ['token is case-insensitive', G('User-agent: pithbot|Disallow: /'), '/x', false],
  ['token upper case', G('User-agent: PITHBOT|Disallow: /'), '/x', false],
  ['token with version suffix', G('User-agent: PithBot/1.0|Disallow: /'), '/x', false],
  ['other bot group does not apply', G('User-agent: Googlebot|Disallow: /'), '/x', true],
  ['prefix of our token does not match', G('User-agent: Pith|Disallow: /'), '/x', true],
  ['longer token does not match', G('User-agent: PithBotExtra|Disallow: /'), '/x', true],
  ['our group only: * rules not merged', G('User-agent: *|Disallow: /private|User-agent: PithBot|Disallow: /other'), '/private', true],
  ['falls back to * when no group for us', G('User-agent: Googlebot|Allow: /|User-agent: *|Disallow: /g'), '/g/x', false],
  ['several user-agent lines share one group', G('User-agent: a|User-agent: PithBot|User-agent: b|Disallow: /shared'), '/shared/1', false],
  [
    'groups for us are merged',
    G('User-agent: PithBot|Disallow: /a|User-agent: x|Disallow: /|User-agent: PithBot|Disallow: /b'),
    '/b',
    false,
  ],
  [
    'merged groups keep the first too',
    G('User-agent: PithBot|Disallow: /a|User-agent: x|Disallow: /|User-agent: PithBot|Disallow: /b'),
    '/a',
    false,
  ],
  ['merged groups allow the rest', G('User-agent: PithBot|Disallow: /a|User-agent: PithBot|Disallow: /b'), '/c', true],
  ['* groups merged', G('User-agent: *|Disallow: /a|User-agent: *|Disallow: /b'), '/b/1', false],
  ['group ends at next user-agent after rules', G('User-agent: PithBot|Disallow: /x|User-agent: other|Disallow: /y'), '/y', true],
  ['sitemap line does not break a group', G('User-agent: PithBot|Sitemap: https://e.com/s.xml|Disallow: /x'), '/x', false],
  ['unknown keys are ignored', G('User-agent: PithBot|Crawl-delay: 10|Disallow: /x'), '/x', false],
  ['blank lines inside a group are fine', G('User-agent: PithBot||Disallow: /x'), '/x', false],
  // longest match, allow wins ties
  ['longer allow beats shorter disallow', G('User-agent: *|Disallow: /a|Allow: /a/b'), '/a/b/c', true],
  ['longer disallow beats shorter allow', G('User-agent: *|Allow: /a|Disallow: /a/b'), '/a/b/c', false],
  ['shorter rule applies outside the longer', G('User-agent: *|Allow: /a|Disallow: /a/b'), '/a/c', true],
  ['allow wins an exact tie', G('User-agent: *|Disallow: /page|Allow: /page'), '/page', true],
  ['allow wins a tie regardless of order', G('User-agent: *|Allow: /page|Disallow: /page'), '/page', true],
  ['order does not matter for longest', G('User-agent: *|Allow: /a/b|Disallow: /a'), '/a/b', true],
  ['allow / with disallow deeper', G('User-agent: *|Allow: /|Disallow: /admin'), '/admin/x', false],
  ['match is a prefix match', G('User-agent: *|Disallow: /fish'), '/fish.html', false],
  ['prefix does not match elsewhere', G('User-agent: *|Disallow: /fish'), '/Fish.asp', true],
  ['paths are case-sensitive', G('User-agent: *|Disallow: /Fish'), '/fish', true],
  ['directory rule vs file', G('User-agent: *|Disallow: /fish/'), '/fish', true],
  ['directory rule matches inside', G('User-agent: *|Disallow: /fish/'), '/fish/salmon.htm', false],
  ['query is part of the path', G('User-agent: *|Disallow: /search?q='), '/search?q=cats', false],
  ['query rule does not block bare path', G('User-agent: *|Disallow: /search?q='), '/search', true],
  // wildcards
  ['* in the middle', G('User-agent: *|Disallow: /*.php'), '/index.php', false],
  ['* in the middle deep', G('User-agent: *|Disallow: /*.php'), '/folder/file.php?x=1', false],
  ['* does not invent characters', G('User-agent: *|Disallow: /*.php'), '/windows.PHP', true],
  ['trailing * is redundant', G('User-agent: *|Disallow: /fish*'), '/fishheads', false],
  ['leading * pattern', G('User-agent: *|Disallow: *.gif'), '/img/a.gif', false],
  ['many stars', G('User-agent: *|Disallow: /*/*/*.pdf'), '/a/b/c.pdf', false],
  ['many stars not enough segments', G('User-agent: *|Disallow: /*/*/*.pdf'), '/a.pdf', true],
  ['$ anchors the end', G('User-agent: *|Disallow: /*.php$'), '/filename.php', false],
  ['$ anchors: query breaks it', G('User-agent: *|Disallow: /*.php$'), '/filename.php?parameters', true],
  ['$ anchors: longer path breaks it', G('User-agent: *|Disallow: /*.php$'), '/filename.php/', true],
  ['exact $ on root', G('User-agent: *|Disallow: /$'), '/', false],
  ['exact $ on root leaves others', G('User-agent: *|Disallow: /$'), '/page', true],
  ['allow with $ beats disallow', G('User-agent: *|Disallow: /|Allow: /$'), '/', true],
  ['allow with $ only for root', G('User-agent: *|Disallow: /|Allow: /$'), '/x', false],
  ['$ in the middle is literal', G('User-agent: *|Disallow: /a$b'), '/a$b/c', false],
  ['wildcard length counts for specificity', G('User-agent: *|Allow: /*/public|Disallow: /dir'), '/dir/public', true],
  // percent-encoding
  ['encoded unreserved in rule', G('User-agent: *|Disallow: /%7Ejoe'), '/~joe/index.html', false],
  ['encoded unreserved in path', G('User-agent: *|Disallow: /~joe'), '/%7ejoe/index.html', false],
  ['non-ASCII rule vs encoded path', G('User-agent: *|Disallow: /foo/bär'), '/foo/b%C3%A4r', false],
  ['encoded rule vs non-ASCII path', G('User-agent: *|Disallow: /foo/b%C3%A4r'), '/foo/bär', false],
  ['hex case is normalised', G('User-agent: *|Disallow: /a%2fb'), '/a%2Fb', false],
  ['reserved %2F is not a slash', G('User-agent: *|Disallow: /a/b'), '/a%2Fb', true],
  ['encoded letter decoded', G('User-agent: *|Disallow: /abc'), '/%61bc', false],
  // syntax tolerance
  ['comments after values', G('User-agent: PithBot # us|Disallow: /x # secret'), '/x', false],
  ['CRLF line endings', 'User-agent: *\r\nDisallow: /x\r\n', '/x', false],
  ['CR line endings', 'User-agent: *\rDisallow: /x\r', '/x', false],
  ['keys are case-insensitive', G('USER-AGENT: *|DISALLOW: /x'), '/x', false],
  ['spaces around colon', G('User-agent : * |Disallow :   /x'), '/x', false],
  ['lines without colon ignored', G('User-agent: *|garbage line|Disallow: /x'), '/x', false],
  ['BOM-free junk before', G('<html>|User-agent: *|Disallow: /x'), '/x', false],
  ['HTML served as robots allows all', '<!doctype html><html><body>Not found</body></html>', '/x', true],
  ['a UTF-8 BOM before the first line is ignored', '\uFEFFUser-agent: *\nDisallow: /x', '/x', false],
  ['user agent spelled with a space', G('User agent: PithBot|Disallow: /x'), '/x', false],
  ['empty path means /', G('User-agent: *|Disallow: /$'), '', false],
];

describe('robots.txt (RFC 9309) table', () => {
  it('has at least 60 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
  });

  it.each(CASES)('%s', (_name, robots, path, allowed) => {
    expect(isAllowedByRobots(parseRobots(robots), path)).toBe(allowed);
  });
});

describe('robots helpers', () => {
  it('normalises percent-encoding', () => {
    expect(normalizePath('/%7ejoe')).toBe('/~joe');
    expect(normalizePath('/a%2fb')).toBe('/a%2Fb');
    expect(normalizePath('/bär')).toBe('/b%C3%A4r');
    expect(normalizePath('/a b')).toBe('/a%20b');
    expect(normalizePath('/100%')).toBe('/100%');
  });

  it('matches patterns without catastrophic backtracking', () => {
    const pattern = `/${'*a'.repeat(200)}b`;
    const path = `/${'a'.repeat(5000)}`;
    const started = Date.now();
    expect(patternMatches(pattern, path)).toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('only parses the first 500 KiB', () => {
    const filler = `# ${'x'.repeat(ROBOTS_MAX_BYTES)}\n`;
    expect(isAllowedByRobots(parseRobots(`User-agent: *\n${filler}Disallow: /late\n`), '/late')).toBe(true);
    expect(isAllowedByRobots(parseRobots(`User-agent: *\nDisallow: /early\n${filler}`), '/early')).toBe(false);
  });

  it('policies are plain JSON (cacheable)', () => {
    const policy = parseRobots('User-agent: *\nDisallow: /x\n');
    expect(JSON.parse(JSON.stringify(policy))).toEqual(policy);
    expect(parseRobots('')).toEqual({ kind: 'allow-all' });
  });
});
