/**
 * Clean URLs (issue 22) at the unit level: marketplaces' referral and click-path parameters
 * on their own hosts, and affiliate networks' click trackers unwrapped to the shop's page.
 * The golden cases `lean-tracking-urls*` and `lean-comparison-affiliate` show whole pages.
 */
import { describe, expect, it } from 'vitest';
import { cleanUrl } from '../../../../src/convert/html/clean-url.js';

describe('marketplace referral parameters', () => {
  it('an affiliate’s Amazon link keeps the item and loses the referral, the widget trail and the /ref= tail', () => {
    expect(
      cleanUrl(
        'https://www.amazon.com/Tyvek-House-Wrap/dp/B074FSQ1H2/ref=as_li_ss_tl?ref_=fsclp_pl_dp_1&linkCode=sl1&tag=trx-20&linkId=40bd77&language=en_US&th=1&psc=1',
      ),
    ).toBe('https://www.amazon.com/Tyvek-House-Wrap/dp/B074FSQ1H2?language=en_US&th=1&psc=1');
    expect(cleanUrl('https://www.amazon.co.uk/dp/B0D1XD1ZV3?pf_rd_p=abc&pf_rd_r=XYZ&pd_rd_w=1&smid=A3P5')).toBe(
      'https://www.amazon.co.uk/dp/B0D1XD1ZV3?smid=A3P5',
    );
    expect(cleanUrl('https://www.amazon.de/gp/product/B01/ref=ox_sc_act_title_1')).toBe('https://www.amazon.de/gp/product/B01');
  });

  it('an eBay item link keeps the item and its variant, not the tracking', () => {
    expect(
      cleanUrl('https://www.ebay.com/itm/276702815108?_skw=lamp&hash=item406cfa0a84:g:abc&itmprp=enc%3AAQAJ&var=55&_trksid=p4432'),
    ).toBe('https://www.ebay.com/itm/276702815108?var=55');
  });

  it('the same names elsewhere are not touched: a shop’s own tag, hash or ref is its own', () => {
    for (const url of [
      'https://shop.example.org/search?tag=red&hash=abc&sr=2',
      'https://blog.example.com/ref=notes/page',
      'https://notamazon.com/dp/B01?tag=x',
      'https://amazon.com.evil.example/dp/B01?tag=x',
    ]) {
      expect(cleanUrl(url)).toBe(url);
    }
  });
});

describe('affiliate click trackers', () => {
  it('carry the shop’s page in a parameter: the page is the link', () => {
    const cases: Array<[string, string]> = [
      [
        'https://rei.pxf.io/c/3076275/1448521/17195?u=https%3A%2F%2Fwww.rei.com%2Fproduct%2FC01098%2Fwatch',
        'https://www.rei.com/product/C01098/watch',
      ],
      ['https://go.skimresources.com/?id=111X&xs=1&url=https%3A%2F%2Fshop.example%2Fp%2F9', 'https://shop.example/p/9'],
      [
        'https://www.avantlink.com/click.php?tt=cl&merchant_id=4&url=https://www.example-gear.com/products/pocket&ctc=Checklist',
        'https://www.example-gear.com/products/pocket',
      ],
      [
        'https://www.awin1.com/cread.php?awinmid=1&awinaffid=2&ued=https%3A%2F%2Fwww.example.co.uk%2Fsofa',
        'https://www.example.co.uk/sofa',
      ],
      ['https://click.linksynergy.com/deeplink?id=a&mid=2&murl=https%3A%2F%2Fstore.example%2Fitem', 'https://store.example/item'],
      [
        'https://app.rockporch.com/mlink/904?userId=1&redirectUrl=https%3A%2F%2Fwww.example.com%2Fbag%3Fvariant%3D4',
        'https://www.example.com/bag?variant=4',
      ],
      [
        'https://www.anrdoezrs.net/links/9231803/type/dlg/https://www.example.com/products/cad?x=1',
        'https://www.example.com/products/cad?x=1',
      ],
      ['https://www.jdoqocy.com/click-7921344-11554893?sid=A&url=https%3A%2F%2Fwww.example.com%2Fw.html', 'https://www.example.com/w.html'],
    ];
    for (const [wrapped, target] of cases) expect(cleanUrl(wrapped)).toBe(target);
  });

  it('a tracker without its target in the URL stays as it is', () => {
    for (const url of [
      'https://dia.pxf.io/anBNBY?subId1=wp-1',
      'https://www.awin1.com/cread.php?s=45&v=89&q=57&r=20',
      'https://go.skimresources.com/?id=1&url=not-a-url',
    ]) {
      expect(cleanUrl(url)).toBe(url);
    }
  });

  it('a share link is not a redirect: its url parameter is the page being shared', () => {
    const share = 'https://twitter.com/intent/tweet?url=https%3A%2F%2Fblog.example%2Fpost';
    expect(cleanUrl(share)).toBe(share);
  });
});
