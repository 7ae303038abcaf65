import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../helpers/service.js';
import { startService } from '../../helpers/service.js';
import { pith } from './cli-helpers.js';
import type { FixtureSite } from './fixtures.js';
import { startFixtureSite } from './fixtures.js';
import { seedPlanUsage } from '../../helpers/seed.js';

const LOOPBACK = { ALLOW_PRIVATE_TARGETS: '127.0.0.1/32' };

describe('pith read | score | map | extract', { timeout: 120_000 }, () => {
  let site: FixtureSite;
  let svc: TestService;
  let apiKey: string;

  beforeAll(async () => {
    site = await startFixtureSite();
    svc = await startService();
    apiKey = (await svc.newAccount('starter')).apiKey;
  });
  afterAll(async () => {
    await site.close();
    await svc.close();
  });

  it('reads a page with the local engine: Markdown on stdout, progress on stderr', async () => {
    const run = await pith(['read', `${site.origin}/article.html`], LOOPBACK);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('## Why Markdown');
    expect(run.stdout).toContain('| free | 1000 |');
    expect(run.stderr).toContain('pith: reading');
    expect(run.stderr).toMatch(/KB → .* KB/);
  });

  it('prints the read JSON with --json and nothing on stderr with --quiet', async () => {
    const run = await pith(['read', '--json', `${site.origin}/article.html`, '--quiet'], LOOPBACK);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const body = JSON.parse(run.stdout);
    expect(body).toMatchObject({ status: 'success', metadata: { title: 'Pith fixture article', language: 'en' }, cache: { hit: false } });
    expect(body.markdown).toContain('## Why Markdown');
  });

  it('read options: --target, --format, --links locally; --whole-page, --remove, --format html through a server', async () => {
    const local = await pith(['read', `${site.origin}/article.html`, '--target', 'table, ul', '--format', 'text', '--links'], LOOPBACK);
    expect(local.code).toBe(0);
    expect(local.stdout).toContain('- It is compact.');
    expect(local.stdout).toContain('free\t1000');
    expect(local.stdout).not.toContain('Pith turns');
    expect(local.stderr).toMatch(/\d+ tokens\)/);
    const linked = await pith(['read', '--links', `${site.origin}/article.html`], LOOPBACK);
    expect(linked.stdout).toContain(`- ${site.origin}/docs/two.html  the second page`);
    const remote = await pith([
      'read',
      `${site.origin}/article.html`,
      '--whole-page',
      '--remove',
      'table',
      '--format',
      'html',
      '--remote',
      svc.baseUrl,
      '--key',
      apiKey,
    ]);
    expect(remote.code).toBe(0);
    expect(remote.stdout).toContain(`<a href="${site.origin}/docs/one.html">One</a>`);
    expect(remote.stdout).not.toContain('<table>');
    const bad = await pith(['read', `${site.origin}/article.html`, '--format', 'pdf'], LOOPBACK);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--format takes markdown|html|text');
  });

  it('--keep-hidden keeps text styled to be invisible, locally and through a server', async () => {
    const plain = await pith(['read', `${site.origin}/hidden.html`], LOOPBACK);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('Tickets are sold on board');
    expect(plain.stdout).not.toContain('no reader of this page can see');
    // a switch: the URL after it is not its value
    const kept = await pith(['read', '--keep-hidden', `${site.origin}/hidden.html`], LOOPBACK);
    expect(kept.code).toBe(0);
    expect(kept.stdout).toContain('no reader of this page can see');
    const remote = await pith(['read', `${site.origin}/hidden.html`, '--keep-hidden', '--remote', svc.baseUrl, '--key', apiKey]);
    expect(remote.code).toBe(0);
    expect(remote.stdout).toContain('no reader of this page can see');
  });

  it('keeps the SSRF guard locally: a loopback target is refused without the test escape hatch', async () => {
    const run = await pith(['read', `${site.origin}/article.html`]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('error INVALID_URL (400)');
  });

  it('exits 1 with the error code when the target fails, and 2 on usage errors', async () => {
    const missing = await pith(['read', `${site.origin}/missing`], LOOPBACK);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('error URL_NOT_FOUND (404)');
    const noUrl = await pith(['read']);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('missing <url>');
    const twoUrls = await pith(['map', `${site.origin}/a.html`, `${site.origin}/b.html`]);
    expect(twoUrls.code).toBe(2);
    expect(twoUrls.stderr).toContain('takes one <url>');
    const noKey = await pith(['extract', `${site.origin}/article.html`, '--remote', svc.baseUrl], { PITH_API_KEY: undefined });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('--key');
  });

  it('--render: the flag before the URL takes no value; RENDER=off makes --render fail with RENDER_UNAVAILABLE', async () => {
    const off = { ...LOOPBACK, RENDER: 'off' };
    const forced = await pith(['read', '--render', `${site.origin}/article.html`], off);
    expect(forced.code).toBe(1);
    expect(forced.stderr).toContain('error RENDER_UNAVAILABLE (503)');
    const never = await pith(['read', '--render=false', '--json', `${site.origin}/article.html`], off);
    expect(never.code).toBe(0);
    expect(JSON.parse(never.stdout).stats.rendered).toBe(false);
    const remote = await pith(['read', `${site.origin}/article.html`, '--render', '--remote', svc.baseUrl, '--key', apiKey]);
    expect(remote.code).toBe(1);
    expect(remote.stderr).toContain('error RENDER_UNAVAILABLE (503)'); // the test service has no browser
  });

  it('reads through a server with --remote and --key, with billing on stderr', async () => {
    const run = await pith(['read', `${site.origin}/article.html`, '--remote', svc.baseUrl, '--key', apiKey]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('## Why Markdown');
    expect(run.stderr).toContain('billed to plan');
    const json = await pith(['read', `${site.origin}/article.html`, '--json', '--remote', svc.baseUrl], { PITH_API_KEY: apiKey });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ status: 'success', cache: { hit: true }, billing: { cache: 'HIT', billed: 'plan' } });
  });

  it('reports remote errors with code and request id; exit 3 when the server cannot be reached', async () => {
    const bad = await pith(['read', `${site.origin}/article.html`, '--remote', svc.baseUrl, '--key', 'pk_wrong']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/error UNAUTHORIZED \(401\): .*\[request req_/);
    const down = await pith(['read', `${site.origin}/article.html`, '--remote', 'http://127.0.0.1:9', '--key', apiKey]);
    expect(down.code).toBe(3);
    expect(down.stderr).toContain('error CONNECTION_ERROR');
  });

  it('scores a page locally and remotely: grade, then one line per check', async () => {
    const local = await pith(['score', `${site.origin}/article.html`], LOOPBACK);
    expect(local.code, local.stderr).toBe(0);
    expect(local.stdout).toMatch(/: \d+\/100 \([A-F]\)\n/);
    expect(local.stdout).toMatch(/^ {2}(PASS|FAIL) /m);
    const remote = await pith(['score', `${site.origin}/article.html`, '--json', '--remote', svc.baseUrl, '--key', apiKey]);
    expect(remote.code, remote.stderr).toBe(0);
    expect(JSON.parse(remote.stdout).score.grade).toMatch(/^[A-F]$/);
  });

  it('maps and extracts locally and through a server', async () => {
    const localMap = await pith(['map', `${site.origin}/article.html`, '--limit', '10'], LOOPBACK);
    expect(localMap.code, localMap.stderr).toBe(0);
    expect(localMap.stdout.split('\n')).toContain(`${site.origin}/docs/one.html`);
    expect(localMap.stderr).toMatch(/pith: \d+ links/);
    const remoteMap = await pith([
      'map',
      `${site.origin}/article.html`,
      '--remote',
      svc.baseUrl,
      '--key',
      apiKey,
      '--limit',
      '10',
      '--json',
    ]);
    expect(remoteMap.code, remoteMap.stderr).toBe(0);
    expect(JSON.parse(remoteMap.stdout).links.map((l: { url: string }) => l.url)).toContain(`${site.origin}/docs/one.html`);

    const localExtract = await pith(['extract', `${site.origin}/article.html`], LOOPBACK);
    expect(localExtract.code, localExtract.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(localExtract.stdout).json_ld)).toContain('Pith fixture article');
    const remoteExtract = await pith(['extract', `${site.origin}/article.html`, '--remote', svc.baseUrl, '--key', apiKey]);
    expect(remoteExtract.code, remoteExtract.stderr).toBe(0);
    expect(JSON.parse(remoteExtract.stdout)).toEqual(JSON.parse(localExtract.stdout));
  });

  it('exits 4 on a quota limit (Free account out of credits: RATE_LIMITED, not retried)', async () => {
    const { apiKey: freeKey, accountId } = await svc.newAccount('free');
    await seedPlanUsage(svc, accountId, 'free', 1000);
    const run = await pith(['read', `${site.origin}/article.html`, '--remote', svc.baseUrl, '--key', freeKey]);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('error RATE_LIMITED (429)');
  });
});
