import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../../src/convert/html/index.js';

const SAY = 'explains, in a few sentences with some detail, what worked for this problem and why it did';

function post(n: number, extra = ''): string {
  return `<article class="message message--post"><div class="message-user"><a class="username" href="/u/user${n}">user${n}</a>
    <div class="message-userExtras">Joined: 2019 · Messages: ${n * 100}</div></div>
    <div class="message-main"><time datetime="2025-03-0${n}">Mar ${n}, 2025</time><div class="message-body"><p>Post ${n} ${SAY}.</p>${extra}</div>
    <div class="message-signature">My rig: a very long signature line listing every part of the computer</div>
    <div class="message-actionBar"><a href="#">Reply</a> <a href="#">Report</a></div></div></article>`;
}

describe('threads', () => {
  it('keeps every post with its author and date, drops user panels, signatures and action bars', () => {
    const html = `<body><header class="site-header"><a href="/">Board</a></header>
      <main><h1>Fan noise after upgrade</h1><div class="block-body">${[1, 2, 3, 4].map((n) => post(n)).join('')}</div>
      <div class="block similar-threads"><h3>Similar threads</h3><a href="/t/1">Another thread about fans</a></div>
      <p>You must log in or register to reply here.</p></main></body>`;
    const r = htmlToMarkdown(html, 'https://board.test/threads/fan-noise.123/', { pageType: 'forum' });
    for (const n of [1, 2, 3, 4]) {
      expect(r.markdown).toContain(`Post ${n} explains`);
      expect(r.markdown).toContain(`user${n}`);
      expect(r.markdown).toContain(`Mar ${n}, 2025`);
    }
    expect(r.markdown).not.toMatch(/Messages:|My rig|Report|Similar threads|log in or register/);
  });

  it("drops the forum's widgets beside the posts by their headings (other topics, top posters, who is reading)", () => {
    const widget = (heading: string, body: string) =>
      `<div class="ipsWidget"><div class="ipsWidget__title">${heading}</div><div>${body}</div></div>`;
    const html = `<body><main><h1>Fan noise after upgrade</h1><div class="topic">${post(1)}
      ${widget('Top Posters In This Topic', '<ul><li><a href="/u/9">keeper</a> 4 posts</li><li><a href="/u/8">pilot</a> 2 posts</li></ul>')}
      ${widget('Popular Days', '<ul><li><a href="#c1">Mar 2 2025 3 posts</a></li></ul>')}
      ${widget('Check out other Related discussions', '<ul><li><a href="/t/7">Quiet case fans for a small build</a></li><li><a href="/t/8">GPU coil whine after a driver update</a></li></ul>')}
      ${post(2)}${post(3)}</div></main></body>`;
    const r = htmlToMarkdown(html, 'https://board.test/topic/123-fan-noise/', { pageType: 'forum' });
    for (const n of [1, 2, 3]) expect(r.markdown).toContain(`Post ${n} explains`);
    expect(r.markdown).not.toMatch(/Top Posters|Popular Days|Related discussions|Quiet case fans|4 posts/);
  });

  it('on a Q&A page keeps the question and every answer with author cards, drops remarks under them', () => {
    const remarks = '<div class="comments"><ul><li class="comment">Did you try turning it off? – bob Mar 5, 2025</li></ul></div>';
    const body = (cls: string, text: string, who: string) =>
      `<div class="${cls}"><div class="votecell">12</div><div class="postcell"><p>${text} ${SAY}.</p>
      <div class="post-signature"><div class="user-details">answered Mar 3, 2025 by <a href="/u/${who}">${who}</a></div></div>${remarks}</div></div>`;
    const html = `<body><div id="mainbar" role="main"><h1>How do I undo a commit?</h1>${body('question', 'The question', 'nina')}
      <div id="answers"><h2>2 Answers</h2>${body('answer', 'First answer', 'omar')}${body('answer', 'Second answer', 'li')}</div></div>
      <div id="sidebar"><div class="related"><a href="/q/1">Related question</a></div></div></body>`;
    const r = htmlToMarkdown(html, 'https://qa.test/q/42/undo', { pageType: 'forum' });
    expect(r.markdown).toContain('The question explains');
    expect(r.markdown).toContain('Second answer explains');
    // the author card stays, as the name (lean output writes no profile URL in a thread)
    expect(r.markdown).toContain('answered Mar 3, 2025 by omar');
    expect(r.markdown).not.toMatch(/turning it off|Related question/);
  });

  it('classifies a thread from its URL and repeated dated posts', () => {
    const html = `<body><main><h1>Fan noise after upgrade</h1><div class="block-body">${[1, 2, 3].map((n) => post(n)).join('')}</div></main></body>`;
    expect(htmlToMarkdown(html, 'https://board.test/threads/fan-noise.123/').metadata.pageType).toBe('forum');
  });

  it('finds the posts inside a page wrapper whose class names a sidebar, and drops their signatures', () => {
    const phpbb = (n: number) => `<div id="p${n}" class="post bg${(n % 2) + 1}"><div class="inner">
      <dl class="postprofile"><dt><a href="./memberlist.php?mode=viewprofile&u=${n}">user${n}</a></dt></dl>
      <div class="postbody"><p class="author">by <strong>user${n}</strong> » Tue Aug 2${n}, 2019 1:47 am</p>
      <div class="content">Post ${n} ${SAY}. It goes on a little longer so that the post is the larger part of the page.</div>
      <div id="sig${n}" class="signature">Nightcore forever. My nation does not reflect my views at all.</div></div></div></div>`;
    const html = `<body><div id="wrap" class="beside-sidebar-1"><div class="navbar"><a href="/">Board index</a></div>
      <div id="page-body"><h2>Fan noise after upgrade</h2>${[1, 2, 3].map(phpbb).join('<hr class="divider">')}</div></div>
      <div class="sidebar"><a href="/">Home</a></div></body>`;
    const r = htmlToMarkdown(html, 'https://board.test/viewtopic.php?t=123', { pageType: 'forum' });
    for (const n of [1, 2, 3]) expect(r.markdown).toContain(`Post ${n} explains`);
    expect(r.markdown).not.toMatch(/Nightcore/);
  });

  it("does not count a consent centre's text against the thread's share of the page", () => {
    const purpose = (n: number) =>
      `<div class="ot-cat-item"><h4>Purpose ${n}</h4><p>These cookies may be set through our site by our advertising partners to build a profile of your interests and show you relevant adverts on other sites, for purpose number ${n}.</p></div>`;
    const row = (n: number) =>
      `<tr><td class="author"><a href="/user/u${n}">u${n}</a> #${n}</td><td class="msg"><div class="msg_body">Reply ${n} ${SAY}.</div><div class="msg_below"><a href="#">Report</a></div></td></tr>`;
    const html = `<body><div id="consent-sdk"><h3>Manage Consent Preferences</h3>${Array.from({ length: 12 }, (_, i) => purpose(i)).join('')}</div>
      <div class="page"><h1>Fan noise after upgrade</h1><table class="board"><tbody>${[1, 2, 3, 4].map(row).join('')}</tbody></table>
      <div class="footer-links">Terms of use · Privacy policy</div></div></body>`;
    const r = htmlToMarkdown(html, 'https://board.test/boards/1/2', { pageType: 'forum' });
    for (const n of [1, 2, 3, 4]) expect(r.markdown).toContain(`Reply ${n} explains`);
    expect(r.markdown).not.toMatch(/Report/);
  });

  it("drops a post's counters, status and badges and the thread's UI labels, keeps numbers in the text", () => {
    const card = (n: number) => `<div class="post-row"><div class="user-cell"><a href="/member/${n}">member${n}</a>
      <div class="tagline">Offline</div><div class="badge">Author</div><div class="stamp">Registered: 2016-07-0${n}</div></div>
      <div class="body-cell"><div class="text">Post ${n} ${SAY}. I keep <span>3</span> spare fans in a drawer.</div>
      <blockquote><div>member1 said: the first post's words</div><div class="expander">Click to shrink...</div></blockquote>
      <div class="tally">2${n}</div><div class="links"><span class="act"><a href="/q/${n}">Reply with quote</a></span></div></div></div>`;
    const html = `<body><main><h1>Fan noise after upgrade</h1><ul class="facts"><li>Replies 154</li><li>Views 26.2k</li></ul>
      <div class="rows">${[1, 2, 3].map(card).join('')}</div></main></body>`;
    const r = htmlToMarkdown(html, 'https://board.test/threads/fan-noise.123/', { pageType: 'forum' });
    for (const n of [1, 2, 3]) expect(r.markdown).toContain(`Post ${n} explains`);
    expect(r.markdown).toContain('I keep 3 spare fans');
    expect(r.markdown).not.toMatch(/Offline|Author|Registered|Click to shrink|Reply with quote|Replies 154|Views 26|\b2[123]\b/);
  });

  it('drops a long quote that repeats an earlier post, keeps short quotes and quotes from elsewhere', () => {
    const first = `Post 1 ${SAY}. The fan ramps up whenever the card passes sixty degrees, even at idle on the desktop with nothing open.`;
    const outside =
      'The manual says the fan curve is set by the firmware and cannot be changed by the owner without voiding the warranty, which is a long rule to quote from a manual.';
    const msg = (n: number, body: string) => `<article class="message"><div class="message-user"><a href="/u/user${n}">user${n}</a></div>
      <div class="message-main"><time>Mar ${n}, 2025</time><div class="message-body">${body}</div></div></article>`;
    const html = `<body><main><h1>Fan noise after upgrade</h1><div class="block-body">
      ${msg(1, `<p>${first}</p>`)}
      ${msg(2, `<blockquote><div class="title">user1 said:</div><div>${first}</div></blockquote><p>Reply 2 ${SAY}: copied the whole post.</p>`)}
      ${msg(3, `<blockquote><div>user1 said:</div><div>The fan ramps up whenever the card passes sixty degrees</div></blockquote><p>Reply 3 ${SAY}.</p>`)}
      ${msg(4, `<blockquote>${outside}</blockquote><p>Reply 4 ${SAY}.</p>`)}
      </div></main></body>`;
    const r = htmlToMarkdown(html, 'https://board.test/threads/fan-noise.123/', { pageType: 'forum' });
    expect(r.markdown.split('even at idle on the desktop').length - 1).toBe(1);
    expect(r.markdown).toContain('Reply 2 explains');
    expect(r.markdown).toContain('> The fan ramps up whenever the card passes sixty degrees');
    expect(r.markdown).toContain('> The manual says the fan curve');
  });

  it("stops at the page's main landmark: a dated sidebar beside it is not the thread's first post", () => {
    const comment = (n: number) =>
      `<div class="thing comment"><p class="tagline"><a href="/user/u${n}">u${n}</a> <time>Mar ${n}, 2026</time></p><div class="md"><p>Comment ${n} ${SAY}.</p></div></div>`;
    const html = `<body><div class="side"><p>this post was submitted on <time datetime="2026-03-04">04 Mar 2026</time></p>
      <h2>Submission Rules</h2><ol><li>Directly link to published peer-reviewed research or a media summary of it</li><li>No summaries of summaries or reposts</li></ol></div>
      <div class="content" role="main"><div class="listing"><div class="thing link"><a class="title" href="https://journal.test/a">Hair follicles grown in the lab</a>
      <p class="tagline">submitted <time>Mar 4, 2026</time> by <a href="/user/op">op</a></p><div class="md"><p>The link post ${SAY}.</p></div></div></div>
      <div class="commentarea"><div class="sitetable">${[1, 2, 3].map(comment).join('')}</div></div></div></body>`;
    const r = htmlToMarkdown(html, 'https://board.test/r/science/comments/1abc/hair/', { pageType: 'forum' });
    expect(r.markdown).toContain('The link post explains');
    for (const n of [1, 2, 3]) expect(r.markdown).toContain(`Comment ${n} explains`);
    expect(r.markdown).not.toMatch(/Submission Rules|summaries of summaries/);
  });

  it("drops the thread's popular-posts widget by its heading", () => {
    const html = `<body><main><h1>Fan noise after upgrade</h1><div class="topic">${post(1)}${post(2)}
      <div class="box"><h4>Most Popular Posts</h4><ul><li><h5>user2</h5><a href="#c2">Mar 2, 2025</a><p>Post 2 was liked the most of all the posts in this topic, by a wide margin.</p></li></ul></div>
      ${post(3)}</div></main></body>`;
    const r = htmlToMarkdown(html, 'https://board.test/topic/123-fan-noise/', { pageType: 'forum' });
    for (const n of [1, 2, 3]) expect(r.markdown).toContain(`Post ${n} explains`);
    expect(r.markdown).not.toMatch(/Most Popular Posts|liked the most/);
  });
});
