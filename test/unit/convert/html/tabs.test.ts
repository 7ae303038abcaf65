import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../../src/convert/html/index.js';

const BASE = 'https://docs.example.com/guide';
const PROSE =
  '<p>This guide shows every supported way to install and call the client, one tab per tool or language, so that each reader finds the commands for their own setup quickly.</p>';
const md = (inner: string): string =>
  htmlToMarkdown(`<html><body><main><article>${PROSE}${inner}${PROSE}</article></main></body></html>`, BASE).markdown;

describe('tab sets', () => {
  it('pairs ARIA tabs with panels by position when nothing links them', () => {
    const out = md(
      '<div><ul role="tablist"><li role="tab">npm</li><li role="tab">Yarn</li></ul><div role="tabpanel"><pre><code>npm i x</code></pre></div><div role="tabpanel" hidden><pre><code>yarn add x</code></pre></div></div>',
    );
    expect(out).toContain('**npm**\n\n```\nnpm i x\n```\n\n**Yarn**\n\n```\nyarn add x\n```');
  });

  it('follows aria-controls over position', () => {
    const out = md(
      '<div><div role="tablist"><button role="tab" aria-controls="p2">Two</button><button role="tab" aria-controls="p1">One</button></div><div role="tabpanel" id="p1"><pre>first panel body</pre></div><div role="tabpanel" id="p2"><pre>second panel body</pre></div></div>',
    );
    expect(out).toContain('**One**\n\n```\nfirst panel body\n```\n\n**Two**\n\n```\nsecond panel body\n```');
  });

  it('keeps the panels of a "tablist" that wraps them, each named once by its tab', () => {
    const out = md(
      '<div role="tablist"><div class="strip"><a role="tab" href="#t1">Linux</a><a role="tab" href="#t2">Windows</a></div><div id="t1" role="tabpanel"><pre>apt install x</pre></div><div id="t2" role="tabpanel" hidden><pre>winget install x</pre></div></div>',
    );
    expect(out).toContain('**Linux**\n\n```\napt install x\n```\n\n**Windows**\n\n```\nwinget install x\n```');
    expect(out.match(/Linux/g)).toHaveLength(1);
  });

  it('leaves panels unlabelled when tabs and panels do not pair one to one', () => {
    const out = md(
      '<div><ul role="tablist"><li role="tab">A</li><li role="tab">B</li><li role="tab">C</li></ul><div role="tabpanel"><pre>only panel one</pre></div><div role="tabpanel"><pre>only panel two</pre></div></div>',
    );
    expect(out).toContain('```\nonly panel one\n```\n\n```\nonly panel two\n```');
    expect(out).not.toMatch(/\*\*[ABC]\*\*/);
  });

  it('labels nested tab sets with their own tabs', () => {
    const out = md(
      '<div><ul role="tablist"><li role="tab">Linux</li><li role="tab">macOS</li></ul>' +
        '<div role="tabpanel"><div><ul role="tablist"><li role="tab">x64</li><li role="tab">arm64</li></ul><div role="tabpanel"><pre>linux x64 build</pre></div><div role="tabpanel"><pre>linux arm64 build</pre></div></div></div>' +
        '<div role="tabpanel"><pre>universal mac build</pre></div></div>',
    );
    expect(out).toContain(
      '**Linux**\n\n**x64**\n\n```\nlinux x64 build\n```\n\n**arm64**\n\n```\nlinux arm64 build\n```\n\n**macOS**\n\n```\nuniversal mac build\n```',
    );
  });

  it('uses radio labels once, as panel titles, and ignores labels of other inputs', () => {
    const out = md(
      '<div class="sd-tab-set"><input type="radio" id="t1" name="s" checked><label for="t1">Debian</label><div class="sd-tab-content"><pre>apt install it</pre></div>' +
        '<input type="radio" id="t2" name="s"><label for="t2">Fedora</label><div class="sd-tab-content"><pre>dnf install it</pre></div></div>' +
        '<form><input type="checkbox" id="c1"><label for="c1">Remember me</label><div><pre>a form note</pre></div><input type="checkbox" id="c2"><label for="c2">Subscribe</label><div><pre>another note</pre></div></form>',
    );
    expect(out).toContain('**Debian**\n\n```\napt install it\n```\n\n**Fedora**\n\n```\ndnf install it\n```');
    expect(out.match(/Debian/g)).toHaveLength(1);
    expect(out).not.toContain('**Remember me**');
  });

  it('does not turn long "labels" into titles', () => {
    const long = 'x'.repeat(120);
    const out = md(
      `<div><ul role="tablist"><li role="tab">${long}</li><li role="tab">B</li></ul><div role="tabpanel"><pre>panel a</pre></div><div role="tabpanel"><pre>panel b</pre></div></div>`,
    );
    expect(out).not.toContain(`**${long}**`);
    expect(out).toContain('**B**\n\n```\npanel b\n```');
  });
});
