import { describe, expect, it } from 'vitest';
import type { Warning } from '../../../src/convert/types.js';
import { isScriptHeavy, scriptCensus, staticResultNeedsRender } from '../../../src/render/needs-render.js';

const html = (s: string): Buffer => Buffer.from(s, 'utf8');
const LOW: Warning[] = [{ code: 'LOW_CONTENT', message: 'short' }];

describe('render: "auto" decision', () => {
  it('counts script elements, inline bytes and module scripts, not look-alikes', () => {
    const c = scriptCensus(
      html(
        '<SCRIPT src="/a.js"></SCRIPT><script type="module" src="/app.js"></script><script>var x = 1;</script><scripts>no</scripts><script-x></script-x>',
      ),
    );
    expect(c).toMatchObject({ scripts: 3, modules: 1, inlineBytes: 'var x = 1;'.length });
  });

  it('JS_SHELL always renders; LOW_CONTENT only on script-heavy markup; nothing else renders', () => {
    expect(staticResultNeedsRender([{ code: 'JS_SHELL', message: '' }], html('<p>x</p>'))).toBe(true);
    expect(staticResultNeedsRender(LOW, html('<p>A short page.</p><script src="/ga.js"></script>'))).toBe(false);
    expect(staticResultNeedsRender(LOW, html(`<div id="app"></div>${'<script src="/c.js"></script>'.repeat(5)}`))).toBe(true);
    expect(staticResultNeedsRender(LOW, html('<div id="app"></div><script type="module" src="/main.js"></script>'))).toBe(true);
    expect(staticResultNeedsRender(LOW, html(`<p>hi</p><script>${'window.__STATE__ = {};'.repeat(50)}</script>`))).toBe(true);
    expect(staticResultNeedsRender([], html(`${'<script src="/c.js"></script>'.repeat(9)}<p>long article</p>`))).toBe(false);
  });

  it('a page without scripts is never script-heavy; an unclosed script counts to the end', () => {
    expect(isScriptHeavy(html('<p>plain</p>'))).toBe(false);
    expect(scriptCensus(html('<p>a</p><script>let x = 1')).inlineBytes).toBe('let x = 1'.length);
  });

  it('stays linear on hostile markup (no regex, one pass)', () => {
    const hostile = html('<script'.repeat(200_000));
    const started = performance.now();
    scriptCensus(hostile);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
