/**
 * Grids (collections and listings, issues 14 and 22): the cards are the content, the
 * pictures that repeat their names are not. Fixtures are self-written category and index
 * pages; the page type is given so each rule is tested apart from the classifier.
 */
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../../src/convert/html/index.js';
import type { PageType } from '../../../../src/convert/html/page-type.js';

const page = (main: string) =>
  `<html><head><title>Tents | Trailhead Outfitters</title></head><body>` +
  `<header><nav><a href="/">Home</a> <a href="/tents">Tents</a></nav></header>` +
  `<main><h1>Backpacking tents</h1><p>Light shelters for nights on the trail, from solo bivies to roomy three-person domes.</p>${main}</main>` +
  `<footer><p>© Trailhead Outfitters</p></footer></body></html>`;

const TENTS = [
  ['Ridgeline 2', '$349.00', 'ridgeline-2'],
  ['Talus 4', '$529.00', 'talus-4'],
  ['Copper Spur UL1', '$399.95', 'copper-spur-ul1'],
  ['Hubba Hubba 2', '$479.95', 'hubba-hubba-2'],
];

const productCard = ([name, price, slug]: string[]) =>
  `<li class="product-card"><a href="/p/${slug}"><img src="https://cdn.shop.test/img/${slug}-front-1200x1200.jpg" alt="${name} backpacking tent"></a>` +
  `<h3 class="product-card__name"><a href="/p/${slug}">${name}</a></h3><span class="price">${price}</span></li>`;

const read = (html: string, pageType: PageType = 'collection') => htmlToMarkdown(html, 'https://shop.test/c/tents', { pageType }).markdown;

describe('card pictures on a grid', () => {
  it('are left out: each card keeps its name, its link and its price', () => {
    const md = read(page(`<ul class="grid">${TENTS.map(productCard).join('')}</ul>`));
    expect(md).not.toContain('cdn.shop.test');
    for (const [name, price, slug] of TENTS) {
      expect(md).toContain(`[${name}](https://shop.test/p/${slug})`);
      expect(md).toContain(price);
    }
  });

  it('are still listed in `images`', () => {
    const html = page(`<ul class="grid">${TENTS.map(productCard).join('')}</ul>`);
    const out = htmlToMarkdown(html, 'https://shop.test/c/tents', { pageType: 'collection', images: true });
    expect(out.images?.map((i) => i.url)).toContain('https://cdn.shop.test/img/talus-4-front-1200x1200.jpg');
  });

  it('stay on an article, on a grid of fewer than three cards, and in a gallery without names', () => {
    const two = `<ul class="grid">${TENTS.slice(0, 2).map(productCard).join('')}</ul>`;
    expect(read(page(two))).toContain('![Ridgeline 2 backpacking tent]');
    const gallery =
      '<div class="gallery">' +
      TENTS.map(
        ([, , slug]) =>
          `<a class="tile" href="/photos/${slug}"><img src="https://cdn.shop.test/img/${slug}-camp.jpg" alt="Tent at camp"></a>`,
      ).join('') +
      '</div>';
    expect(read(page(gallery))).toContain('https://cdn.shop.test/img/ridgeline-2-camp.jpg');
    const grid = `<ul class="grid">${TENTS.map(productCard).join('')}</ul>`;
    expect(read(page(grid), 'article')).toContain('cdn.shop.test');
  });

  it('are left out when the card is the link (a teaser of a blog index)', () => {
    const teasers = ['How to pitch in wind', 'Choosing a sleeping pad', 'Ten trail breakfasts']
      .map(
        (t, i) =>
          `<article class="post-teaser"><a class="post-teaser__link" href="/blog/${i}"><img src="https://cdn.shop.test/blog/${i}-hero-1600x900.jpg" alt="${t}">` +
          `<h2>${t}</h2><p>Notes from a season of guiding on exposed ridges and sheltered valleys.</p></a></article>`,
      )
      .join('');
    const md = read(page(`<div class="posts">${teasers}</div>`), 'listing');
    expect(md).not.toContain('cdn.shop.test/blog');
    expect(md).toContain('How to pitch in wind');
  });
});

const INTRO_PROSE =
  '<p>Tomato sauce is the backbone of a weeknight kitchen. We tested slow-simmered, raw, roasted and pressure-cooked versions, ' +
  'tasted them side by side over pasta, pizza and eggs, and kept the ones worth the effort. Some take ten minutes, some an afternoon, ' +
  'and every one of them freezes well, so make a double batch.</p>';
const RECIPES = [
  'Quick marinara with garlic',
  'Roasted cherry tomato sauce',
  'Slow-cooked Sunday gravy',
  'Raw summer tomato sauce',
  'Vodka sauce',
];
const recipeCards = RECIPES.map(
  (r, i) =>
    `<li class="card"><a href="/recipes/${i}"><span class="card__title">${r}</span></a><span class="card__meta">${20 + i * 10} mins</span></li>`,
).join('');

describe('a page that declares itself an index', () => {
  it('is a grid (CollectionPage in JSON-LD), whatever its og:type and intro prose say', () => {
    const ld = JSON.stringify({ '@context': 'https://schema.org', '@type': ['CollectionPage', 'ItemList'], name: 'Tomato sauce recipes' });
    const html =
      `<html><head><meta property="og:type" content="article"><script type="application/ld+json">${ld}</script><title>Tomato sauce recipes</title></head>` +
      `<body><main><h1>Tomato sauce recipes</h1>${INTRO_PROSE}${INTRO_PROSE}<ul class="cards">${recipeCards}</ul></main></body></html>`;
    const out = htmlToMarkdown(html, 'https://food.test/tomato-sauce-recipes-512');
    expect(['collection', 'listing']).toContain(out.metadata.pageType);
    for (const r of RECIPES) expect(out.markdown).toContain(r);
  });
});

describe('an index read as a story', () => {
  // A page builder's layout: every entry a section of columns of widgets, the text five levels down.
  const trail = (name: string, i: number) =>
    `<section class="builder-section"><div class="builder-column"><div class="builder-widget"><div class="builder-widget__content">` +
    `<h3><a href="/trails/${i}">${name}</a></h3>` +
    `<p>A ${3 + i}-mile loop through oak woodland and over two creek crossings, with a view of the valley from the saddle at the halfway point.</p>` +
    (i === 0
      ? '<p>Parking at the trailhead fills by nine on weekends, so come early; dogs on leash, bikes on the fire road only.</p>'
      : '') +
    '</div></div></div></section>';
  const TRAILS = ['Ridge Loop Trail', 'Cedar Creek Path', 'Hawk Point Overlook', 'Old Mill Connector', 'Sunset Meadow Walk'];
  const html =
    '<html><head><title>Trails</title><meta property="og:type" content="article"><meta property="article:published_time" content="2024-05-02T08:00:00Z"></head><body>' +
    '<div id="wrap"><h1>Trails</h1><div class="builder-page"><div class="builder-inner">' +
    TRAILS.map(trail).join('') +
    '</div></div></div><div class="footer-links"><a href="/about">About</a> <a href="/contact">Contact</a></div></body></html>';

  it('keeps every entry when the best block is one of many sibling teasers, and types the page a listing', () => {
    const out = htmlToMarkdown(html, 'https://parks.test/trails/');
    for (const t of TRAILS) expect(out.markdown).toContain(t);
    expect(out.metadata.pageType).toBe('listing');
  });

  it('leaves a story with a few related links under it alone', () => {
    const story =
      '<html><head><title>Rain returns to the valley</title></head><body><article><h1>Rain returns to the valley</h1>' +
      `${INTRO_PROSE}${INTRO_PROSE}${INTRO_PROSE}</article>` +
      `<div class="related">${TRAILS.slice(0, 4).map(trail).join('')}</div></body></html>`;
    const out = htmlToMarkdown(story, 'https://news.test/2024/05/rain-returns-to-the-valley', { pageType: 'article' });
    expect(out.metadata.pageType).toBe('article');
    expect(out.markdown).not.toContain('Cedar Creek Path');
  });
});

describe('per-card chrome on a grid', () => {
  const card = ([name, price, slug]: string[], i: number) =>
    `<li class="tile"><h3><a href="/p/${slug}">${name}</a></h3>` +
    `<div class="tile__price"><span>${price}</span><div class="tile__badge">Save ${10 + i * 5}%</div><span>compared to $599.00</span></div>` +
    `<div class="tile__rating">4.${i} (${100 + i})</div>` +
    (i === 0 ? '<div class="tile__flag">Top rated</div>' : '<div class="tile__flag">Only 2 left!</div>') +
    '<button class="tile__compare">Compare</button><div class="tile__label">Compare</div><div class="tile__more">More options</div></li>';

  it('controls and merchandising badges go; name, prices and ratings stay, and the prices stay apart', () => {
    const md = read(page(`<ul class="tiles">${TENTS.map(card).join('')}</ul>`));
    for (const gone of ['Compare', 'More options', 'Save 10%', 'Top rated', 'Only 2 left']) expect(md).not.toContain(gone);
    expect(md).toContain('$349.00 compared to $599.00');
    expect(md).toContain('4.1 (101)');
    expect(md).toContain('[Talus 4](https://shop.test/p/talus-4)');
  });

  it('the same words in a sentence, or on an article, stay', () => {
    const prose = '<p>Compare the Talus 4 with last year’s model: it is lighter, and the fly pitches first in the rain.</p>';
    expect(read(page(`${prose}<ul class="tiles">${TENTS.map(card).join('')}</ul>`))).toContain('Compare the Talus 4');
    const article = `<html><body><article><h1>Field notes</h1>${prose.repeat(3)}<p>Top rated</p></article></body></html>`;
    expect(htmlToMarkdown(article, 'https://shop.test/blog/notes', { pageType: 'article' }).markdown).toContain('Top rated');
  });
});

describe('a card of the grid', () => {
  it('is content whatever words its classes carry (a subscription flag, a modal trigger)', () => {
    const card = ([name, price, slug]: string[]) =>
      `<li class="grid__item"><div class="card-wrapper product-card-wrapper subscription-eligible"><div class="card">` +
      `<h3 class="card__heading"><a href="/products/${slug}">${name}</a></h3><span class="price">${price}</span></div></div></li>`;
    const md = read(
      page(
        `<ul class="product-grid">${TENTS.map(card).join('')}</ul><div class="newsletter-subscription-box"><p>Sign up for our newsletter and get 10% off your first order.</p></div>`,
      ),
    );
    for (const [name] of TENTS) expect(md).toContain(name as string);
    expect(md).not.toContain('newsletter');
    const ad = `<li class="grid__item sponsored"><div class="card"><h3><a href="/ads/click?id=9">Stormshield 3 Tent</a></h3><span>$199.00</span></div></li>`;
    expect(read(page(`<ul class="product-grid">${TENTS.map(card).join('')}${ad}</ul>`))).not.toContain('Stormshield');
  });
});

describe('a category page whose theme names its grid wrappers for the pager and the filters', () => {
  const card = ([name, price, slug]: string[]) =>
    `<article class="product-card"><a href="/p/${slug}"><img src="https://cdn.shop.test/${slug}.jpg" alt=""></a>` +
    `<h4><a href="/p/${slug}">${name}</a></h4><span>${price}</span></article>`;
  const html =
    '<html><head><title>Tents</title></head><body><main><h1>Backpacking tents</h1>' +
    '<div class="filtering-and-pagination-container"><div class="filters-column"><h3>Filter</h3><ul><li>Brand</li><li>Capacity</li></ul></div>' +
    `<div class="product-column"><div class="pagination-wrap"><div class="product-grid">${TENTS.map(card).join('')}</div>` +
    '<div class="pagination-bottom"><a href="?page=2">Next</a></div></div></div></div></main></body></html>';

  it('keeps the grid, and still drops the filters and the pager', () => {
    const md = read(html);
    for (const [name, price] of TENTS) {
      expect(md).toContain(name);
      expect(md).toContain(price);
    }
    expect(md).not.toContain('Capacity');
    expect(md).not.toContain('Next');
  });

  it('leaves other page types alone (a pager-named block is chrome there)', () => {
    expect(read(html, 'service')).not.toContain('Talus 4');
  });
});

describe('the category text beside <main>', () => {
  const guide =
    '<div class="seo-container"><h2>How to choose a backpacking tent</h2>' +
    '<p>Weight, floor area and weather protection pull in different directions, so start from the trips you take most often and the number of people who share the tent.</p>' +
    '<p>Freestanding tents pitch anywhere, including on rock and sand, while semi-freestanding designs save weight by relying on one or two stakes, which matters on long routes.</p>' +
    '<p>Double-wall tents manage condensation better in wet and cold weather; single-wall shelters are lighter and faster to pitch, and shine in dry mountain air.</p></div>';
  const card = ([name, price, slug]: string[]) =>
    `<li class="card"><a href="/p/${slug}"><img src="https://cdn.shop.test/${slug}.jpg" alt="">${name}</a><span>${price}</span></li>`;
  const shell = (afterMain: string) =>
    '<html><head><title>Tents</title></head><body><header><nav><a href="/">Home</a></nav></header><div class="page">' +
    `<main><h1>Backpacking tents</h1><p>${'Light shelters for nights on the trail, from solo bivies to roomy three-person domes. '.repeat(4)}</p>` +
    `<ul class="grid">${TENTS.map(card).join('')}</ul></main>${afterMain}</div>` +
    '<footer><p>© Trailhead Outfitters. Free returns within thirty days, on every order, everywhere we ship, for members and guests alike.</p></footer></body></html>';

  it('is kept after the grid, in document order', () => {
    const md = read(shell(guide));
    expect(md).toContain('Talus 4');
    expect(md).toContain('Freestanding tents pitch anywhere');
    expect(md.indexOf('Talus 4')).toBeLessThan(md.indexOf('Freestanding tents'));
    expect(md).not.toContain('Free returns');
  });

  it('is not taken from a newsletter box or a link list beside <main>', () => {
    const links = `<div class="popular">${Array.from({ length: 30 }, (_, i) => `<a href="/c/${i}">Popular search number ${i}</a>`).join(' ')}</div>`;
    const newsletter =
      '<div class="newsletter"><p>Sign up for our letters: trail reports, new gear, repair tips and the occasional discount, twice a month, written by our guides, with no spam, and you can leave at any time, with one click, from any of them.</p>' +
      '<p>We keep your address to ourselves, never sell it, never share it, and delete it the day you leave, as the law and good manners both ask of us.</p></div>';
    const md = read(shell(links + newsletter));
    expect(md).not.toContain('Popular search');
    expect(md).not.toContain('Sign up for our letters');
  });
});

describe('shop labels on a grid card', () => {
  it('go: quick shop, sold out, variant counts, result counts', () => {
    const card = ([name, price, slug]: string[], i: number) =>
      `<li class="card"><a href="/p/${slug}">${name}</a><div><span>${price}</span></div>` +
      `<span class="swatch-count">+${i + 2}</span><div class="flag">${i === 0 ? 'Sold out' : 'New'}</div><quick-shop><span>Quick Shop</span></quick-shop></li>`;
    const md = read(page(`<p>Showing all 4 results</p><ul class="grid">${TENTS.map(card).join('')}</ul>`));
    for (const gone of ['Quick Shop', 'Sold out', '+2', 'Showing all']) expect(md).not.toContain(gone);
    for (const [name, price] of TENTS) {
      expect(md).toContain(name);
      expect(md).toContain(price);
    }
  });
});

describe('more card controls and badges', () => {
  const SIX = [...TENTS, ['Dagger 2', '$459.00', 'dagger-2'], ['Nallo 3', '$689.00', 'nallo-3']];
  const card = ([name, price, slug]: string[], i: number) =>
    `<li class="card"><a href="/p/${slug}"><img src="/img/${slug}.jpg" alt=""></a><a href="/p/${slug}">${name}</a><div><span>${price}</span></div>` +
    `<div class="flag">${['New color', 'Award Winner', 'Coming soon', 'Nouveau', 'Available now', 'New colors'][i]}</div>` +
    `<div class="cta"><a href="/p/${slug}">Product Details</a></div><div class="cta"><a href="/quote">Get Pricing</a></div>` +
    `<div class="more">${i % 2 ? 'More Variations' : 'Pre Order Now'}</div><div class="rev"><a href="/p/${slug}#reviews">Be the first to review this product</a></div></li>`;
  const grid = `<ul class="grid">${SIX.map(card).join('')}</ul>`;

  it('go on a grid: pre-orders, quotes, details links, "new colour", awards, "coming soon", review prompts', () => {
    const md = read(page(grid));
    for (const gone of [
      'New color',
      'Award Winner',
      'Coming soon',
      'Nouveau',
      'Available now',
      'Product Details',
      'Get Pricing',
      'More Variations',
      'Pre Order',
      'Be the first',
    ])
      expect(md).not.toContain(gone);
    for (const [name, price] of SIX) {
      expect(md).toContain(name);
      expect(md).toContain(price);
    }
  });

  it('go inside the cards of a grid of six or more on a page of another type (a category read as a landing page)', () => {
    const md = read(page(grid), 'service');
    for (const gone of ['Get Pricing', 'More Variations', 'Be the first']) expect(md).not.toContain(gone);
    expect(md).toContain('Nallo 3');
  });

  it('stay outside a grid card on a page of another type, and in a row of fewer than six panels', () => {
    const panels = ['Specs', 'Care', 'Shipping', 'Reviews']
      .map(
        (t) =>
          `<div class="panel"><h3><a href="#${t}">${t}</a></h3><div class="state">Product details</div><p>${t} of the Talus 4, written out at some length.</p></div>`,
      )
      .join('');
    const md = read(page(`<h2>Product details</h2><p>What the Talus 4 is made of.</p>${panels}`), 'service');
    expect(md).toContain('## Product details');
    expect(md.match(/Product details/g)?.length).toBe(5);
  });
});

describe('a category typed product (its JSON-LD names one Product, the category rating)', () => {
  const names = [
    'Kettle grill 47',
    'Kettle grill 57',
    'Kamado 18',
    'Kamado 22',
    'Drum smoker',
    'Tabletop grill',
    'Vertical grill',
    'Rotisserie grill',
    'Plancha 60',
  ];
  const card = (name: string, i: number) =>
    `<li class="product-mini"><a href="/grills/${i}"><img src="https://cdn.shop.test/g${i}.jpg" alt=""></a>` +
    `<h2><a href="/grills/${i}">${name}</a></h2><span class="price">${199 + i * 50},00 €</span></li>`;
  const html =
    '<html><head><title>Charcoal grills</title><script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Charcoal grills",' +
    '"aggregateRating":{"@type":"AggregateRating","ratingValue":"4.8","reviewCount":"512"}}</script></head><body><div id="wrapper"><main>' +
    `<h1>Charcoal grills</h1><ul class="products">${names.map(card).join('')}</ul></main></div>` +
    '<div class="category-description"><h2>How to choose a charcoal grill</h2>' +
    '<p>A lid turns a grill into an outdoor oven: with it you can smoke, roast and bake, and the coals last longer, which matters for big cuts.</p>' +
    '<p>For four to six people a 47 cm grate is enough; from eight guests on, a 57 cm kettle gives room to cook directly and indirectly, side by side.</p>' +
    '<p>Ceramic kamados hold heat for hours on little charcoal, at the price of weight; steel kettles are lighter, cheaper and quicker to heat up.</p></div>' +
    '<footer><p>© Grill shop</p></footer></body></html>';

  it('is read as a collection: every card and the buying guide beside <main>', () => {
    const out = htmlToMarkdown(html, 'https://shop.test/11-charcoal-grills', { pageType: 'product' });
    expect(out.metadata.pageType).toBe('collection');
    for (const name of names) expect(out.markdown).toContain(name);
    expect(out.markdown).toContain('Ceramic kamados hold heat');
    expect(out.markdown).not.toContain('cdn.shop.test');
  });

  it('a product page with a few related cards stays a product', () => {
    const product =
      '<html><head><title>Kettle grill 57</title></head><body><main><h1>Kettle grill 57</h1><p class="price">349,00 €</p>' +
      `<div class="description"><p>${'A 57 cm kettle with a hinged lid, an ash catcher and a thermometer in the dome, built to last for years of weekend cooking. '.repeat(8)}</p></div>` +
      `<h2>You may also like</h2><ul class="products">${names.slice(0, 4).map(card).join('')}</ul></main></body></html>`;
    const out = htmlToMarkdown(product, 'https://shop.test/grills/kettle-57', { pageType: 'product' });
    expect(out.metadata.pageType).toBe('product');
    expect(out.markdown).not.toContain('Kamado 18');
  });
});

describe('a block of prose in a filter-named accordion on a grid', () => {
  const card = ([name, price, slug]: string[]) =>
    `<li class="product-card"><a href="/p/${slug}"><img src="https://cdn.shop.test/${slug}.jpg" alt=""></a><h3><a href="/p/${slug}">${name}</a></h3><span>${price}</span></li>`;
  const TIP =
    'Whatever you choose, pitch it once in the garden before the trip, seal the seams if the maker asks you to, and carry a small repair kit: a patch, a pole splint and a few metres of cord weigh little and save a night.';
  const section = (question: string, answer: string) =>
    `<div class="section filters"><div class="section-header" role="button"><h5>${question}</h5></div><div class="section-body"><p>${answer}</p><p>${TIP}</p></div></div>`;
  const faq =
    '<div class="facet-row"><div class="accordions">' +
    section(
      'How do I choose a backpacking tent?',
      'Start with the weight you are willing to carry, then the number of sleepers, and finally the seasons you camp in. A solo hiker on long trails will favour a light, single-wall shelter, while a family needs room, vestibules and a sturdy frame.',
    ) +
    section(
      'How many doors should my tent have?',
      'Look at the floor area, the peak height, and the number of doors: two doors mean nobody climbs over a sleeping partner at night, and two vestibules keep wet packs and boots out of the way, which matters most on rainy trips.',
    ) +
    section(
      'Is a freestanding tent worth the weight?',
      'A freestanding tent pitches on rock, sand and wooden platforms, where stakes do not hold, and you can pick it up to shake out the grit. Trekking-pole shelters save weight, but they need good ground and some practice to pitch tight.',
    ) +
    '</div></div>';
  const facets = '<div class="filters facet-row"><h4>Brand</h4><ul><li>Big Agnes</li><li>Nemo</li><li>MSR</li></ul></div>';

  it('is the category text, while the facets beside it go', () => {
    const cards = [...TENTS, ...TENTS, ...TENTS].map(card).join('');
    const md = read(page(`<ul class="grid">${cards}</ul>${facets}${faq}`));
    expect(md).toContain('How do I choose a backpacking tent?');
    expect(md).toContain('two doors mean nobody climbs over');
    expect(md).toContain('Trekking-pole shelters save weight');
    expect(md).not.toContain('Big Agnes');
    expect(md).toContain('Talus 4');
  });
});

describe('prices and discount badges on a grid card', () => {
  const card = ([name, price, slug]: string[], i: number) =>
    `<li class="product-card"><h3><a href="/p/${slug}">${name}</a></h3>` +
    (i % 2 === 0
      ? `<div class="price"><span class="price__sale">${price}</span> <s class="price__regular">${price}</s></div>`
      : `<div class="price"><span class="price__sale">${price}</span> <s class="price__regular">$599.00</s></div><div class="badge">-2${i}%</div><div class="badge">-$40.00</div>`) +
    '</li>';

  it('an equal struck-out price and lone discount badges go; a real "was" price stays', () => {
    const md = read(page(`<ul class="grid">${TENTS.map(card).join('')}</ul>`));
    expect(md.match(/\$349\.00/g)).toHaveLength(1);
    expect(md).toContain('~~$599.00~~');
    expect(md).not.toContain('-21%');
    expect(md).not.toContain('-$40.00');
  });

  it('a price range keeps its upper bound, and a sentence about a discount stays', () => {
    const ranged = (name: string, slug: string) =>
      `<li class="product-card"><h3><a href="/p/${slug}">${name}</a></h3><div class="price"><span>$167.93</span><span>- $240.00</span></div></li>`;
    const md = read(
      page(
        `<ul class="grid">${TENTS.map(([n, , s]) => ranged(n as string, s as string)).join('')}</ul><p>Members save 20% on every tent until Sunday, and 10% on poles and stakes.</p>`,
      ),
    );
    expect(md).toContain('$240.00');
    expect(md).toContain('Members save 20%');
  });
});

describe('struck-out prices on a hostile page', () => {
  it('deeply nested struck-out runs and a price line over many empty elements stay linear', () => {
    const nested = `${'<s>'.repeat(3000)}9${'</s>'.repeat(3000)}`;
    const wide = `<div class="price">${'<span></span>'.repeat(20000)}${'<s>1</s>'.repeat(100)}</div>`;
    const started = performance.now();
    const md = read(
      page(
        `<ul class="grid">${TENTS.map(([n, p, s]) => `<li class="card"><h3><a href="/p/${s}">${n}</a></h3><span>${p}</span></li>`).join('')}</ul>${nested}${wide}`,
      ),
    );
    expect(performance.now() - started).toBeLessThan(5000);
    expect(md).toContain('Talus 4');
  });
});

describe('a card price printed twice (a theme\'s "regular" and "sale" blocks, one shown by CSS)', () => {
  const card = ([name, price, slug]: string[], i: number) =>
    `<li class="card"><h3><a href="/p/${slug}">${name}</a></h3><div class="price"><div class="price__container">` +
    `<div class="price__regular"><span class="price-item">${price}</span></div>` +
    `<div class="price__sale"><s class="price-item--regular">${i === 1 ? '$599.00' : ''}</s><span class="price-item--sale">${price}</span></div>` +
    '</div></div></li>';

  it('keeps one copy of the price and a real "was" price', () => {
    const md = read(page(`<ul class="grid">${TENTS.map(card).join('')}</ul>`));
    for (const [, price] of TENTS) expect(md.split(price as string)).toHaveLength(2);
    expect(md).toContain('~~$599.00~~');
  });

  it('keeps two different prices side by side (a range), and prices on other page types', () => {
    const ranged = ([name, , slug]: string[]) =>
      `<li class="card"><h3><a href="/p/${slug}">${name}</a></h3><div class="price"><span>$120.00</span> – <span>$180.00</span></div></li>`;
    expect(read(page(`<ul class="grid">${TENTS.map(ranged).join('')}</ul>`))).toContain('$120.00 – $180.00');
    const twice = '<div class="price"><div><span>$349.00</span></div><div><span>$349.00</span></div></div>';
    expect(read(page(`<p>The Ridgeline 2, our lightest tent for two.</p>${twice}`), 'product').split('$349.00')).toHaveLength(3);
  });

  it('stays linear on a price line over many empty elements', () => {
    const wide = `<div class="price">${'<span></span>'.repeat(20000)}${'<span>$1</span>'.repeat(100)}</div>`;
    const started = performance.now();
    const md = read(page(`<ul class="grid">${TENTS.map(card).join('')}</ul>${wide}`));
    expect(performance.now() - started).toBeLessThan(5000);
    expect(md).toContain('Talus 4');
  });
});

describe('the label of a drop-down', () => {
  it('goes with its control (a card\'s "Size" picker), while checkbox and radio labels stay', () => {
    const card = ([name, price, slug]: string[]) =>
      `<li class="card"><h3><a href="/p/${slug}">${name}</a></h3><span>${price}</span>` +
      `<div class="picker"><label for="size-${slug}">Size</label><select id="size-${slug}"><option>1 person</option></select></div>` +
      `<div class="swatch"><input type="radio" id="c-${slug}"><label for="c-${slug}">Olive green</label></div></li>`;
    const md = read(page(`<ul class="grid">${TENTS.map(card).join('')}</ul>`));
    expect(md).not.toContain('Size');
    expect(md).toContain('Olive green');
    expect(md).toContain('$529.00');
  });
});

describe('a second link to a card item, out of the keyboard order', () => {
  const card = ([name, price, slug]: string[]) =>
    `<li class="tile"><a class="tile__link" href="/p/${slug}">${name}, ${price}</a>` +
    `<a class="tile__facts" tabindex="-1" href="/p/${slug}"><dl><dt>Model name</dt><dd>${name}</dd><dt>Price tag</dt><dd>${price}</dd></dl></a></li>`;

  it('goes: each card is read once, by its own link', () => {
    const md = read(page(`<ul class="grid">${TENTS.map(card).join('')}</ul>`));
    expect(md).not.toContain('Model name');
    expect(md).not.toContain('Price tag');
    for (const [name, price, slug] of TENTS) expect(md).toContain(`[${name}, ${price}](https://shop.test/p/${slug})`);
  });

  it('stays when it is the only link to the item, or points elsewhere', () => {
    const alone = ([name, price, slug]: string[]) =>
      `<li class="tile"><a class="tile__facts" tabindex="-1" href="/p/${slug}"><dl><dt>Model name</dt><dd>${name}</dd></dl></a>` +
      `<a href="/p/${slug}/reviews">Reviews</a><span>${price}</span></li>`;
    const md = read(page(`<ul class="grid">${TENTS.map(alone).join('')}</ul>`));
    expect(md.match(/Model name/g)?.length).toBe(TENTS.length);
  });

  it('stays outside a grid (a lone block of two links to one page)', () => {
    const md = read(
      page(
        `<div class="promo"><a href="/p/talus-4">Talus 4</a><a tabindex="-1" href="/p/talus-4">Model name: Talus 4, room for four on the trail</a></div>`,
      ),
      'service',
    );
    expect(md).toContain('Model name');
  });
});

describe('the options of a filter panel, repeated like cards', () => {
  const facets = ['Lens Mount', 'Focus Type', 'Maximum Aperture', 'Discount']
    .map((f) => `<section class="Filter_filterOption__x1"><a title="${f}" href="?facet=${encodeURIComponent(f)}">${f}</a></section>`)
    .join('');
  const cards = TENTS.map(productCard).join('');

  it('go: each is a short link alone, named for the filters', () => {
    const md = read(page(`<div class="panel">${facets}</div><ul class="grid">${cards}</ul>`));
    for (const gone of ['Lens Mount', 'Focus Type', 'Maximum Aperture', 'Discount']) expect(md).not.toContain(gone);
    for (const [name, price] of TENTS) {
      expect(md).toContain(name);
      expect(md).toContain(price);
    }
  });

  it('a product card with a filter-named class and a price stays', () => {
    const filtered = ([name, price, slug]: string[]) =>
      `<li class="filter-result"><a href="/p/${slug}">${name}</a><span class="price">${price}</span></li>`;
    const md = read(page(`<ul class="grid">${TENTS.map(filtered).join('')}</ul>`));
    for (const [name, price] of TENTS) {
      expect(md).toContain(name);
      expect(md).toContain(price);
    }
  });
});

describe("a grid's count of what it holds", () => {
  it('goes when it is a line of its own: "(296 products)", "Products (296)", "loaded 4 results", "4 items found"', () => {
    for (const count of ['(296 products)', 'Products (296)', 'loaded 4 results', '4 items found', '27 Products']) {
      const md = read(page(`<div class="count">${count}</div><ul class="grid">${TENTS.map(productCard).join('')}</ul>`));
      expect(md).not.toContain(count);
      expect(md).toContain('Hubba Hubba 2');
    }
  });

  it('stays in a sentence, and on a page of another type', () => {
    const md = read(page(`<p>We stock 296 products from twelve makers.</p><ul class="grid">${TENTS.map(productCard).join('')}</ul>`));
    expect(md).toContain('We stock 296 products');
    expect(read(page('<div class="count">296 products</div><p>Our range, described at length for the reader.</p>'), 'article')).toContain(
      '296 products',
    );
  });
});

describe('a post card’s reading time and a directory card’s profile link', () => {
  const POSTS = [
    'Pitching a tent in the wind',
    'Ten knots every hiker needs',
    'Water filters, tested',
    'Trail food that keeps',
    'Layering for the shoulder season',
    'Reading a topo map',
  ];
  const card = (t: string, i: number) =>
    `<article class="post-card"><h3><a href="/journal/post-${i}">${t}</a></h3><p>Notes from our guides on the trail this season.</p>` +
    `<div class="meta"><span>${i + 3} min read</span></div><div class="cta"><a href="/guides/guide-${i}">View company profile</a></div></article>`;
  const grid = `<div class="feed">${POSTS.map(card).join('')}</div>`;

  it('go on an index: each card keeps its title and teaser', () => {
    const md = read(page(grid), 'listing');
    expect(md).not.toMatch(/min read/);
    expect(md).not.toContain('View company profile');
    for (const t of POSTS) expect(md).toContain(t);
    expect(md).toContain('Notes from our guides');
  });

  it('stay in an article’s prose', () => {
    const prose =
      '<p>This guide is a 12 min read; if you only have a minute, view company profile pages on the map instead of reading it all.</p>';
    const article = `<html><body><article><h1>Field notes</h1>${prose.repeat(3)}<p>12 min read</p></article></body></html>`;
    const md = htmlToMarkdown(article, 'https://shop.test/blog/notes', { pageType: 'article' }).markdown;
    expect(md).toContain('12 min read\n');
  });
});
