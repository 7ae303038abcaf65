import type { Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { findFirst, parseHtml } from '../../../../src/convert/html/dom.js';
import { htmlToMarkdown } from '../../../../src/convert/html/index.js';
import type { PageType } from '../../../../src/convert/html/page-type.js';
import { prepareDocument } from '../../../../src/convert/html/prepare.js';
import { buildMetadata } from '../../../../src/convert/html/metadata.js';
import type { RawMetadata } from '../../../../src/convert/html/prepare.js';
import { extractRegion } from '../../../../src/convert/html/region.js';
import { computeStats } from '../../../../src/convert/html/stats.js';

/** A product page: its name, price, a gallery, the description and a spec table, inside `<main>`. */
const URL = 'https://shop.test/products/alpine-down-jacket';

const description = `<div class="product-description">
  <p>The Alpine is a 700-fill down jacket for cold, dry days in the hills, with a baffled body, an insulated hood and a two-way zip.</p>
  <p>Its shell is a recycled ripstop nylon with a water-repellent finish, and it packs into its own chest pocket for the trail.</p>
</div>
<table class="specs"><tr><th>Weight</th><td>410 g</td></tr><tr><th>Fill</th><td>700-fill responsibly sourced down</td></tr><tr><th>Shell</th><td>Recycled nylon ripstop</td></tr></table>`;

const summary = `<div class="product-summary"><h1>Alpine Down Jacket</h1><p class="price">$249.00</p>
  <p>Colour: <span>Moss</span></p></div>`;

const PRODUCT_LD =
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Alpine Down Jacket","offers":{"@type":"Offer","price":"249.00","priceCurrency":"USD"}}</script>';

const page = (inner: string, head = PRODUCT_LD): string =>
  `<html><head><title>Alpine Down Jacket | Northbound</title>${head}</head><body>
  <header><a href="/">Northbound</a><nav><a href="/men">Men</a><a href="/women">Women</a></nav></header>
  <main>${inner}</main><footer><p>© Northbound Outfitters</p></footer></body></html>`;

const card = (name: string, price: string, i: number): string =>
  `<li class="product-tile"><a href="/products/item-${i}"><img src="/img/item-${i}.jpg" alt="${name}"><span class="tile-name">${name}</span></a><span class="tile-price">${price}</span></li>`;

describe('product page: other products', () => {
  it('drops a grid of priced cards for other products, with its heading, whatever the heading says', () => {
    const grid = `<section class="pdp-carousel"><h2>Pairs well with</h2><ul class="tiles">
      ${card('Ridge Fleece Hoodie', '$89.00', 1)}${card('Summit Merino Beanie', '$35.00', 2)}${card('Trail Softshell Trousers', '$120.00', 3)}${card('Cirrus Rain Shell', '$199.00', 4)}
    </ul></section>`;
    const md = htmlToMarkdown(page(`${summary}${description}${grid}`), URL).markdown;
    expect(md).toContain('$249.00');
    expect(md).toContain('700-fill down jacket');
    expect(md).toContain('| Weight | 410 g |');
    expect(md).not.toMatch(/Ridge Fleece|Merino Beanie|Pairs well with|\$89\.00/);
  });

  it('drops a strip of pictured cards with full product names and no prices (a sponsored strip)', () => {
    const named = (n: string, i: number): string =>
      `<div class="ad-card"><a href="https://ads.test/click/${i}"><img src="/ad/${i}.jpg" alt=""></a><a href="https://ads.test/click/${i}">${n}</a></div>`;
    const strip = `<div class="strip">${[
      'Lightweight Packable Puffer Jacket for Men, Water Resistant',
      'Insulated Winter Parka with Detachable Fur-Trimmed Hood',
      'Quilted Hybrid Vest with Stretch Side Panels, Four Colours',
    ]
      .map(named)
      .join('')}</div>`;
    const md = htmlToMarkdown(page(`${summary}${description}${strip}`), URL).markdown;
    expect(md).toContain('packs into its own chest pocket');
    expect(md).not.toMatch(/Packable Puffer|Winter Parka|Hybrid Vest/);
  });

  it('keeps feature links with icons, colour swatches and a list of links without prices', () => {
    const features = `<div class="features">${['Water repellent', 'Packable', 'Two-way zip']
      .map((f, i) => `<div class="feature"><a href="/tech/${i}"><img src="/icons/${i}.svg" alt=""> ${f}</a></div>`)
      .join('')}</div>`;
    const swatches = `<ul class="swatches">${['Moss', 'Black', 'Rust']
      .map((c) => `<li class="swatch"><a href="?colour=${c}"><img src="/sw/${c}.jpg" alt="${c}"></a></li>`)
      .join('')}</ul>`;
    const md = htmlToMarkdown(page(`${summary}${swatches}${description}${features}`), URL).markdown;
    expect(md).toContain('Water repellent');
    expect(md).toContain('Two-way zip');
    expect(md).toContain('/sw/Rust.jpg');
  });

  it('never drops the group the product itself belongs to', () => {
    // A shop that lays out the summary and two panels as three look-alike columns.
    const col = (inner: string): string => `<div class="col">${inner}</div>`;
    const html = page(
      `<div class="row">${col(`<h1>Alpine Down Jacket</h1><a href="/reviews">Reviews</a><p class="price">$249.00</p>`)}${col(
        '<a href="/size-guide">Size guide for the Alpine, $0 returns</a>',
      )}${col('<a href="/care">Care guide, from $5 repair kits</a>')}</div>${description}`,
    );
    const md = htmlToMarkdown(html, URL).markdown;
    expect(md).toContain('$249.00');
  });

  it('drops the blocks under "Customers who viewed this product bought" and shop furniture headings', () => {
    const blocks = `<div class="viewed"><h2>This is what customers who viewed this product bought</h2><p>Cirrus Rain Shell, from a shop of ours.</p></div>
      <div class="ship"><h3>Shipping &amp; Returns</h3><p>Free delivery on orders over $50. Free 30-day returns on unworn items.</p></div>
      <div class="qa"><h3>Questions &amp; Answers</h3><p>Is it warm enough for skiing? Asked by a customer.</p></div>`;
    const md = htmlToMarkdown(page(`${summary}${description}${blocks}`), URL).markdown;
    expect(md).toContain('700-fill down jacket');
    expect(md).not.toMatch(/Cirrus Rain Shell|Free delivery|skiing/);
  });

  it('keeps "Bestsellers" on a shop front, which is not a product page', () => {
    const grid = `<h2>Bestsellers</h2><ul class="tiles">${card('Ridge Fleece Hoodie', '$89.00', 1)}${card('Summit Merino Beanie', '$35.00', 2)}${card('Trail Softshell Trousers', '$120.00', 3)}</ul>`;
    const md = htmlToMarkdown(
      page(`<h1>Northbound Outfitters</h1><p>Outdoor clothing made to last, repaired for free.</p>${grid}`, ''),
      'https://shop.test/',
    ).markdown;
    expect(md).toContain('Bestsellers');
    expect(md).toContain('Summit Merino Beanie');
  });
});

describe('product page: shop badges', () => {
  it('drops delivery, returns, instalment and seller badges, and keeps the price and the warranty', () => {
    const badges = `<ul class="usp"><li>Free shipping on orders over $75</li><li>30-day returns</li><li>Secure checkout</li></ul>
      <p class="klarna">or 4 interest-free payments of $62.25</p><div class="seller">Sold by Northbound Outfitters</div>
      <div class="delivery">Estimated delivery Tue, May 6 – Fri, May 9</div><p>Lifetime warranty on zips and seams.</p>`;
    const md = htmlToMarkdown(page(`${summary}${badges}${description}`), URL).markdown;
    expect(md).toContain('$249.00');
    expect(md).toContain('Lifetime warranty on zips');
    expect(md).not.toMatch(/Free shipping|30-day returns|Secure checkout|interest-free|Sold by|Estimated delivery/);
  });

  it('drops delivery options, N-day returns and trials, financing offers and final-sale notes', () => {
    const badges = `<ul class="delivery"><li>Standard Delivery (4-7 Working Days)</li><li>Express Delivery Available</li><li>Arrives by Friday</li></ul>
      <div class="returns"><p>Free 90-day returns</p><p>Returns &amp; exchanges accepted within 30 days</p><p>Risk-free 99 Day Trial.</p></div>
      <div class="finance"><p>$21.00/month with 12 month financing*</p><p>From $249 or $20.75/mo. for 12 mo.</p></div>
      <p class="gift">This item is gift eligible</p><p class="final">Final Sale items cannot be returned, canceled, or exchanged</p>`;
    const md = htmlToMarkdown(page(`${summary}${badges}${description}`), URL).markdown;
    expect(md).toContain('$249.00');
    expect(md).toContain('700-fill down jacket');
    expect(md).not.toMatch(/Delivery|Arrives|returns|exchanges|Trial|financing|mo\.|gift eligible|Final Sale/);
  });

  it('keeps a description that starts like a badge but says more', () => {
    const long = `<p>Free shipping was never the point: this jacket is built to be repaired, with spare baffles and a patch kit in the pocket, so it lasts for decades.</p>`;
    expect(htmlToMarkdown(page(`${summary}${long}${description}`), URL).markdown).toContain('built to be repaired');
  });

  it('drops the recently viewed strip by its heading', () => {
    const viewed = `<div class="history"><h3>Your Recently Viewed Items</h3><a href="/products/alpine-down-jacket">Alpine Down Jacket</a></div>`;
    expect(htmlToMarkdown(page(`${summary}${description}${viewed}`), URL).markdown).not.toMatch(/Recently Viewed/i);
  });
});

describe('product page: fine print', () => {
  it('drops the disclaimers and legal notes under the product, and keeps a seller-legal-text marker out of it', () => {
    const fine = `<div class="pdp-disclaimer"><p>* Fill power tested by an independent lab under controlled conditions. Results may vary with humidity and care.</p>
      <p>† Financing subject to credit approval. Rates between 0% and 30% APR.</p></div>
      <div class="legal"><p>© 2025 Northbound. Northbound and the Northbound logo are trademarks of Northbound Outfitters.</p></div>
      <div class="sellerLegalText"><p>The seller assumes all responsibility for this listing and its repairs.</p></div>`;
    const md = htmlToMarkdown(page(`${summary}${description}${fine}`), URL).markdown;
    expect(md).toContain('700-fill down jacket');
    expect(md).toContain('assumes all responsibility');
    expect(md).not.toMatch(/Results may vary|credit approval|trademarks of/);
  });

  it('keeps a disclaimer-classed block on an article, where notes belong to the text', () => {
    const article = `<html><head><title>Down fill explained</title></head><body><main><article><h1>Down fill explained</h1>
      <p>Fill power measures how much space an ounce of down takes up, and higher numbers mean warmer jackets for their weight.</p>
      <p>Most jackets sold for hillwalking sit between 600 and 800 fill, which is warm enough for cold and dry days.</p>
      <div class="disclaimer"><p>This guide reflects our own tests of twelve jackets over two winters in the Cairngorms.</p></div>
      </article></main></body></html>`;
    expect(htmlToMarkdown(article, 'https://blog.test/down-fill').markdown).toContain('our own tests of twelve jackets');
  });
});

describe('product page: template fields', () => {
  it("drops a definition list's entries named with a developer's key, and keeps the spec entries", () => {
    const fields = `<dl class="product-info">
      <dt>SKU:</dt><dd>AL-DJ-01</dd>
      <dt>fabric:</dt><dd>Recycled ripstop nylon, 700-fill down</dd>
      <dt>cat_thumb_Moss Green:</dt><dd>https://cdn.shop.test/thumbs/alpine_moss_green_thumb.jpg</dd>
      <dt>returns_chunk-1:</dt><dd>Returns within 30 days of the invoice date.</dd>
      <dt>cert_UPF50+:</dt><dd>yes</dd>
    </dl>`;
    const md = htmlToMarkdown(page(`${summary}${description}${fields}`), URL).markdown;
    expect(md).toContain('AL-DJ-01');
    expect(md).toContain('Recycled ripstop nylon');
    expect(md).not.toMatch(/cat_thumb|thumbs\/alpine|returns_chunk|invoice date|cert_UPF/);
  });
});

describe('product page: the gallery', () => {
  it('keeps the first picture of a gallery of pictures without text', () => {
    const gallery = `<div class="product-gallery">${[1, 2, 3, 4, 5]
      .map((i) => `<div class="slide"><img src="/img/alpine-${i}.jpg" alt="Alpine Down Jacket, view ${i}"></div>`)
      .join('')}</div>`;
    const md = htmlToMarkdown(page(`${gallery}${summary}${description}`), URL).markdown;
    expect(md).toContain('/img/alpine-1.jpg');
    expect(md).not.toMatch(/alpine-[2-5]\.jpg/);
    expect(md).toContain('$249.00');
  });

  it('keeps pictures that have words of their own (captions, colour names)', () => {
    const figures = `<div class="looks">${['Moss on the trail', 'Black in town', 'Rust at camp']
      .map((c, i) => `<figure><img src="/img/look-${i}.jpg" alt=""><figcaption>${c}</figcaption></figure>`)
      .join('')}</div>`;
    const md = htmlToMarkdown(page(`${summary}${description}${figures}`), URL).markdown;
    expect(md).toContain('/img/look-2.jpg');
  });
});

describe('product page: the region', () => {
  const html = `<body><header><a href="/">Northbound</a></header><div class="page">
      <section class="buy-box"><div class="columns"><div class="summary-column">
        <h1>Alpine Down Jacket</h1><p class="price">$249.00</p>
        <div class="description"><p>A 700-fill down jacket for cold, dry days in the hills, with a baffled body, an insulated hood and a two-way zip.</p></div>
      </div></div></section>
      <section class="feature"><h2>Warm when it matters</h2><p>Baffles keep the down where your body needs it, so there are no cold spots at the seams on a windy ridge.</p></section>
      <section class="feature"><h2>Packs into its pocket</h2><p>The whole jacket stuffs into its chest pocket, small enough for a day pack or a bike bag on the way to the crag.</p></section>
    </div><footer><p>© Northbound Outfitters</p></footer></body>`;

  const regionOf = (pageType: PageType): string => {
    const doc = parseHtml(html);
    prepareDocument(doc);
    const body = findFirst(doc, 'body') as Element;
    const top = (findFirst(body, 'h1') as Element).parent?.children.find(
      (c) => c.type === 'tag' && c.attribs.class === 'description',
    ) as Element;
    const { roots } = extractRegion(body, computeStats(body), { pageType, titles: new Set(), top, authorKnown: true });
    return roots.map((r) => r.attribs.class ?? r.name).join(',');
  };

  it('climbs through a wrapper that holds only the summary column to the details beside it', () => {
    expect(regionOf('product')).toBe('page');
  });

  it('stays at the summary column on other region pages (a climb there reaches header bars)', () => {
    expect(regionOf('service')).toBe('summary-column');
  });
});

describe('product page: the declared description', () => {
  const declared =
    'The Alpine is a 700-fill down jacket for cold, dry days in the hills. Its baffled body keeps the down in place, the insulated hood fits over a helmet, and it packs into its own chest pocket.';
  const ld = (description: string): string =>
    `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', name: 'Alpine Down Jacket', description })}</script>`;

  it('is put first when the page renders it with scripts and the content barely holds its words', () => {
    const html = page(`${summary}<div id="description-root" data-widget="pdp-description"></div>`, ld(declared));
    const md = htmlToMarkdown(html, URL).markdown;
    expect(md.startsWith('The Alpine is a 700-fill down jacket')).toBe(true);
    expect(md).toContain('$249.00');
  });

  it('is not repeated when the content already holds it', () => {
    const html = page(`${summary}${description}`, ld(declared));
    const md = htmlToMarkdown(html, URL).markdown;
    expect(md).not.toContain('fits over a helmet');
    expect(md.match(/packs into its own chest pocket/g)).toHaveLength(1);
  });

  it('is read from JSON-LD as plain text: HTML tags and entities out, a URL-encoded one decoded', () => {
    const raw = (description: string): RawMetadata => ({
      metas: new Map(),
      titleTag: null,
      htmlLang: null,
      baseHref: null,
      jsonLd: [JSON.stringify({ '@type': 'Product', name: 'Sofa', description })],
      firstH1: null,
      relAuthor: null,
    });
    expect(buildMetadata(raw('<p>A curved sofa &amp; <b>two</b> cushions.</p>')).productDescription).toBe('A curved sofa & two cushions.');
    expect(buildMetadata(raw('An%20elegant%20curved%20sofa.')).productDescription).toBe('An elegant curved sofa.');
    expect(buildMetadata({ ...raw(''), jsonLd: ['{"@type":"Article","description":"A story."}'] }).productDescription).toBeNull();
  });
});

describe('product page: pictures', () => {
  const views = `<div class="pdp-media"><img src="/img/alpine-front.jpg" alt="Alpine Down Jacket in Moss, front"></div>
    <div class="product-description"><p>The Alpine is a 700-fill down jacket for cold, dry days in the hills, with a baffled body and an insulated hood.</p>
    <p><img src="/img/alpine-back.jpg" alt="Alpine Down Jacket - Picture 2 of 4"></p>
    <p><img src="/img/alpine-detail.jpg"></p>
    <p><img src="/img/alpine-hood.jpg" alt="The insulated hood cinched around a climber's helmet on a windy ridge"></p></div>`;

  it("keeps the first picture and those whose alt says something, not more views under the product's name", () => {
    const md = htmlToMarkdown(page(`${summary}${views}`), URL).markdown;
    expect(md).toContain('alpine-front.jpg');
    expect(md).toContain('alpine-hood.jpg');
    expect(md).not.toMatch(/alpine-back\.jpg|alpine-detail\.jpg/);
  });
});

describe('product page: dialogs', () => {
  it("does not take a consent dialog's title for the page heading", () => {
    const dialog = `<div id="privacy-prompt" role="alertdialog" aria-modal="true"><h1>Your Privacy Settings</h1>
      <p>We use cookies and similar technologies for performance, analytics, personalisation and advertising, and to help our site function.</p></div>`;
    const html = `<html><head><title>Alpine Down Jacket | Northbound</title>${PRODUCT_LD}</head><body>
      <div class="page"><div class="listing">${summary}${description}</div></div>${dialog}</body></html>`;
    const md = htmlToMarkdown(html, URL).markdown;
    expect(md).toContain('700-fill down jacket');
    expect(md).not.toMatch(/Privacy Settings|similar technologies/);
  });
});

describe('product page: a lazy carousel of other products', () => {
  it('drops slides that show only a price beside a linked picture, and the empty slides still to load', () => {
    const slide = (price: string, i: number): string =>
      `<li class="carousel-card"><a href="/dp/other-${i}"><img src="/img/o-${i}.jpg" alt=""><span class="price">${price}</span></a></li>`;
    const carousel = `<div class="carousel"><ol class="carousel-list">${['EUR 8.06', 'EUR 5.76', 'EUR 10.37']
      .map(slide)
      .join('')}<li class="carousel-card"></li><li class="carousel-card"></li><li class="carousel-card"></li></ol></div>`;
    const md = htmlToMarkdown(page(`${summary}${description}${carousel}`), URL).markdown;
    expect(md).toContain('$249.00');
    expect(md).not.toMatch(/EUR 8\.06|EUR 10\.37/);
  });

  it('keeps a bulk-price table without links (the product’s own prices)', () => {
    const bulk = `<ul class="bulk"><li class="tier">1–9 $20.00</li><li class="tier">10–49 $15.00</li><li class="tier">50+ $13.00</li></ul>`;
    const md = htmlToMarkdown(page(`${summary}${bulk}${description}`), URL).markdown;
    expect(md).toContain('10–49 $15.00');
  });
});

describe('product page: shop prompts', () => {
  it('drops feedback prompts, "report an issue", form errors and a carousel’s paging labels', () => {
    const prompts = `<div class="fb"><p>Did you find this product summary feature useful?</p><p>Thank you for your feedback</p></div>
      <div class="report"><a href="#report">Report an issue with this product or seller</a></div>
      <span class="pager">Next page of related Sponsored Products</span>
      <div class="ship"><p>There was a problem calculating your shipping. Please try again.</p><p>Please enter a valid postal code.</p>
      <a href="/report">Report this item to Northbound</a></div>`;
    const md = htmlToMarkdown(page(`${summary}${description}${prompts}`), URL).markdown;
    expect(md).toContain('700-fill down jacket');
    expect(md).not.toMatch(
      /feature useful|your feedback|Report an issue|Next page of|calculating your shipping|valid postal|Report this item/,
    );
  });

  it('drops expert-chat and error-report prompts, and link controls that only say "Embed", "View all 52" or "Take the quiz"', () => {
    const controls = `<div class="chat"><a href="/chat">Video Chat with a Outdoor Gear Expert - Live</a></div>
      <div class="errors"><a href="/errors">See any errors on this page?</a></div>
      <div class="tools"><a href="#embed">Embed</a></div><div class="more"><a href="/reviews">View all 52</a></div>
      <div class="langs"><a href="#langs">See all 16 supported languages</a></div>
      <div class="quiz"><a href="/quiz">Take the quiz</a></div><div class="full"><a href="#details">Read full details</a></div>
      <div class="dlc"><a href="/cart">Add all extras to cart</a></div>`;
    const md = htmlToMarkdown(page(`${summary}${controls}${description}`), URL).markdown;
    expect(md).toContain('700-fill down jacket');
    expect(md).not.toMatch(/Expert|errors on this page|Embed|View all|supported languages|quiz|full details|Add all/);
  });

  it('drops sign-in prompts, "open in the app" banners and the price-alert control, keeps a sign-in offer', () => {
    const prompts = `<div class="signin"><p>You're not signed in!</p><p>Open this page in the Northbound App to wishlist, follow and purchase</p></div>
      <div class="wl"><p>Sign in to add this item to your wishlist, follow it, or mark it as ignored</p></div>
      <div class="alert"><span>Price alert</span></div><div class="alert-note"><p>Log in to set a price alert on this product.</p></div>
      <div class="offer"><p>Sign in for free shipping on this jacket</p></div>`;
    const md = htmlToMarkdown(page(`${summary}${description}${prompts}`), URL).markdown;
    expect(md).toContain('700-fill down jacket');
    expect(md).toContain('Sign in for free shipping');
    expect(md).not.toMatch(/not signed in|Northbound App|mark it as ignored|Price alert|price alert/);
  });
});

describe('product page: blocks said twice', () => {
  it('keeps the first copy of a block of text the page prints again word for word', () => {
    const slide = (t: string) =>
      `<div class="slide"><h3>${t}</h3><p>${t} is what the Alpine was designed around, tested on winter ridges for three seasons.</p></div>`;
    const carousel = `<div class="carousel">${slide('Warmth without weight')}${slide('Packs into its pocket')}${slide('Warmth without weight')}</div>`;
    const stock = '<p class="stock">Only a few left in this colour: order soon.</p>';
    const md = htmlToMarkdown(page(`${summary}${stock}${description}${carousel}${stock}`), URL).markdown;
    expect(md.match(/Warmth without weight is what/g)).toHaveLength(1);
    expect(md.match(/Packs into its pocket is what/g)).toHaveLength(1);
    expect(md.match(/Only a few left/g)).toHaveLength(1);
  });

  it('keeps short values that repeat (two spec lists saying "Yes")', () => {
    const specs = (m: string) => `<h3>${m}</h3><ul><li>Hood: Yes</li><li>Packable: Yes</li></ul>`;
    const md = htmlToMarkdown(page(`${summary}${description}${specs('Alpine')}${specs('Alpine Hoody')}`), URL).markdown;
    expect(md.match(/Packable: Yes/g)).toHaveLength(2);
  });
});

describe('product page: a field printing its values again and again', () => {
  it('keeps each long sentence of a repeated blurb once', () => {
    const quote =
      '"A graceful volume about the mountains and the people who climb them, full of new revelations about familiar ridges." - The Hill Review. ';
    const other = '"Every page smells of pine and cold granite, and every chapter ends on a summit worth the climb." - Trail Weekly. ';
    const blurbs = `${quote}${other}`.repeat(12);
    const details = `<div class="details"><span class="name">Reviews</span><span class="value">${blurbs}</span></div>`;
    const md = htmlToMarkdown(page(`${summary}${description}${details}`), URL).markdown;
    expect(md.match(/graceful volume/g)).toHaveLength(1);
    expect(md.match(/cold granite/g)).toHaveLength(1);
  });
});

describe('product page: keyboard furniture and shop sections', () => {
  it('drops skip links to a mark on the page, and "Get the look" / "As seen on Instagram" sections', () => {
    const extra = `<a href="${URL}#skip-gallery">Skip images</a>
      <section class="look"><h2>Get the look</h2><p>Ideas based on your recently viewed products, picked for the trail and the town.</p></section>
      <section class="ugc"><h2>As seen on Instagram</h2><p>See how our jackets look on real hikers! Share your photos with #northbound for a chance to be seen here.</p></section>`;
    const md = htmlToMarkdown(page(`${summary}${extra}${description}`), URL).markdown;
    expect(md).toContain('700-fill down jacket');
    expect(md).not.toMatch(/Skip images|Get the look|recently viewed|Instagram|real hikers/);
  });

  it('drops bundle offers, add-on pickers, other sellers, testimonials and review digests under their headings', () => {
    const extra = `<section class="bundles"><h2>Buy a bundle and save!</h2><p>Alpine Down Jacket and Summit Merino Beanie together, with ten percent off both.</p></section>
      <section class="extras"><h2>Choose your add-ons</h2><p>A stuff sack that keeps the jacket dry inside a wet pack, sold on its own.</p></section>
      <section class="sellers"><h2>More seller options (3)</h2><p>Starting from $239.00 with free shipping from a partner store.</p></section>
      <section class="quotes"><h2>Customer testimonials</h2><p>Warmest thing I own, and it weighs nothing at all in the bag.</p></section>
      <section class="digest"><h3>Customers say</h3><p>Shoppers find the hood roomy and the zip smooth, though a few mention the sizing runs small.</p></section>`;
    const md = htmlToMarkdown(page(`${summary}${description}${extra}`), URL).markdown;
    expect(md).toContain('700-fill down jacket');
    expect(md).not.toMatch(
      /bundle|ten percent|add-ons|stuff sack|seller options|partner store|testimonials|weighs nothing|Customers say|roomy/,
    );
  });

  it('keeps a link that says "Skip" when it goes to another page', () => {
    const md = htmlToMarkdown(page(`${summary}${description}<p><a href="/products/skip-rope">Skip rope</a></p>`), URL).markdown;
    expect(md).toContain('Skip rope');
  });
});

describe('product page: form controls', () => {
  it('drops the labels every swatch of a group repeats, and keeps named choices', () => {
    const swatch = (c: string, checked = ''): string =>
      `<span class="swatch" style="background-image:url(/sw/${c}.jpg)"><input type="checkbox" name="swatch-checkbox" id="sw-${c}" ${checked}><label for="sw-${c}"><span>Swatch</span></label></span>`;
    const colours = `<div class="colours">${['moss', 'rust', 'black', 'navy'].map((c, i) => swatch(c, i === 0 ? 'checked' : '')).join('')}</div>`;
    const sizes = `<div class="sizes">${['Small', 'Medium', 'Large']
      .map((s) => `<label><input type="radio" name="size" value="${s}"> ${s}</label>`)
      .join('')}</div>`;
    const md = htmlToMarkdown(page(`${summary}${colours}${sizes}${description}`), URL).markdown;
    expect(md).not.toContain('Swatch');
    expect(md).toContain('Medium');
    expect(md).toContain('700-fill down jacket');
  });

  it('keeps a group whose labels differ, even when most repeat a word', () => {
    const html = page(
      `${summary}<div class="opts">${['Gift wrap', 'Gift wrap', 'Gift card']
        .map((t, i) => `<label><input type="checkbox" name="extras" value="${i}"> ${t}</label>`)
        .join('')}</div>${description}`,
    );
    expect(htmlToMarkdown(html, URL).markdown).toContain('Gift card');
  });

  it('drops a strip of cards for accessories whose colour pickers outweigh their links', () => {
    const picker = (i: number): string =>
      `<div class="picker"><span>Colour: Sage Trio</span>${[
        'Sage Trio',
        'Harbour Blue Trio',
        'Desert Clay Trio',
        'Charcoal Trio',
        'Sandstone Trio',
        'Glacier White Trio',
      ]
        .map((c, j) => `<div><input type="radio" name="colour-${i}" id="c-${i}-${j}"><label for="c-${i}-${j}">${c}</label></div>`)
        .join('')}</div>`;
    const item = (name: string, price: string, i: number): string =>
      `<div class="essential-item"><input type="checkbox" id="add-${i}"><label for="add-${i}"><img src="/acc/${i}.jpg" alt=""><a href="/products/acc-${i}">${name}</a><span class="price">${price}</span></label>${picker(i)}</div>`;
    const strip = `<div class="essentials"><p>Add the essentials</p><div class="essential-list">${item('Summit Slider Lid Pack', '$10.00', 1)}${item(
      'Summit Medium Straw Lid',
      '$12.00',
      2,
    )}${item('Summit Tumbler Handle', '$15.00', 3)}</div></div>`;
    const md = htmlToMarkdown(page(`${summary}${description}${strip}`), URL).markdown;
    expect(md).toContain('packs into its own chest pocket');
    expect(md).not.toMatch(/Slider Lid Pack|Straw Lid|Harbour Blue Trio|\$12\.00/);
  });

  it('drops an order form: a table of variants with a quantity field per row', () => {
    const row = (v: string, i: number): string =>
      `<tr class="variant-item"><td>${v}</td><td><label for="q-${i}">Quantity</label><input type="number" id="q-${i}" name="updates[]" value="0"></td><td>$249.00/ea</td><td>$0.00</td></tr>`;
    const form = `<form action="/cart/update"><table class="order-list"><thead><tr><th>Variant</th><th>Quantity</th><th>Price</th><th>Total</th></tr></thead><tbody>${[
      'Moss / S',
      'Moss / M',
      'Rust / S',
    ]
      .map(row)
      .join('')}</tbody></table></form>`;
    const md = htmlToMarkdown(page(`${summary}${description}${form}`), URL).markdown;
    expect(md).toContain('| Weight | 410 g |');
    expect(md).not.toMatch(/Moss \/ M|\$249\.00\/ea/);
  });

  it('drops the price converted into other currencies, and keeps a list of sizes with numbers', () => {
    const currencies = `<div class="price-info"><ul class="price-list">${[
      ['AED', '914.50AED'],
      ['GBP', '£196.40'],
      ['CAD', '$341.20'],
      ['SGD', '$332.75'],
    ]
      .map(([c, p]) => `<li><b>${c}</b>: <span>${p}</span></li>`)
      .join('')}</ul></div>`;
    const fits = '<ul class="fits"><li>UK 8</li><li>UK 10</li><li>UK 12</li></ul>';
    const md = htmlToMarkdown(page(`${summary}${currencies}${fits}${description}`), URL).markdown;
    expect(md).toContain('$249.00');
    expect(md).not.toMatch(/914\.50|£196\.40|SGD/);
    expect(md).toContain('UK 10');
  });
});

describe('product page: buy-box controls', () => {
  it('drops blocks that are only a control of the buy box, and keeps a sentence that names one', () => {
    const tools = `<div class="tools"><span class="wishlist">Wishlist</span><a href="/size-guide">Size guide</a>
      <span class="dims">View dimensions</span><a href="/products/item#top">Back to navigation</a></div>
      <p>See the size guide: the Alpine runs small, so order one size up.</p><p>Quantity:</p>`;
    const md = htmlToMarkdown(page(`${summary}${tools}${description}`), URL).markdown;
    expect(md).not.toMatch(/Wishlist|\[Size guide\]|View dimensions|Back to navigation/);
    expect(md).toContain('the Alpine runs small');
    expect(md).toContain('Quantity:');
  });
});
