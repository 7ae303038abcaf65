import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../../src/convert/html/index.js';

const prose = (topic: string, i: number): string =>
  `<p>${topic} paragraph ${i}: our crew has served the valley for twenty years, and every visit starts with an inspection of the whole house, a written plan and a price you agree to before any work begins.</p>`;
const ld = (data: object): string => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;

describe('a page declaring a business', () => {
  const business = ld({ '@context': 'https://schema.org', '@type': 'HVACBusiness', name: 'Valley Air', telephone: '+1 555 0100' });

  it('is a service page, even when it reads like long prose', () => {
    const sections = ['Heating repair', 'Cooling', 'Duct cleaning']
      .map((h, i) => `<section><h2>${h}</h2>${[1, 2, 3].map((n) => prose(h, i * 3 + n)).join('')}</section>`)
      .join('');
    const html = `<html><head><title>Heating and cooling in Mesa</title>${business}</head><body><main><h1>Heating and cooling in Mesa</h1>${sections}</main></body></html>`;
    expect(htmlToMarkdown(html, 'https://valleyair.test/hvac-mesa').metadata.pageType).toBe('service');
  });

  it('leaves a story the business publishes an article', () => {
    const post = ld({
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'BlogPosting', headline: 'Five signs your furnace needs a tune-up', datePublished: '2024-10-02' },
        { '@type': 'LocalBusiness', name: 'Valley Air' },
      ],
    });
    const html = `<html><head><title>Five signs your furnace needs a tune-up</title>${post}</head><body><article><h1>Five signs your furnace needs a tune-up</h1>${[1, 2, 3, 4, 5, 6, 7, 8].map((n) => prose('Furnace', n)).join('')}</article></body></html>`;
    expect(htmlToMarkdown(html, 'https://valleyair.test/blog/five-signs-your-furnace-needs-a-tune-up').metadata.pageType).toBe('article');
  });

  it('leaves a product the business sells a product', () => {
    const data = ld({
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'Product', name: 'Smart thermostat', offers: { '@type': 'Offer', price: '129.00', priceCurrency: 'USD' } },
        { '@type': 'Store', name: 'Valley Air shop' },
      ],
    });
    const html = `<html><head><title>Smart thermostat</title>${data}</head><body><main><h1>Smart thermostat</h1><p class="price">$129.00</p><button>Add to cart</button>${prose('Thermostat', 1)}</main></body></html>`;
    expect(htmlToMarkdown(html, 'https://valleyair.test/products/smart-thermostat').metadata.pageType).toBe('product');
  });
});

describe('a page whose og:type is product', () => {
  it('is a product, even with a publication date, long prose and a headline-like slug', () => {
    const head =
      '<title>Introduction to open source development and tools</title><meta property="og:type" content="product">' +
      '<meta property="article:published_time" content="2024-03-01T09:00:00Z">';
    const body = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => prose('Course', n)).join('');
    const html = `<html><head>${head}</head><body><main><h1>Introduction to open source development and tools</h1>${body}</main></body></html>`;
    const url = 'https://training.test/training/introduction-to-open-source-development-and-tools/';
    expect(htmlToMarkdown(html, url).metadata.pageType).toBe('product');
  });
});

describe('a theme naming its template on <body>', () => {
  const intro = [1, 2, 3].map((n) => prose('Zero waste', n)).join('');
  const posts = ['Swap your sponges', 'Compost in a flat', 'Shop without plastic']
    .map((t, i) => `<div class="post-thumb"><a href="/blog/post-${i}"><img src="/p${i}.jpg" alt="${t}"></a></div>`)
    .join('');
  const page = (bodyClass: string): string =>
    `<html><head><title>Posts for beginners</title></head><body class="${bodyClass}"><div class="content"><h1>Posts for beginners</h1><div class="description">${intro}</div>${posts}</div></body></html>`;

  it('is a listing when the body says archive or category', () => {
    expect(htmlToMarkdown(page('archive category category-beginners'), 'https://zero.test/beginners/').metadata.pageType).toBe('listing');
  });

  it('is a collection when the archive is a shop theme’s product category', () => {
    const cls = 'archive tax-product_cat term-gadgets woocommerce';
    expect(htmlToMarkdown(page(cls), 'https://zero.test/gadgets/').metadata.pageType).toBe('collection');
  });

  it('stays an article on a single post, whatever else the body class says', () => {
    const cls = 'single single-post postid-42 category';
    expect(htmlToMarkdown(page(cls), 'https://zero.test/beginners/').metadata.pageType).toBe('article');
  });
});

describe('a landing page that asks its reader to act', () => {
  // SEO plugins stamp a datePublished on every WebPage: the metadata alone dates a landing page too.
  const stamped = ld({ '@context': 'https://schema.org', '@type': 'WebPage', name: 'Roof repair', datePublished: '2023-01-10' });
  const story = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((n) => prose('Roofing', n)).join('');
  const head = `<head><title>Roof repair</title>${stamped}</head>`;
  const url = 'https://roofers.test/services/roof-repair';
  const page = (header: string, content: string, footer = ''): string =>
    `<html>${head}<body><header>${header}</header><main><h1>Roof repair</h1>${story}${content}</main><footer>${footer}</footer></body></html>`;
  const asks = '<a class="btn" href="/quote">Get a free quote</a><button>Book a consultation</button>';
  const quotes = '<div class="testimonial"><blockquote>They fixed our leak in a day.</blockquote><cite>Dana</cite></div>';

  it('is a service page when its content holds calls to action and testimonials, whatever date the metadata carries', () => {
    expect(htmlToMarkdown(page('', asks + quotes), url).metadata.pageType).toBe('service');
  });

  it('does not count the calls to action of the header and footer', () => {
    expect(htmlToMarkdown(page(asks, '', asks), url).metadata.pageType).toBe('article');
  });

  it('stays an article when the content shows its date', () => {
    const byline = '<p class="byline">By Sam Reed, <time datetime="2023-01-10">January 10, 2023</time></p>';
    expect(htmlToMarkdown(page('', byline + asks), url).metadata.pageType).toBe('article');
  });
});

describe('a home page full of dates', () => {
  const posts = Array.from({ length: 9 }, (_, i) => `Post number ${i + 1} about gardening`);
  const card = (t: string, i: number): string =>
    `<div class="card"><a href="/p/${i}"><img src="/i/${i}.jpg" alt=""></a><a href="/p/${i}">${t}</a><p>Notes from the beds this week.</p><span class="meta">March ${i + 2}, 2025</span></div>`;
  const page = (date: boolean): string =>
    `<html><head><title>Green Thumb</title></head><body><main><div class="grid">${posts
      .map((t, i) => (date ? card(t, i) : card(t, i).replace(/<span class="meta">.*?<\/span>/, '')))
      .join('')}</div></main></body></html>`;

  it('is a feed of posts (a listing)', () => {
    expect(htmlToMarkdown(page(true), 'https://greenthumb.test/').metadata.pageType).toBe('listing');
  });

  it('needs the dates: undated cards on a home page stay a grid', () => {
    expect(htmlToMarkdown(page(false), 'https://greenthumb.test/').metadata.pageType).not.toBe('listing');
  });
});

describe('calls to action on a hostile page', () => {
  it('reads nested buttons in linear time', () => {
    const depth = 5000;
    const html = `<html><body><main>${'<button>'.repeat(depth)}Get started${'</button>'.repeat(depth)}</main></body></html>`;
    const start = Date.now();
    htmlToMarkdown(html, 'https://hostile.test/');
    expect(Date.now() - start).toBeLessThan(3000);
  });
});

describe('linked cards of an article', () => {
  // SEO plugins stamp a datePublished on every WebPage: only the JSON-LD dates this guide.
  const stamped = ld({ '@context': 'https://schema.org', '@type': 'WebPage', name: 'Top MBA programs', datePublished: '2024-02-01' });
  const section = (n: number): string =>
    `<div class="program"><h2>Program ${n}</h2>` +
    [1, 2, 3, 4]
      .map(
        (p) =>
          `<h3>Part ${p}</h3><p>Program ${n}, part ${p}: the class is small, the cohort is international and the faculty teach cases drawn from their own consulting work.</p>`,
      )
      .join('') +
    `<a href="/programs/program-${n}">Learn more about program ${n}</a></div>`;
  const html =
    `<html><head><title>Top MBA programs</title><meta property="og:type" content="article">${stamped}</head>` +
    `<body><main><h1>Top MBA programs</h1>${[1, 2, 3, 4, 5, 6, 7, 8].map(section).join('')}</main></body></html>`;

  it('are its sections when each runs longer than a teaser: the page stays an article', () => {
    expect(htmlToMarkdown(html, 'https://coach.test/top-mba-programs/').metadata.pageType).toBe('article');
  });
});

describe('pictured cards without prices', () => {
  const card = (n: number): string =>
    `<div class="story-card"><a href="/spotlight/story-${n}"><img src="/img/story-${n}.jpg" alt=""></a>` +
    `<h3><a href="/spotlight/story-${n}">Story ${n} from the harbour</a></h3><p>Fishers tell of the winter catch and the boats they mend.</p></div>`;
  const page = (extra: (n: number) => string): string =>
    `<html><head><title>Spotlight</title></head><body><main><h1>Spotlight</h1><div class="grid">${[1, 2, 3, 4, 5, 6, 7, 8]
      .map((n) => card(n).replace('</div>', `${extra(n)}</div>`))
      .join('')}</div></main></body></html>`;

  it('are an index of stories (a listing), not a shop grid', () => {
    expect(
      htmlToMarkdown(
        page(() => ''),
        'https://harbour.test/spotlight/',
      ).metadata.pageType,
    ).toBe('listing');
  });

  it('stay a grid when the cards carry prices', () => {
    expect(
      htmlToMarkdown(
        page((n) => `<span class="price">$${n}9.00</span>`),
        'https://harbour.test/spotlight/',
      ).metadata.pageType,
    ).toBe('collection');
  });
});

describe('dated entries', () => {
  const entry = (n: number, cls: string): string =>
    `<div class="${cls}"><p>Entry ${n}: the crew rewired the kitchen and added two outlets; the invoice came to a little under four hundred dollars in all.</p><span class="date">March ${n + 2}, 2025</span></div>`;
  const page = (cls: string): string =>
    `<html><head><title>Electrician costs</title></head><body><main><h1>Electrician costs</h1>${[1, 2, 3, 4, 5].map((n) => entry(n, cls)).join('')}</main></body></html>`;

  it('are a thread’s posts when blocks name themselves posts or comments', () => {
    expect(htmlToMarkdown(page('post-body'), 'https://costs.test/electricians').metadata.pageType).toBe('forum');
  });

  it('are not a thread when no block names itself a post, comment, reply or message', () => {
    expect(htmlToMarkdown(page('cost-report'), 'https://costs.test/electricians').metadata.pageType).not.toBe('forum');
  });
});
