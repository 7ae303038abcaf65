import type { Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { findFirst, parseHtml } from '../../../../src/convert/html/dom.js';
import { htmlToMarkdown } from '../../../../src/convert/html/index.js';
import {
  FLAG_CLEAN_CONDITIONALLY,
  FLAG_STRIP_UNLIKELYS,
  FLAG_WEIGHT_CLASSES,
  extractMainContent,
} from '../../../../src/convert/html/main-content.js';
import { prepareDocument } from '../../../../src/convert/html/prepare.js';

const P = (n: number, word = 'story'): string =>
  Array.from(
    { length: n },
    (_, i) => `<p>Paragraph ${i} of the ${word}, with enough words in it, and commas, to count as real prose for scoring purposes.</p>`,
  ).join('');

/** A story's URL: a site's root would be read as a home page (page-type.ts), and these tests are about stories. */
const STORY_URL = 'https://x.test/2024/05/the-story';

function extract(html: string, flags?: number) {
  const doc = parseHtml(html);
  prepareDocument(doc);
  return extractMainContent(findFirst(doc, 'body') as Element, flags === undefined ? {} : { flags });
}

describe('main content', () => {
  it('picks the article over navigation, sidebars and footers', () => {
    const html = `<body><nav>${'<a href="/x">Section link</a>'.repeat(30)}</nav><div class="sidebar">${P(2, 'sidebar')}</div>
      <div class="article-body">${P(6)}</div><footer>${P(1, 'footer')}</footer></body>`;
    const out = htmlToMarkdown(html, STORY_URL).markdown;
    expect(out).toContain('Paragraph 5 of the story');
    expect(out).not.toContain('Section link');
    expect(out).not.toContain('sidebar');
    expect(out).not.toContain('footer');
  });

  it('removes share bars, newsletter boxes and "Advertisement" labels inside the article', () => {
    const html = `<body><article>${P(3)}<div class="share-buttons"><a href="#">Share on X</a></div><div>Advertisement</div>
      <div class="newsletter-signup"><p>Sign up for our newsletter</p></div>${P(2, 'ending')}</article></body>`;
    const out = htmlToMarkdown(html, STORY_URL).markdown;
    expect(out).not.toMatch(/Share on X|Advertisement|newsletter/);
    expect(out).toContain('Paragraph 1 of the ending');
  });

  it('drops a heading that repeats the title, keeps other headings', () => {
    const html = `<head><title>My headline | Site</title></head><body><article><h1>My headline</h1>${P(3)}<h2>Second part</h2>${P(3)}</article></body>`;
    const out = htmlToMarkdown(html, STORY_URL).markdown;
    expect(out).not.toContain('# My headline');
    expect(out).toContain('## Second part');
  });

  it('keeps repeated author lines of a thread but drops a single article byline', () => {
    const post = (n: number) =>
      `<div class="post"><div class="author">user${n}</div><p>Post number ${n} says something useful, with details, and more words to count.</p></div>`;
    const thread = htmlToMarkdown(`<body><div id="thread">${[1, 2, 3, 4].map(post).join('')}</div></body>`, 'https://x.test/').markdown;
    expect(thread).toContain('user1');
    expect(thread).toContain('user4');
    const byline = `<body><article><p class="byline">By Jo Bloggs</p>${P(4)}</article></body>`;
    const withMeta = htmlToMarkdown(`<head><meta name="author" content="Jo Bloggs"></head>${byline}`, STORY_URL).markdown;
    expect(withMeta).not.toContain('Jo Bloggs');
    // Without an author in the metadata the byline is the only place that names them: keep it.
    expect(htmlToMarkdown(byline, STORY_URL).markdown).toContain('By Jo Bloggs');
  });

  it('reports its attempts and climbs the ladder when the first rung finds too little', () => {
    // Everything sits in an "unlikely" container; only later rungs find it.
    const r = extract(
      `<body><div class="comments">${P(6)}</div><div class="sidebar">${P(6, 'x')}</div><div class="menu">${P(6, 'y')}</div></body>`,
    );
    expect(r.attempts.length).toBeGreaterThan(1);
    expect(r.attempts[0]?.flags).toBe(FLAG_STRIP_UNLIKELYS | FLAG_WEIGHT_CLASSES | FLAG_CLEAN_CONDITIONALLY);
    expect(r.textLength).toBeGreaterThan(500);
  });

  it('leaves out reader comments that hold most of the page; a discussion board named comments stays', () => {
    const comment = (n: number, word: string, cls = 'comment') =>
      `<li class="${cls} even thread-even depth-1" id="li-${cls}-${n}"><article id="${cls}-${n}" class="${cls}"><footer class="${cls}-meta"><span class="${cls}-name">reader${n}</span></footer>` +
      `<div class="${cls}-content"><p>Comment ${n} on the ${word}, which I read twice, and I have thoughts, many of them, about the second half.</p>` +
      `<p>Also, a second paragraph of comment ${n}, because readers write long, and they use commas, lots of them, everywhere.</p></div></article></li>`;
    const comments = (word: string, cls?: string) => Array.from({ length: 40 }, (_, i) => comment(i, word, cls)).join('');
    const story = `<body><div class="postarea"><h1>The story</h1>${P(12)}<div id="comments" class="comments-wrapper"><h3>40 comments</h3><ol class="commentlist">${comments('post')}</ol></div></div></body>`;
    const md = htmlToMarkdown(story, STORY_URL).markdown;
    expect(md).toContain('Paragraph 7 of the story');
    expect(md).not.toContain('reader3');
    expect(md).not.toContain('Comment 12 on the post');
    // a board of replies that its markup names a discussion is a thread's, not a story's comments
    const board = `<body><div class="topic"><h1>Will this work?</h1>${P(12, 'question')}<section id="comments" class="DiscussionBoard"><ol>${comments('question', 'reply')}</ol></section></div></body>`;
    expect(htmlToMarkdown(board, STORY_URL).markdown).toContain('Comment 12 on the question');
  });

  it("leaves out a box about the story's writer, named so by its class or headed 'About the author'; a thread's author panels stay", () => {
    const bio = (name: string) =>
      `<p>${name} is a staff writer who has covered science, health and the outdoors for twelve years, and before that taught chemistry at a high school in Ohio. ${name} lives with two dogs.</p><a href="/authors/${name}">View all posts by ${name}</a>`;
    const byClass = `<body><article><h1>The story</h1>${P(8)}<div class="post-author-bio"><img src="/a.jpg" alt=""><h3>Dana Reyes</h3>${bio('Dana')}</div></article></body>`;
    const md = htmlToMarkdown(byClass, STORY_URL).markdown;
    expect(md).toContain('Paragraph 7 of the story');
    expect(md).not.toContain('staff writer');
    const byHeading = `<body><article><h1>The story</h1>${P(8)}<div class="mt-8 px-4"><h2>About the Reviewer</h2><div class="flex">${bio('Sam')}</div></div></article></body>`;
    const md2 = htmlToMarkdown(byHeading, STORY_URL).markdown;
    expect(md2).toContain('Paragraph 7 of the story');
    expect(md2).not.toContain('staff writer');
    expect(md2).not.toContain('About the Reviewer');
    // the same panel under every post of a thread is each post's author, not a story's bio
    const post = (n: number) => `<div class="entry"><div class="author-info">${bio(`member${n}`)}</div>${P(2, `reply ${n}`)}</div>`;
    const thread = `<body><div class="posts"><h1>The story</h1>${P(4)}${[1, 2, 3, 4].map(post).join('')}</div></body>`;
    expect(htmlToMarkdown(thread, STORY_URL).markdown).toContain('member3 is a staff writer');
  });

  it("keeps a page builder's short text block between two of the story's blocks of the same kind", () => {
    const block = (inner: string) => `<div class="builder-block html-block"><div class="block-content">${inner}</div></div>`;
    const long = (n: number) => block(`<h2>Part ${n}</h2>${P(3, `part ${n}`)}`);
    const html =
      `<body><div class="layout"><div class="column">${long(1)}<div class="builder-block form-block"><form><input name="email"></form><p>Join the list</p></div>` +
      `${block('<h2>Getting started</h2><p>Here are three quick ways in.</p>')}<div class="builder-block image-block"><figure><img src="/a.jpg" alt="a jar"></figure></div>` +
      `${block('<h3>1. Count it</h3><p>Write down what you throw away.</p>')}${long(2)}${long(3)}</div></div></body>`;
    const md = htmlToMarkdown(html, STORY_URL).markdown;
    expect(md).toContain('Paragraph 2 of the part 1');
    expect(md).toContain('Getting started');
    expect(md).toContain('Write down what you throw away');
    expect(md).toContain('Paragraph 2 of the part 3');
  });

  it("leaves out a list article's per-item button (the same short link under every item, to a different page each time)", () => {
    const item = (n: number) =>
      `<h2>${n}. Course ${n}</h2>${P(2, `course ${n}`)}<p class="cta"><a href="https://school.example/course-${n}">Book now</a></p><p><a href="https://school.example/notes-${n}">Course ${n} notes</a></p>`;
    const html = `<body><article><h1>The best courses</h1>${P(2)}${[1, 2, 3, 4].map(item).join('')}</article></body>`;
    const md = htmlToMarkdown(html, STORY_URL).markdown;
    expect(md).toContain('Paragraph 1 of the course 4');
    expect(md).not.toContain('Book now');
    expect(md).toContain('Course 3 notes');
    // twice is no row of buttons; nor is one link repeated to the same page
    const two = `<body><article><h1>The best courses</h1>${P(2)}${[1, 2].map(item).join('')}</article></body>`;
    expect(htmlToMarkdown(two, STORY_URL).markdown).toContain('Book now');
    const same = `<body><article><h1>Notes</h1>${[1, 2, 3].map((n) => `${P(3, `part ${n}`)}<p><a href="/glossary">See the glossary</a></p>`).join('')}</article></body>`;
    expect(htmlToMarkdown(same, STORY_URL).markdown).toContain('See the glossary');
    // a citation under every item is where its facts come from: kept with its address
    const cited = `<body><article><h1>Facts</h1>${[1, 2, 3, 4].map((n) => `${P(2, `fact ${n}`)}<p><a href="https://data.example/table-${n}">Source</a></p>`).join('')}</article></body>`;
    expect(htmlToMarkdown(cited, STORY_URL).markdown).toContain('[Source](https://data.example/table-3)');
  });

  it("leaves out the closing paragraphs that are the metadata author's bio; a brand named as author keeps its closing line", () => {
    const page = (author: string, closing: string) =>
      `<html><head><meta name="author" content="${author}"></head><body><article><h1>The story</h1>${P(8)}<p>${closing}</p><p><a href="/authors/x">More by this writer</a></p></article></body></html>`;
    const bio =
      'Dana Reyes is a freelance writer living in Denver, where she covers science, health and the outdoors for several magazines.';
    const md = htmlToMarkdown(page('Dana Reyes', bio), STORY_URL).markdown;
    expect(md).toContain('Paragraph 7 of the story');
    expect(md).not.toContain('freelance writer living in Denver');
    // the first name alone, right before what bios say
    const byFirst = htmlToMarkdown(page('Dana Reyes', bio.replace('Dana Reyes is', 'Dana is')), STORY_URL).markdown;
    expect(byFirst).not.toContain('freelance writer living in Denver');
    // a company is no person: its closing line is the story's pitch
    const brand = 'Acme is dedicated to helping its clients build better bridges, faster and for less, in every state of the country.';
    expect(htmlToMarkdown(page('Acme', brand), STORY_URL).markdown).toContain('Acme is dedicated');
    expect(htmlToMarkdown(page('ACME Official', brand.replace('Acme', 'ACME')), STORY_URL).markdown).toContain('ACME is dedicated');
  });

  it('keeps a glossary with an icon per term (much text per picture); a strip of pictures still goes', () => {
    const term = (n: number) =>
      `<div class="term"><img src="/icon-${n}.svg" alt="icon ${n}"><div><dt>Term ${n}</dt><dd>Definition ${n}: a unit of something the guide uses, explained in a plain sentence or two so that a reader who meets it later knows what it means and where it shows up in the numbers.</dd></div></div>`;
    const dropped = (html: string) => [...extract(html).drop].map((el) => el.attribs.class ?? el.name);
    const glossary = `<body><article><h1>The guide</h1>${P(16)}<div class="glossary-box"><dl>${[1, 2, 3, 4, 5, 6].map(term).join('')}</dl></div>${P(2, 'ending')}</article></body>`;
    expect(dropped(glossary)).not.toContain('glossary-box');
    const strip = `<body><article><h1>The guide</h1>${P(8)}<div class="strip">${[1, 2, 3, 4].map((n) => `<img src="/p${n}.jpg"><span>Photo ${n}</span>`).join('')}</div>${P(2, 'ending')}</article></body>`;
    expect(dropped(strip)).toContain('strip');
  });

  it('stops at the first rung when it finds enough', () => {
    const r = extract(`<body><article>${P(8)}</article></body>`);
    expect(r.attempts).toHaveLength(1);
    expect(r.winner).toBe(0);
  });

  it('keeps every item of a listing', () => {
    const items = Array.from(
      { length: 8 },
      (_, i) => `<li><a href="/p/${i}"><h3>Product ${i}</h3></a><p>A short description of product ${i}, with a price.</p></li>`,
    ).join('');
    const out = htmlToMarkdown(
      `<body><header><nav><a href="/">Home</a></nav></header><main><h1>Shop</h1><ul class="grid">${items}</ul></main></body>`,
      STORY_URL,
    ).markdown;
    for (let i = 0; i < 8; i++) expect(out).toContain(`[Product ${i}](https://x.test/p/${i})`);
  });

  it('drops a trailing run of "you may also like" links but not a listing', () => {
    const more = ['One', 'Two', 'Three'].map((t) => `<p><a href="/${t}">Another story number ${t}</a></p>`).join('');
    const out = htmlToMarkdown(`<body><article>${P(4)}<p>You may also like...</p>${more}</article></body>`, STORY_URL).markdown;
    expect(out).toContain('Paragraph 3 of the story');
    expect(out).not.toMatch(/may also like|Another story/);
  });

  it('keeps an image gallery whose images have alt text, drops an undescribed image strip', () => {
    const gallery = '<div class="gallery"><img src="/a.jpg" alt="Front view"><img src="/b.jpg" alt="Back view"></div>';
    const strip = '<div class="strip"><img src="/x.gif"><img src="/y.gif"><img src="/z.gif"></div>';
    const out = htmlToMarkdown(`<body><article>${P(3)}${gallery}${strip}${P(2)}</article></body>`, STORY_URL).markdown;
    expect(out).toContain('![Front view](https://x.test/a.jpg) ![Back view](https://x.test/b.jpg)');
    expect(out).not.toContain('x.gif');
  });

  it('keeps data tables and code blocks inside the content', () => {
    const html = `<body><article>${P(3)}<table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table><pre><code class="language-sh">ls</code></pre>${P(2)}</article></body>`;
    const out = htmlToMarkdown(html, STORY_URL).markdown;
    expect(out).toContain('| k | v |');
    expect(out).toContain('```sh\nls\n```');
  });
});

describe('widget labels left as text', () => {
  const caption =
    '<div class="photo"><img src="/img/harbour.jpg" alt="The harbour at dawn"><p>The harbour at dawn, before the boats go out.</p>' +
    '<b class="toggle-caption"><b>toggle caption</b></b></div>';
  const cards = ['Tides', 'Ferries', 'Fishing', 'Weather', 'Boats', 'Birds']
    .map(
      (t) =>
        `<li class="news"><div class="card__content"><span class="card__icon">Icon</span><div class="card__data"><h3><a href="/topics/${t.toLowerCase()}">${t} around the harbour</a></h3><p>What changed on the quay this week.</p></div></div></li>`,
    )
    .join('');

  it('go: a caption’s toggle', () => {
    const html = `<html><body><article><h1>The story</h1>${P(1)}${caption}${P(3)}</article></body></html>`;
    const md = htmlToMarkdown(html, STORY_URL).markdown;
    expect(md).not.toMatch(/toggle caption/i);
    expect(md).toContain('The harbour at dawn, before the boats go out.');
  });

  it('go: an icon font’s "Icon" label in each card', () => {
    const html = `<html><body><main><h1>Topics</h1><ul class="cards">${cards}</ul></main></body></html>`;
    const md = htmlToMarkdown(html, 'https://x.test/topics/', { pageType: 'listing' }).markdown;
    expect(md).not.toMatch(/\bIcon\b/);
    expect(md).toContain('Tides around the harbour');
  });

  it('stay inside a sentence', () => {
    const html = `<html><body><article><h1>The story</h1>${P(1)}<p>Tap toggle caption to read the credit under each icon.</p>${P(2)}</article></body></html>`;
    expect(htmlToMarkdown(html, STORY_URL).markdown).toContain('Tap toggle caption to read the credit under each icon.');
  });
});
