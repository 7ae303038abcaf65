/**
 * Listings (blog indexes, news section fronts, search results): every item of the list is
 * content, the furniture around it is not. Fixtures are self-written section pages; the
 * page type is given so each rule is tested apart from the classifier.
 */
import type { Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { isElement, parseHtml } from '../../../../src/convert/html/dom.js';
import { isGridCard } from '../../../../src/convert/html/grid-chrome.js';
import { largestCatalogue, largestTeaserGroup } from '../../../../src/convert/html/index-cards.js';
import { htmlToMarkdown } from '../../../../src/convert/html/index.js';
import { computeStats } from '../../../../src/convert/html/stats.js';
import { cpuMs } from '../../hostile/cpu.js';

const read = (html: string) => htmlToMarkdown(html, 'https://news.example.org/economy/', { pageType: 'listing' }).markdown;

const STORIES = [
  ['Port strike enters its second week as talks stall', 'Dock workers and terminal operators remain far apart on pay and automation.'],
  [
    'Central bank holds rates, signals two cuts this year',
    'Policy makers kept the benchmark unchanged but softened their outlook on inflation.',
  ],
  ['Wheat prices climb after a dry spring on the plains', 'Traders bid up futures as forecasts for the summer harvest were revised down.'],
  ['Start-up funding rebounds in the first quarter', 'Venture investment rose for the first time in two years, led by energy storage.'],
  ['Retail sales slip as shoppers cut back on furniture', 'Spending on big-ticket household goods fell for the third month in a row.'],
  [
    'Airline fuel bills ease as crude falls below 70 dollars',
    'Carriers expect cheaper jet fuel to offset weaker demand on transatlantic routes.',
  ],
];

const teaser = ([title, line]: string[], i: number) =>
  `<article class="card"><h3 class="card__title"><a href="/news/2025/${i}">${title}</a></h3><p class="card__excerpt">${line}</p></article>`;

describe('the list of items of a section front', () => {
  const html =
    '<html><head><title>Economy | Daily Ledger</title></head><body>' +
    '<header><nav><a href="/">Home</a> <a href="/economy/">Economy</a></nav></header>' +
    '<div class="page"><h1>Economy</h1>' +
    '<section class="featured"><article class="lead"><h2><a href="/news/2025/lead">Factories report the strongest month since the pandemic</a></h2>' +
    '<p>Output rose across every region, with carmakers and chemical plants leading the gains, according to the monthly survey of purchasing managers, which also showed new orders climbing and delivery times shortening for the first time in a year.</p></article></section>' +
    // the feed's second half sits in a container named for the adverts placed between its items
    `<div class="container container--more-ads"><section class="feed">${STORIES.map(teaser).join('')}</section></div>` +
    '<div class="ad-slot"><p>Advertisement</p><a href="https://ads.example.net/click?id=9">Refinance your home today with low rates</a></div>' +
    '</div><footer><p>© Daily Ledger</p></footer></body></html>';

  it('is content whatever the class of its container says, and the ad beside it still goes', () => {
    const md = read(html);
    expect(md).toContain('Factories report the strongest month');
    for (const [title, line] of STORIES) {
      expect(md).toContain(title);
      expect(md).toContain(line);
    }
    expect(md).not.toContain('Refinance your home');
  });
});

describe('an index read as a story whose pruning took most of the teasers', () => {
  const NEWS = [
    ['Thanksgiving traffic sets a record on the interstate', 'Highway patrol counted more cars than any year since counts began.'],
    ['County opens a second warming centre downtown', 'The shelter on Fifth Street adds forty beds through March.'],
    ['School board delays the vote on new bus routes', 'Parents asked for more time to review the changes.'],
    ['Rental car thefts linked to a ring operating in three states', 'Investigators say the cars were shipped overseas.'],
    ['Library extends weekend hours for the winter', 'Branches will stay open until eight on Saturdays.'],
    ['New bike lanes planned for the river road', 'Construction is expected to start in the spring.'],
    [
      'Buying a used rental car? Read this first',
      'If you are thinking of buying a used car directly from a rental company, you could be getting a steal. But before you sign, check the service history, ask how many drivers it had, and have a mechanic look at the brakes, tyres and suspension.',
    ],
    [
      'Airport reports a shortage of rental cars',
      'Travellers should book early: officials say rental cars at the airport are in high demand, and that means cars are running low, prices are rising, and some desks have stopped taking walk-up customers altogether.',
    ],
  ];
  // a topic page: the short teasers are link-heavy, and the story path's cleaning kept only the long ones
  const item = ([title, summary]: string[], i: number) =>
    `<li class="teaser-item"><div class="teaser"><div class="teaser__image"><a href="/news/${i}" title="${title}"><img src="/img/${i}.jpg" alt="Image for story: ${title}"></a></div>` +
    `<div class="teaser__headline"><span class="published">${i + 2} days ago</span><a href="/news/${i}">${title}</a><p class="teaser__summary">${summary}</p></div></div></li>`;
  const html =
    '<html><head><title>Car Rental | Channel 9</title><meta property="og:type" content="article"></head><body>' +
    '<header><nav><a href="/">Home</a><a href="/news">News</a></nav></header>' +
    `<div class="layout"><div class="column-one"><div class="panel"><div class="panel__title">CAR RENTAL</div><ul class="teaser-list">${NEWS.map(item).join('')}</ul></div></div>` +
    '<div class="column-two"><div class="weather">Weather: 54 and cloudy</div></div></div><footer><p>Copyright Channel 9 News</p></footer></body></html>';

  it('keeps every teaser without its picture, and types the page a listing', () => {
    const out = htmlToMarkdown(html, 'https://ch9.example.com/topic/Car%20Rental', { pageType: 'article' });
    for (const [title, summary] of NEWS) {
      expect(out.markdown).toContain(title);
      expect(out.markdown).toContain(summary);
    }
    expect(out.markdown).not.toContain('/img/0.jpg');
    expect(out.metadata.pageType).toBe('listing');
  });

  it('leaves a story with its reader comments alone', () => {
    const comment = (name: string, i: number) =>
      `<li class="comment"><div class="comment-body"><a href="https://people.example.net/${name}">${name} from the valley</a><span>May ${i + 3}, 2024</span>` +
      `<p>Thanks for writing this up, see <a href="https://example.net/report-${i}">the full county report</a>.</p></div></li>`;
    const story =
      '<html><head><title>Open thread: May</title></head><body><article><h1>Open thread: May</h1>' +
      '<p>Our goal with these open threads is to give readers a place to raise questions about our work, our research and our plans for the year, in the comments below.</p>' +
      `</article><ol class="commentlist">${['Milan', 'Alex', 'Priya', 'Jonas', 'Wen', 'Ola'].map(comment).join('')}</ol></body></html>`;
    const out = htmlToMarkdown(story, 'https://blog.example.org/2024/05/open-thread/', { pageType: 'article' });
    expect(out.metadata.pageType).toBe('article');
    expect(out.markdown).toContain('Our goal with these open threads');
  });
});

describe('a row of tags in a teaser of an index', () => {
  const REPOS = [
    ['quarry', 'A fast full-text search engine for small sites, written in Go.', ['search', 'golang', 'full-text', 'static-site']],
    ['tidewater', 'Tide predictions for any harbour from public harmonic data.', ['oceanography', 'python', 'tides']],
    ['lanternfish', 'A terminal user interface for browsing log files as they grow.', ['tui', 'logs', 'rust', 'cli']],
    ['orchard', 'Plan a fruit garden: spacing, pollination partners and harvest times.', ['gardening', 'planner', 'typescript']],
  ];
  const card = ([name, about, tags]: [string, string, string[]]) =>
    `<article class="repo-card"><h3><a href="/acme/${name}">acme / ${name}</a></h3><a class="category" href="/topics/tools">Developer tools</a><p>${about}</p>` +
    `<div class="topics">${tags.map((t) => `<a class="topic" href="/topics/${t}">${t}</a>`).join(' ')}</div><span>Updated Mar 8, 2026</span></article>`;
  const html =
    '<html><head><title>Tools | Code Hub</title></head><body><main><h1>Developer tools</h1>' +
    `<div class="results">${REPOS.map((r) => card(r as [string, string, string[]])).join('')}</div></main></body></html>`;

  it('goes on a listing; the title, the single category link, the description and the date stay', () => {
    const md = htmlToMarkdown(html, 'https://code.example.com/topics/tools', { pageType: 'listing' }).markdown;
    for (const [name, about] of REPOS) {
      expect(md).toContain(`acme / ${name}`);
      expect(md).toContain(about as string);
    }
    expect(md).toContain('Developer tools');
    expect(md).toContain('Updated Mar 8, 2026');
    expect(md).not.toContain('static-site');
    expect(md).not.toContain('oceanography');
  });

  it('stays on a grid of products, where short links are the item’s own variants', () => {
    const md = htmlToMarkdown(html, 'https://code.example.com/topics/tools', { pageType: 'collection' }).markdown;
    expect(md).toContain('oceanography');
  });
});

describe('many one-off templates in one list (hostile)', () => {
  // 12,000 templates of four teasers each under one parent: asking each group (or each
  // card) about its siblings by scanning them all again took over a minute.
  const name = (n: number): string => {
    let s = '';
    for (let t = n; ; t = Math.floor(t / 26)) {
      s += String.fromCharCode(97 + (t % 26));
      if (t < 26) break;
    }
    return `k${s}`;
  };
  const teasers = Array.from({ length: 12_000 * 4 }, (_, i) => {
    const t = Math.floor(i / 4);
    return `<div class="${name(t)}"><h3><a href="/s/${i}">A teaser title long enough ${t}</a></h3><p>Teaser text for item ${i}.</p></div>`;
  }).join('');
  const body = (parseHtml(`<html><body><main>${teasers}</main></body></html>`).children[0] as Element).children.find(
    (c): c is Element => isElement(c) && c.name === 'body',
  ) as Element;
  const stats = computeStats(body);

  it('the largest teaser group and every card check stay linear (≤ 5 s CPU; ~0.5 s measured)', () => {
    let group: ReturnType<typeof largestTeaserGroup> = null;
    let cards = 0;
    const ms = cpuMs(() => {
      group = largestTeaserGroup(body, stats);
      const main = body.children.find((c): c is Element => isElement(c) && c.name === 'main') as Element;
      for (const c of main.children) if (isElement(c) && isGridCard(c, stats)) cards++;
    });
    expect(group).not.toBeNull();
    expect(cards).toBe(12_000 * 4);
    expect(ms).toBeLessThan(5000);
  });
});

describe('a section of an index in a block named for the ad slot between its items', () => {
  const SECTION = [
    ['Shipping rates fall for a third month', 'Container prices on the main Asia routes dropped again in May.'],
    ['Tariff talks resume in Geneva', 'Negotiators meet next week to discuss duties on steel and aluminium.'],
    ['Exports of electric cars double', 'Shipments to Europe grew fastest, led by compact hatchbacks.'],
    ['Grain corridor reopens after a pause', 'The first ships left port on Tuesday under the renewed agreement.'],
  ];
  const card = ([title, line]: string[], i: number) =>
    `<div class="summary-item"><a class="summary-item__link" href="/story/${i}"><h3>${title}</h3></a><div class="summary-item__dek">${line}</div></div>`;
  const html =
    '<html><head><title>Economy | Daily Ledger</title></head><body><main><h1>Economy</h1>' +
    `<div class="row"><h2><a href="/economy/trade/">Trade</a></h2><div class="grid-items hide-read-more-ad">${SECTION.map(card).join('')}</div></div>` +
    `<div class="row"><h2>Latest</h2><section class="feed">${STORIES.map(teaser).join('')}</section></div>` +
    '<div class="ad"><a href="https://ads.example.net/click?id=9">Refinance your home today with low rates</a></div>' +
    '</main></body></html>';

  it('keeps the cards, and the ad beside them still goes', () => {
    const md = read(html);
    for (const [title, line] of [...SECTION, ...STORIES]) {
      expect(md).toContain(title);
      expect(md).toContain(line);
    }
    expect(md).not.toContain('Refinance your home');
  });

  it('drops a block of links named for ads whose items are not cards of a list', () => {
    const ads =
      '<div class="ads"><a href="https://a.example.net/1">Cheap flights</a><span>·</span><a href="https://a.example.net/2">Loans</a></div>';
    const md = read(html.replace('</main>', `${ads}</main>`));
    expect(md).not.toContain('Cheap flights');
  });
});

describe('an index of papers in a definition list', () => {
  const PAPERS = [
    [
      'Sparse attention for long documents at low cost',
      ['Ana Ruiz', 'Tomas Berg', 'Li Wei', 'Gita Rao', 'Max Brandt'],
      'Computation and Language (cs.CL)',
    ],
    ['Planning with learned world models in robotics', ['Sara Okafor', 'Jan Novak', 'Mei Chen', 'Olu Ade', 'Tim Roth'], 'Robotics (cs.RO)'],
    ['A benchmark of tool use by language agents', ['Omar Haddad', 'Eva Lind', 'Raj Patel', 'Kim Soo'], 'Artificial Intelligence (cs.AI)'],
    ['Calibrated uncertainty for medical image models', ['Nora Weiss', 'Pablo Diaz', 'Ines Costa'], 'Machine Learning (cs.LG)'],
    ['Provable fairness bounds for ranking systems', ['Yuki Sato', 'Lars Holm', 'Amara Obi'], 'Information Retrieval (cs.IR)'],
  ];
  // a day's page lists dozens: each entry is a small share of the list
  const MORE = Array.from({ length: 15 }, (_, i) => [
    `Further results on topic ${i + 1} in learning`,
    [`Author ${i}a`, `Author ${i}b`],
    'Machine Learning (cs.LG)',
  ]);
  const person = (n: string) => `<a href="https://papers.example.org/search?searchtype=author&query=${encodeURIComponent(n)}">${n}</a>`;
  const entry = ([title, authors, subject]: [string, string[], string], i: number) =>
    `<dt><a href="/abs/2603.0${i}">[${i + 1}]</a> <a href="/abs/2603.0${i}" id="id-${i}">paper:2603.0${String(i).padStart(4, '0')}</a> [<a href="/pdf/2603.0${i}">pdf</a>, <a href="/format/2603.0${i}">other</a>]</dt>` +
    `<dd><div class="meta"><div class="list-title">Title: ${title}</div><div class="list-authors">${authors.map(person).join(', ')}</div>` +
    `<div class="list-comments">Comments: ${12 + i} pages, ${3 + i} figures, code and data to be released with the camera-ready version of the paper</div>` +
    `<div class="list-subjects">Subjects: ${subject}</div></div></dd>`;
  const html =
    '<html><head><title>Recent papers</title></head><body><header><nav><a href="/">Home</a><a href="/list">Lists</a></nav></header>' +
    `<div id="content"><h1>Recent submissions</h1><dl id="articles">${([...PAPERS, ...MORE] as Array<[string, string[], string]>).map(entry).join('')}</dl></div>` +
    '<footer><a href="/about">About</a> <a href="/help">Help</a></footer></body></html>';

  it('keeps every paper with its authors and subjects, and types the page a listing', () => {
    const out = htmlToMarkdown(html, 'https://papers.example.org/list/recent', { pageType: 'article' });
    for (const [title, authors, subject] of PAPERS as Array<[string, string[], string]>) {
      expect(out.markdown).toContain(title);
      expect(out.markdown).toContain(subject);
      for (const a of authors) expect(out.markdown).toContain(a);
    }
    expect(out.metadata.pageType).toBe('listing');
  });
});

describe("a link aggregator's line of controls under each item", () => {
  const LINKS = [
    ['Show: a tiny database written in one weekend', 'https://tinydb.example.net/', 'ada', 12],
    ['Why the moon drifts away from the earth each year', 'https://astro.example.org/moon', 'lin', 40],
    ['A field guide to mechanical keyboards', 'https://keys.example.com/guide', 'omar', 7],
    ['The history of the humble paperclip', 'https://history.example.org/clip', 'sue', 0],
  ] as const;
  const controls = (user: string, i: number, comments: number) =>
    `${i + 3} points by <a href="user?id=${user}">${user}</a> <a href="item?id=${i}">${i + 1} hours ago</a> | <a href="hide?id=${i}">hide</a> | <a href="past?id=${i}">past</a> | ` +
    `<a href="item?id=${i}">${comments ? `${comments} comments` : 'discuss'}</a>`;

  it('drops the controls in a table of items and keeps each title and its site', () => {
    const rows = LINKS.map(
      ([title, href, user, comments], i) =>
        `<tr class="item"><td class="rank">${i + 1}.</td><td class="title"><a href="${href}">${title}</a> (<a href="from?site=${i}">${new URL(href).hostname}</a>)</td></tr>` +
        `<tr><td></td><td class="subtext">${controls(user, i, comments)}</td></tr>`,
    ).join('');
    const html = `<html><head><title>Newest links</title></head><body><main><table class="itemlist"><tbody>${rows}</tbody></table></main></body></html>`;
    const md = read(html);
    for (const [title, href] of LINKS) {
      expect(md).toContain(title);
      expect(md).toContain(new URL(href).hostname);
    }
    expect(md).not.toContain('points by');
    expect(md).not.toContain('hide');
  });

  it('drops the controls under items of a list, and a line with one control stays', () => {
    const items = LINKS.map(
      ([title, href, user, comments], i) =>
        `<li class="story"><h3><a href="${href}">${title}</a></h3><p class="about">Posted from ${new URL(href).hostname} for readers who like long reads.</p><div class="meta">${controls(user, i, comments)}</div></li>`,
    ).join('');
    const jobs = '<div class="job"><a href="/jobs/1">Acme is hiring a firmware engineer</a> <a href="hide?id=9">hide</a></div>';
    const html = `<html><head><title>Newest links</title></head><body><main><ol class="stories">${items}</ol>${jobs}</main></body></html>`;
    const md = read(html);
    for (const [title] of LINKS) expect(md).toContain(title);
    expect(md).not.toContain('points by');
    expect(md).toContain('Acme is hiring a firmware engineer');
  });
});

describe('a catalogue laid out in rows beside a short intro', () => {
  const AREAS = [
    [
      'Accounting',
      'Accounting turns transactions into reports that owners, lenders and regulators rely on.',
      ['Certificate in Cost Accounting', 'Internal Auditor Exam Review'],
    ],
    [
      'Analytics',
      'Analytics helps a business read its own data and decide with evidence rather than hunches.',
      ['Certificate in Business Analytics', 'Foundations of SQL Programming'],
    ],
    [
      'Finance',
      'Finance teaches how money moves through a firm, and how to plan, budget and invest it well.',
      ['Certified Financial Planner Course', 'Corporate Finance Essentials'],
    ],
    [
      'Healthcare',
      'Healthcare administration covers the people, rules and budgets behind every clinic and hospital.',
      ['Medical Practice Management', 'Healthcare Compliance Certificate'],
    ],
    [
      'Hospitality',
      'Hospitality programmes train managers for hotels, resorts, venues and the events they host.',
      ['Hotel Revenue Management', 'Event Planning Professional'],
    ],
    [
      'Leadership',
      'Leadership courses help new and seasoned managers lead teams through change and growth.',
      ['Executive Leadership Program', 'Managing Remote Teams Well'],
    ],
  ] as const;
  const card = ([name, about, courses]: (typeof AREAS)[number]) =>
    `<div class="col-4"><div class="box"><div class="box__inner"><h3>${name}</h3><p>${about}</p>` +
    `<ul>${courses.map((c) => `<li><a href="/courses/${c.toLowerCase().replace(/ /g, '-')}">${c}</a></li>`).join('')}</ul></div></div></div>`;
  const rows = [AREAS.slice(0, 3), AREAS.slice(3)]
    .map((r) => `<div class="widget"><div class="row">${r.map(card).join('')}</div></div>`)
    .join('');
  const intro =
    '<p>Our professional development programmes offer more than sixty certificates, the widest choice of short courses in the region, taught online, in the evening and at weekends.</p>' +
    '<p>Designed and taught by practitioners, the courses help working professionals master what their jobs ask of them today.</p>';
  const html =
    '<html><head><title>Professional development</title></head><body><header><nav><a href="/">Home</a><a href="/about">About</a></nav></header>' +
    `<div class="content"><section><div class="intro"><h1>Professional development</h1>${intro}</div></section><section><div class="section">${rows}</div></section></div>` +
    '<footer><p>© Business School</p></footer></body></html>';

  it('keeps every card of every row, and types the page a listing', () => {
    const out = htmlToMarkdown(html, 'https://school.example.edu/professional-development/', { pageType: 'article' });
    expect(out.markdown).toContain('more than sixty certificates');
    for (const [name, about, courses] of AREAS) {
      expect(out.markdown).toContain(name);
      expect(out.markdown).toContain(about);
      for (const c of courses) expect(out.markdown).toContain(c);
    }
    expect(out.metadata.pageType).toBe('listing');
  });

  it('leaves a dated story alone (a short news item over a grid of the latest ones)', () => {
    const dated = html.replace('<title>', '<meta property="article:published_time" content="2019-11-20T10:43:00Z"><title>');
    const out = htmlToMarkdown(dated, 'https://school.example.edu/professional-development/', { pageType: 'article' });
    expect(out.metadata.pageType).toBe('article');
    expect(out.markdown).toContain('more than sixty certificates');
    expect(out.markdown).not.toContain('Hotel Revenue Management');
  });

  it('leaves a story alone when the rows of teasers beside it are other pages', () => {
    const related = html.replace('<section><div class="section">', '<section class="related-programs"><div class="section">');
    const out = htmlToMarkdown(related, 'https://school.example.edu/professional-development/', { pageType: 'article' });
    expect(out.metadata.pageType).toBe('article');
  });
});

describe('a catalogue of 20,000 rows, with cards nested deep (hostile)', () => {
  // Each card is a chain of wrappers over its link (the cards' scans are bounded), and every
  // row asks whether its wrapper is the only child of the container of 20,000 rows: counting
  // the container's children per row took 7.6 s.
  const deep = (i: number): string =>
    `${'<div class="wrap">'.repeat(12)}<a href="/c/${i}">A course title long enough ${i}</a> and a line of text${'</div>'.repeat(12)}`;
  const rows = Array.from(
    { length: 20_000 },
    (_, r) =>
      `<div class="widget"><div class="row">${[0, 1, 2].map((k) => `<div class="col">${deep(r * 3 + k)}</div>`).join('')}</div></div>`,
  ).join('');
  const body = (parseHtml(`<html><body><main>${rows}</main></body></html>`).children[0] as Element).children.find(
    (c): c is Element => isElement(c) && c.name === 'body',
  ) as Element;
  const stats = computeStats(body);

  it('finds the catalogue in linear time (≤ 2 s CPU; ~0.2 s measured)', () => {
    let found: ReturnType<typeof largestCatalogue> = null;
    const ms = cpuMs(() => {
      found = largestCatalogue(body, stats);
    });
    expect(found).not.toBeNull();
    expect((found as unknown as { rows: number }).rows).toBe(20_000);
    expect(ms).toBeLessThan(2000);
  });
});

describe("a teaser's title line of short links", () => {
  const REPOS = [
    ['acme', 'quarry', 'A fast full-text search engine for small sites, written in Go.'],
    ['tidal', 'tidewater', 'Tide predictions for any harbour from public harmonic data.'],
    ['lumen', 'lanternfish', 'A terminal user interface for browsing log files as they grow.'],
    ['grove', 'orchard', 'Plan a fruit garden: spacing, pollination partners and harvest times.'],
  ];
  const card = ([owner, name, about]: string[]) =>
    `<article class="repo"><div class="repo__head"><div class="repo__title"><h3><a href="/${owner}">${owner}</a> / <a href="/${owner}/${name}">${name}</a></h3></div>` +
    `<div class="repo__star"><a href="/login?return_to=/${owner}/${name}">Star</a> <a href="/${owner}/${name}/stargazers">1.2k</a></div></div>` +
    `<p>${about}</p><div class="topics"><a href="/topics/go">go</a> <a href="/topics/search">search</a> <a href="/topics/cli">cli</a></div></article>`;
  const html = `<html><head><title>Tools</title></head><body><main><h1>Developer tools</h1>${REPOS.map(card).join('')}</main></body></html>`;

  it('keeps the owner / name heading beside its star button; the tags still go', () => {
    const md = read(html);
    for (const [owner, name, about] of REPOS) {
      expect(md).toContain(`[${owner}]`);
      expect(md).toContain(`[${name}]`);
      expect(md).toContain(about);
    }
    expect(md).not.toContain('/topics/search');
  });
});
