import { describe, expect, it } from 'vitest';
import { md } from './helpers.js';

describe('markdown writer: blocks', () => {
  it('writes ATX headings and drops empty ones', () => {
    expect(md('<h1>Title</h1><h3>Sub <em>part</em></h3><h2> </h2>')).toBe('# Title\n\n### Sub *part*\n');
  });

  it('writes custom elements standing among blocks as blocks, and keeps them inline in a line of text', () => {
    expect(md('<div><ds-copy>First point.</ds-copy><ds-copy>Second point.</ds-copy></div>')).toBe('First point.\n\nSecond point.\n');
    expect(md('<section><ds-qa><span>When?</span><ds-answer>Tomorrow.</ds-answer></ds-qa></section>')).toBe('When?\n\nTomorrow.\n');
    expect(md('<p>Posted <relative-time>3 days ago</relative-time> by Ana</p>')).toBe('Posted 3 days ago by Ana\n');
    expect(md('<div class="meta">Posted <relative-time>3 days ago</relative-time></div>')).toBe('Posted 3 days ago\n');
  });

  it('separates paragraphs by one blank line and never leaves runs of blank lines', () => {
    expect(md('<p>a</p>\n\n\n<p>b</p><div><div><p>c</p></div></div>')).toBe('a\n\nb\n\nc\n');
  });

  it('turns <br> into hard breaks and <br><br> into a paragraph break', () => {
    expect(md('<p>one<br>two<br><br>three</p>')).toBe('one  \ntwo\n\nthree\n');
  });

  it('writes nested lists with ordered start numbers', () => {
    const out = md('<ol start="4"><li>four<ul><li>x</li><li>y<ol><li>deep</li></ol></li></ul></li><li>five</li></ol>');
    expect(out).toBe('4. four\n   - x\n   - y\n     1. deep\n5. five\n');
  });

  it('keeps multi-paragraph list items inside the item', () => {
    expect(md('<ul><li><p>a</p><p>b</p></li><li>c</li></ul>')).toBe('- a\n\n  b\n- c\n');
  });

  it('writes blockquotes, nested ones included', () => {
    expect(md('<blockquote><p>q</p><blockquote><p>inner</p></blockquote></blockquote>')).toBe('> q\n>\n> > inner\n');
  });

  it('writes definition lists and details', () => {
    expect(md('<dl><dt>Term</dt><dd>Meaning</dd></dl>')).toBe('**Term**\n: Meaning\n');
    expect(md('<details><summary>More</summary><p>Hidden text</p></details>')).toBe('**More**\n\nHidden text\n');
  });

  it('writes a horizontal rule', () => {
    expect(md('<p>a</p><hr><p>b</p>')).toBe('a\n\n---\n\nb\n');
  });

  it('renders GFM task lists', () => {
    expect(md('<ul><li><input type="checkbox" checked> done</li><li><input type="checkbox"> todo</li></ul>')).toBe(
      '- [x] done\n- [ ] todo\n',
    );
  });
});

describe('markdown writer: code', () => {
  const cases: Array<[string, string, string]> = [
    ['language-x on code', '<pre><code class="language-rust">fn main() {}</code></pre>', 'rust'],
    ['lang-x (highlight.js)', '<pre><code class="hljs lang-python">x = 1</code></pre>', 'python'],
    ['highlight-x wrapper (Sphinx)', '<div class="highlight-yaml notranslate"><div class="highlight"><pre>a: 1</pre></div></div>', 'yaml'],
    ['highlight-source-x (GitHub)', '<div class="highlight highlight-source-go"><pre>package main</pre></div>', 'go'],
    ['data-lang (Rouge)', '<pre><code data-lang="ruby">puts 1</code></pre>', 'ruby'],
    ['brush: x (SyntaxHighlighter)', '<pre class="brush: js">var a;</pre>', 'js'],
    ['sourceCode x (pandoc)', '<pre class="sourceCode haskell"><code>main = pure ()</code></pre>', 'haskell'],
    ['lang="go" (GitLab)', '<pre lang="go"><code>package main</code></pre>', 'go'],
  ];
  for (const [name, html, lang] of cases) {
    it(`takes the language from ${name}`, () => {
      expect(md(html).startsWith(`\`\`\`${lang}\n`)).toBe(true);
    });
  }

  it('does not take a human language tag for a code language', () => {
    expect(md('<div lang="en"><pre>x</pre></div>')).toBe('```\nx\n```\n');
  });

  it('joins span-per-token highlighting without losing spaces or newlines', () => {
    const html =
      '<pre class="language-js"><code><span class="k">const</span> <span class="n">a</span> <span class="o">=</span> <span class="m">1</span>;\n<span class="k">let</span> b;</code></pre>';
    expect(md(html)).toBe('```js\nconst a = 1;\nlet b;\n```\n');
  });

  it('reads <br>-separated and div-per-line code', () => {
    expect(md('<pre>a<br>b<br>c</pre>')).toBe('```\na\nb\nc\n```\n');
    expect(md('<pre><div class="line">a</div><div class="line">  b</div></pre>')).toBe('```\na\n  b\n```\n');
    expect(md('<p><code>x<br>y</code></p>')).toBe('```\nx\ny\n```\n');
  });

  it('skips line-number gutters', () => {
    const html = '<pre><span class="linenos">1</span>a = 1\n<span class="linenos">2</span>b = 2</pre>';
    expect(md(html)).toBe('```\na = 1\nb = 2\n```\n');
  });

  it('uses a longer fence when the code contains one', () => {
    expect(md('<pre><code>```\ninner\n```</code></pre>')).toBe('````\n```\ninner\n```\n````\n');
  });

  it('keeps blank lines inside code blocks', () => {
    expect(md('<pre>a\n\n\n\nb</pre>')).toBe('```\na\n\n\n\nb\n```\n');
  });

  it('writes backtick-safe inline code', () => {
    expect(md('<p><code>a`b</code> and <code>`</code> and <code>x</code></p>')).toBe('``a`b`` and `` ` `` and `x`\n');
  });
});

describe('markdown writer: tables', () => {
  it('writes a table with thead', () => {
    expect(md('<table><thead><tr><th>A</th><th>B</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>')).toBe(
      '| A | B |\n| --- | --- |\n| 1 | 2 |\n',
    );
  });

  it('promotes the first row when there is no thead', () => {
    expect(md('<table><tr><td>x</td><td>y</td></tr><tr><td>1</td><td>2</td></tr></table>')).toBe('| x | y |\n| --- | --- |\n| 1 | 2 |\n');
  });

  it('escapes pipes and pads colspans', () => {
    expect(md('<table><tr><th>a</th><th>b</th><th>c</th></tr><tr><td colspan="2">x|y</td><td>z</td></tr></table>')).toBe(
      '| a | b | c |\n| --- | --- | --- |\n| x\\|y | | z |\n',
    );
  });

  it('unwraps layout tables', () => {
    expect(md('<table role="presentation"><tr><td><p>Left</p></td><td><p>Right</p></td></tr></table>')).toBe('Left\n\nRight\n');
    expect(md('<table><tr><td><h2>Head</h2><p>Body</p></td><td>side</td></tr><tr><td>a</td><td>b</td></tr></table>')).toBe(
      '## Head\n\nBody\n\nside\n\na\n\nb\n',
    );
  });
});

describe('markdown writer: inline', () => {
  it('makes links and images absolute', () => {
    expect(md('<p><a href="../x?y=1#z">link</a> <img src="/i.png" alt="pic"></p>')).toBe(
      '[link](https://example.com/x?y=1#z) ![pic](https://example.com/i.png)\n',
    );
  });

  it('picks the best srcset candidate and drops data: images', () => {
    expect(md('<img src="s.jpg" srcset="a.jpg 300w, b.jpg 900w, c.jpg 600w" alt="x">')).toBe('![x](https://example.com/docs/b.jpg)\n');
    expect(md('<img src="data:image/png;base64,AAAA" alt="x">')).toBe('');
    expect(md('<img src="data:image/gif;base64,R0" data-src="/real.jpg" alt="lazy">')).toBe('![lazy](https://example.com/real.jpg)\n');
  });

  it('drops javascript: links but keeps their text', () => {
    expect(md('<p><a href="javascript:alert(1)">click</a></p>')).toBe('click\n');
  });

  it('writes emphasis, strikethrough, sup and sub', () => {
    expect(md('<p><strong>b</strong> <em>i</em> <del>d</del> x<sup>2</sup> H<sub>2</sub>O</p>')).toBe(
      '**b** *i* ~~d~~ x<sup>2</sup> H<sub>2</sub>O\n',
    );
  });

  it('moves spaces and line breaks outside emphasis markers', () => {
    expect(md('<p>a<strong> b </strong>c</p>')).toBe('a **b** c\n');
    expect(md('<p><strong>Title<br></strong>Next line</p>')).toBe('**Title**  \nNext line\n');
  });

  it('writes MathML and KaTeX as TeX between dollars', () => {
    expect(md('<p>x <math><msup><mi>a</mi><mn>2</mn></msup></math></p>')).toBe('x $a^2$\n');
    const katex =
      '<p><span class="katex"><span class="katex-mathml"><math><semantics><mrow></mrow><annotation encoding="application/x-tex">\\alpha</annotation></semantics></math></span><span class="katex-html" aria-hidden="true">α</span></span></p>';
    expect(md(katex)).toBe('$\\alpha$\n');
    expect(md('<math display="block"><mfrac><mn>1</mn><mn>2</mn></mfrac></math>')).toBe('$$\n\\frac{1}{2}\n$$\n');
  });
});
