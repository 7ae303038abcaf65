import { describe, expect, it } from 'vitest';
import { charsetParam, decodeBody, detectCharset, prescanMeta } from '../../../src/convert/decode.js';
import { encodeLegacy } from './encode.js';

const SAMPLES: Record<string, string> = {
  shift_jis: '日本語のウェブページです。東京は日本の首都であり、多くの人々が住んでいます。ひらがなとカタカナと漢字を使います。',
  'euc-jp': 'これは日本語の文章です。京都には古いお寺がたくさんあります。私は毎日電車で会社に行きます。',
  'euc-kr': '한국어 웹 페이지입니다. 서울은 대한민국의 수도이며 많은 사람들이 살고 있습니다. 오늘 날씨가 좋습니다.',
  gb18030: '这是一个中文网页。北京是中华人民共和国的首都，有很多人住在那里。我们今天去公园散步。',
  big5: '這是一個中文網頁。台北是一個很大的城市，有很多人住在那裡。我們今天去公園散步。',
  'windows-1251': 'Это русская веб-страница. Москва является столицей России, и там живёт много людей.',
  'koi8-r': 'Это русская веб-страница. Москва является столицей России, и там живёт много людей.',
  'windows-1252': 'Café crème brûlée — voilà une page française. Ça coûte très cher à Paris, n’est-ce pas?',
  'iso-8859-2': 'Zażółć gęślą jaźń. Příliš žluťoučký kůň úpěl ďábelské ódy.',
  'iso-8859-7': 'Αυτή είναι μια ελληνική ιστοσελίδα.',
};

const html = (body: string, head = ''): string =>
  `<!doctype html><html><head>${head}<title>t</title></head><body><p>${body}</p></body></html>`;

describe('declared charsets', () => {
  it.each(Object.entries(SAMPLES))('%s from the Content-Type header', (charset, text) => {
    const bytes = encodeLegacy(html(text), charset);
    const out = decodeBody(bytes, `text/html; charset=${charset}`);
    expect(out).toMatchObject({ charset, guessed: false });
    expect(out.text).toContain(text);
  });

  it.each(Object.entries(SAMPLES))('%s from <meta charset>', (charset, text) => {
    const bytes = encodeLegacy(html(text, `<meta charset="${charset}">`), charset);
    const out = decodeBody(bytes, 'text/html');
    expect(out).toMatchObject({ charset, guessed: false });
    expect(out.text).toContain(text);
  });

  it.each(Object.entries(SAMPLES))('%s from <meta http-equiv>', (charset, text) => {
    const meta = `<META HTTP-EQUIV='Content-Type' CONTENT='text/html; charset=${charset.toUpperCase()}'>`;
    const out = decodeBody(encodeLegacy(html(text, meta), charset), null);
    expect(out).toMatchObject({ charset, guessed: false });
    expect(out.text).toContain(text);
  });

  it('resolves WHATWG labels to encodings', () => {
    const bytes = encodeLegacy('Привет', 'windows-1251');
    expect(decodeBody(bytes, 'text/plain; charset=cp1251').charset).toBe('windows-1251');
    expect(decodeBody(Buffer.from([0xe9]), 'text/plain; charset=latin1')).toMatchObject({ charset: 'windows-1252', text: 'é' });
    expect(decodeBody(Buffer.from([0xe9]), 'text/plain; charset=ISO-8859-1').charset).toBe('windows-1252');
    expect(decodeBody(encodeLegacy('日本', 'shift_jis'), 'text/plain; charset="x-sjis"').text).toBe('日本');
    expect(decodeBody(encodeLegacy('中文', 'gb18030'), 'text/plain; charset=GB2312').charset).toBe('gbk');
    expect(decodeBody(encodeLegacy('한국', 'euc-kr'), 'text/plain; charset=ks_c_5601-1987').charset).toBe('euc-kr');
  });

  it('windows-1252 keeps curly quotes and dashes (0x80-0x9F), which Node 20 TextDecoder drops', () => {
    const bytes = Buffer.from([0x93, 0x41, 0x94, 0x20, 0x97, 0x20, 0x80, 0x85]);
    expect(decodeBody(bytes, 'text/plain; charset=iso-8859-1').text).toBe('\u201cA\u201d \u2014 \u20ac\u2026');
  });

  it('the BOM wins over header and meta', () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(html('héllo', '<meta charset="windows-1252">'))]);
    expect(decodeBody(body, 'text/html; charset=iso-8859-2')).toMatchObject({ charset: 'utf-8', guessed: false });
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hé', 'utf16le')]);
    expect(decodeBody(le, 'text/html; charset=utf-8')).toMatchObject({ charset: 'utf-16le', text: 'hé' });
    const be = Buffer.from([0xfe, 0xff, 0x00, 0x68, 0x00, 0xe9]);
    expect(decodeBody(be)).toMatchObject({ charset: 'utf-16be', text: 'hé' });
  });

  it('the header wins over meta; an unknown header label falls through to meta', () => {
    const bytes = encodeLegacy(html('Привет', '<meta charset="koi8-r">'), 'windows-1251');
    expect(decodeBody(bytes, 'text/html; charset=windows-1251').charset).toBe('windows-1251');
    const koi = encodeLegacy(html('Привет', '<meta charset="koi8-r">'), 'koi8-r');
    expect(decodeBody(koi, 'text/html; charset=no-such-charset')).toMatchObject({ charset: 'koi8-r', guessed: false });
  });

  it('meta is found anywhere in the first 64 KB, not after, and not in comments', () => {
    const pad = ' '.repeat(60_000);
    expect(prescanMeta(Buffer.from(`<html><head>${pad}<meta charset=shift_jis>`))).toBe('shift_jis');
    expect(prescanMeta(Buffer.from(`<html><head>${pad}${pad}<meta charset=shift_jis>`))).toBeNull();
    expect(prescanMeta(Buffer.from('<!-- <meta charset="koi8-r"> --><meta charset="utf-8">'))).toBe('utf-8');
    expect(prescanMeta(Buffer.from('<?xml version="1.0" encoding="windows-1251"?><rss/>'))).toBe('windows-1251');
    expect(prescanMeta(Buffer.from('<meta name="x" content="charset=koi8-r">'))).toBeNull();
  });

  it('a meta-declared UTF-16 means UTF-8', () => {
    expect(decodeBody(Buffer.from(html('héllo', '<meta charset="utf-16">')), null).charset).toBe('utf-8');
  });

  it('parses the charset parameter', () => {
    expect(charsetParam('text/html; charset="UTF-8"')).toBe('UTF-8');
    expect(charsetParam('text/html;charset=utf-8;foo=bar')).toBe('utf-8');
    expect(charsetParam('text/html')).toBeNull();
    expect(charsetParam(null)).toBeNull();
  });
});

describe('detection when nothing is declared (guessed: true)', () => {
  it.each(['shift_jis', 'euc-jp', 'euc-kr', 'gb18030', 'big5', 'windows-1251', 'koi8-r', 'windows-1252'])('%s', (charset) => {
    const text = SAMPLES[charset]!;
    const out = decodeBody(encodeLegacy(html(text), charset), 'text/html');
    expect(out.guessed).toBe(true);
    expect(out.text).toContain(text);
  });

  it('UTF-8 without declaration is detected and flagged as a guess', () => {
    expect(decodeBody(Buffer.from(html('naïve café 日本')), 'text/html')).toMatchObject({ charset: 'utf-8', guessed: true });
  });

  it('pure ASCII needs no guess', () => {
    expect(decodeBody(Buffer.from(html('plain ascii')), null)).toMatchObject({ charset: 'utf-8', guessed: false });
  });

  it('UTF-16 without BOM is recognised by its zero bytes', () => {
    expect(detectCharset(Buffer.from('hello world', 'utf16le')).charset).toBe('utf-16le');
  });

  it('a multi-byte character cut at the sample boundary still counts as UTF-8', () => {
    const body = Buffer.from('é'.repeat(200_000));
    expect(detectCharset(body.subarray(0, 256 * 1024 - 1)).charset).toBe('utf-8');
  });
});
