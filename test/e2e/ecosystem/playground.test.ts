import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { chromium } from 'playwright-core';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestService } from '../../helpers/service.js';
import { startService } from '../../helpers/service.js';
import type { FixtureSite } from './fixtures.js';
import { startFixtureSite } from './fixtures.js';

/**
 * The playground and the docs page in a real browser: Debian's chromium driven by
 * playwright-core (never a downloaded browser). `UPDATE_SCREENSHOTS=1` refreshes
 * docs/img/playground.png.
 */
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const SCREENSHOT = fileURLToPath(new URL('../../../docs/img/playground.png', import.meta.url));
const SDK_SRC = fileURLToPath(new URL('../../../packages/sdk/src/', import.meta.url));

/** The SDK's modules as the browser gets them: TypeScript transpiled to ES2022, nothing bundled in. */
function sdkModules(): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(SDK_SRC).filter((f) => f.endsWith('.ts'))) {
    const { outputText } = ts.transpileModule(readFileSync(join(SDK_SRC, name), 'utf8'), {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022 },
    });
    out.set(name.replace(/\.ts$/, '.js'), outputText);
  }
  return out;
}

const haveChromium = existsSync(CHROMIUM);
if (!haveChromium && !process.env.CI) {
  console.warn(`playground browser test skipped: ${CHROMIUM} is missing (install it with scripts/install-system-deps.sh)`);
}

describe.skipIf(!haveChromium && !process.env.CI)('playground and docs page in Chromium', { timeout: 120_000 }, () => {
  let svc: TestService;
  let site: FixtureSite;
  let context: BrowserContext;
  let profile: string;
  const pageErrors: string[] = [];
  const outsideRequests: string[] = [];

  beforeAll(async () => {
    site = await startFixtureSite();
    svc = await startService();
    profile = mkdtempSync(join(tmpdir(), 'pith-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: FLAGS,
      viewport: { width: 1280, height: 900 },
    });
    context.on('page', (page) => {
      page.on('pageerror', (err) => pageErrors.push(`pageerror: ${err.message}`));
      page.on('console', (msg) => {
        if (msg.type() === 'error') pageErrors.push(`console: ${msg.text()}`);
      });
      page.on('request', (req) => {
        const url = req.url();
        if (!url.startsWith(svc.baseUrl) && !url.startsWith('data:') && !url.startsWith('blob:') && url !== 'about:blank')
          outsideRequests.push(url);
      });
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await svc?.close();
    await site?.close();
  });

  it('reads a local page: rendered and raw Markdown, stats, billing and cache headers, no JS errors', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const page = await context.newPage();
    await page.goto(`${svc.baseUrl}/`);
    await page.fill('#url', `${site.origin}/article.html`);
    await page.fill('#key', apiKey);
    await page.click('#read');
    await page.waitForSelector('#result:not([hidden])');

    expect(await page.textContent('#rendered h2')).toBe('Why Markdown');
    expect(await page.locator('#rendered table td').first().textContent()).toBe('free');
    expect(await page.locator('#rendered a').first().getAttribute('href')).toBe(`${site.origin}/docs/two.html`);
    const raw = await page.textContent('#raw');
    expect(raw).toContain('## Why Markdown');
    expect(raw).toContain('| free | 1000 |');

    const headers = await page.textContent('#headers');
    expect(headers).toContain('cacheMISS');
    expect(headers).toContain('billed toplan');
    expect(headers).toContain('plan credits left9999');
    expect(headers).toMatch(/request idreq_/);
    expect(await page.textContent('#metadata')).toContain('Pith fixture article');
    expect(await page.textContent('#stats')).toMatch(/markdown\d+(\.\d+)? KB/);
    expect(await page.textContent('#status')).toContain('fetched');

    // a second read comes from the cache, and the page says so
    await page.click('#read');
    // a locator wait, not waitForFunction: the page's CSP forbids eval, which a string
    // predicate needs whenever the first check fails and Playwright starts polling
    await page.locator('#status', { hasText: 'from the cache' }).waitFor();
    expect(await page.textContent('#headers')).toContain('cacheHIT');

    const shot = join(profile, 'playground.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(existsSync(shot)).toBe(true);
    if (process.env.UPDATE_SCREENSHOTS) {
      mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
      copyFileSync(shot, SCREENSHOT);
    }
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it('the options row steers the read: only a part, as text, with its links; tokens in the stats', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const page = await context.newPage();
    await page.goto(`${svc.baseUrl}/`);
    await page.fill('#url', `${site.origin}/article.html`);
    await page.fill('#key', apiKey);
    await page.fill('#target', 'table, p');
    await page.selectOption('#format', 'text');
    await page.check('#links');
    await page.click('#read');
    await page.waitForSelector('#result:not([hidden])');
    const raw = await page.textContent('#raw');
    expect(raw).toContain('free\t1000');
    expect(raw).not.toContain('It is compact');
    expect(await page.textContent('#raw-title')).toBe('Text');
    expect(await page.textContent('#metadata')).toContain('1 in the content');
    expect(await page.textContent('#stats')).toMatch(/tokens\d+ \(o200k\)/);
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it('the options row sends image_mode, images, link_mode, clean_urls and keep_hidden', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const page = await context.newPage();
    const sent: Array<Record<string, unknown>> = [];
    page.on('request', (req) => {
      if (req.url().endsWith('/v1/read')) sent.push(req.postDataJSON() as Record<string, unknown>);
    });
    await page.goto(`${svc.baseUrl}/`);
    await page.fill('#url', `${site.origin}/figure.html`);
    await page.fill('#key', apiKey);
    await page.selectOption('#image-mode', 'alt');
    await page.check('#image-list');
    await page.selectOption('#link-mode', 'references');
    await page.check('#raw-urls');
    await page.check('#keep-hidden');
    await page.click('#read');
    await page.waitForSelector('#result:not([hidden])');
    expect(sent.at(-1)).toMatchObject({ image_mode: 'alt', images: true, link_mode: 'references', clean_urls: false, keep_hidden: true });
    // image_mode alt: the alt text instead of the image; the list names the image without loading it
    const raw = await page.textContent('#raw');
    expect(raw).toContain('Pages per second chart');
    expect(raw).not.toContain('![');
    expect(await page.locator('#rendered img').count()).toBe(0);
    expect(await page.textContent('#metadata')).toContain('1 in the content');
    expect(await page.textContent('#rendered ol.images')).toContain(`Pages per second chart — ${site.origin}/pixel.png`);
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it('shows the warnings of a JavaScript shell page', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const page = await context.newPage();
    await page.goto(`${svc.baseUrl}/?url=${encodeURIComponent(`${site.origin}/shell.html`)}`);
    expect(await page.inputValue('#url')).toBe(`${site.origin}/shell.html`);
    await page.fill('#key', apiKey);
    await page.click('#read');
    await page.waitForSelector('#warnings:not([hidden])');
    expect(await page.textContent('#warning-list')).toContain('JS_SHELL: the page looks like a JavaScript shell');
    expect(await page.textContent('#metadata')).toContain('Shell app');
    await page.close();
    expect(pageErrors).toEqual([]);
  });

  it('loads no remote image until the user asks for images', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const page = await context.newPage();
    await page.goto(`${svc.baseUrl}/`);
    await page.fill('#url', `${site.origin}/figure.html`);
    await page.fill('#key', apiKey);
    await page.click('#read');
    await page.waitForSelector('#result:not([hidden])');
    expect(await page.textContent('#rendered .image-placeholder')).toBe('[image: Pages per second chart]');
    expect(await page.locator('#rendered img').count()).toBe(0);
    expect(await page.textContent('#raw')).toContain(`![Pages per second chart](${site.origin}/pixel.png)`);
    expect(site.pixelHits()).toBe(0);
    expect(outsideRequests).not.toContain(`${site.origin}/pixel.png`);

    const loaded = page.waitForRequest(`${site.origin}/pixel.png`);
    await page.check('#images');
    await loaded;
    expect(await page.locator('#rendered img').getAttribute('src')).toBe(`${site.origin}/pixel.png`);
    expect(site.pixelHits()).toBe(1);
    await page.close();
    // the one load the user asked for is not a leak for the other tests' check
    outsideRequests.splice(0, outsideRequests.length, ...outsideRequests.filter((u) => u !== `${site.origin}/pixel.png`));
  });

  it('shows the error code and request id when the key is wrong', async () => {
    const page = await context.newPage();
    await page.goto(`${svc.baseUrl}/`);
    await page.fill('#url', `${site.origin}/article.html`);
    await page.fill('#key', 'pk_wrong');
    await page.click('#read');
    await page.waitForSelector('#error:not([hidden])');
    expect(await page.textContent('#error-code')).toBe('UNAUTHORIZED');
    expect(await page.textContent('#error-request')).toMatch(/^req_/);
    await page.close();
    // the 401 itself is logged by Chromium as a failed resource; anything else is a bug
    expect(pageErrors.filter((e) => !e.includes('401'))).toEqual([]);
  });

  it('runs @pith/sdk in the browser: read with billing, typed errors', async () => {
    const { apiKey } = await svc.newAccount('starter');
    const modules = sdkModules();
    const page = await context.newPage();
    await page.route(`${svc.baseUrl}/sdk-under-test/*`, (route) => {
      const name = new URL(route.request().url()).pathname.split('/').pop() ?? '';
      const body = modules.get(name);
      return body === undefined ? route.fulfill({ status: 404 }) : route.fulfill({ status: 200, contentType: 'text/javascript', body });
    });
    await page.goto(`${svc.baseUrl}/docs`);
    // a string, not a function: the test runner would rewrite a function's import()
    const script = `(async () => {
      const sdk = await import('/sdk-under-test/index.js');
      const client = new sdk.PithClient({ baseUrl: location.origin, apiKey: ${JSON.stringify(apiKey)} });
      const read = await client.read(${JSON.stringify(`${site.origin}/article.html`)});
      const failure = await new sdk.PithClient({ baseUrl: location.origin, apiKey: 'pk_wrong' }).usage().catch((e) => e);
      return {
        markdown: read.markdown,
        billed: read.billing.billed,
        errorIsTyped: failure instanceof sdk.UnauthorizedError && failure instanceof sdk.PithError,
        errorCode: failure.code,
      };
    })()`;
    const result = (await page.evaluate(script)) as { markdown: string; billed: string | null; errorIsTyped: boolean; errorCode: string };
    expect(result.markdown).toContain('## Why Markdown');
    expect(result.billed).toBe('plan');
    expect(result.errorIsTyped).toBe(true);
    expect(result.errorCode).toBe('UNAUTHORIZED');
    await page.close();
  });

  it('renders the API reference at /docs from /openapi.json with nothing loaded from outside', async () => {
    const page = await context.newPage();
    await page.goto(`${svc.baseUrl}/docs`);
    await page.waitForSelector('text=pith read service', { timeout: 20_000 });
    const html = await page.content();
    expect(html).toContain('/v1/read');
    expect(html).toContain('CONCURRENT_LIMIT');
    await page.close();
    expect(outsideRequests).toEqual([]);
  });
});
