/**
 * Listings (blog indexes, news section fronts, search results): every item of the list is
 * content, the furniture around it is not. Fixtures are self-written section pages; the
 * page type is given so each rule is tested apart from the classifier.
 */
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../../src/convert/html/index.js';

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
