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
