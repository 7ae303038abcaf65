/**
 * Generates the PDF fixtures under test/fixtures/formats/ (committed; rerun only to change
 * them): `npx tsx scripts/make-pdf-fixtures.ts [--bench]`. Deterministic content (seeded
 * word generator, fixed dates); only the encrypted files differ per run (random file key).
 * `--bench` also writes the large bench input to $TMPDIR/pith-bench-formats/ (never
 * committed): a ~10 MB / 500-page report with a photo-like figure on each page.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import PDFDocument from 'pdfkit';

const OUT = join(import.meta.dirname, '..', 'test', 'fixtures', 'formats');
const BENCH_OUT = join(tmpdir(), 'pith-bench-formats');
const FIXED_DATE = new Date('2026-01-15T10:00:00Z');

const WORDS = (
  'the of and to in a is that for it as was with be by on not he this are or his from at which but have an they ' +
  'data model system results method analysis network performance value design process error study sample test measure ' +
  'signal energy growth market report quarter revenue customer product service region policy risk budget information experimental representation distribution configuration'
).split(' ');

/** Small deterministic PRNG (mulberry32) so fixtures are identical on every run. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sentence(rand: () => number, words: number): string {
  const picked = Array.from({ length: words }, () => WORDS[Math.floor(rand() * WORDS.length)] as string);
  const first = picked[0] ?? 'the';
  picked[0] = first.charAt(0).toUpperCase() + first.slice(1);
  return `${picked.join(' ')}.`;
}

function paragraph(rand: () => number, sentences: number): string {
  return Array.from({ length: sentences }, () => sentence(rand, 6 + Math.floor(rand() * 10))).join(' ');
}

function newDoc(options: PDFKit.PDFDocumentOptions = {}): PDFKit.PDFDocument {
  return new PDFDocument({
    size: 'LETTER',
    margin: 72,
    autoFirstPage: true,
    compress: true,
    ...options,
    info: { CreationDate: FIXED_DATE, ...options.info },
  });
}

function save(doc: PDFKit.PDFDocument, path: string): Promise<void> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => {
      writeFileSync(path, Buffer.concat(chunks));
      resolve();
    });
    doc.end();
  });
}

/**
 * Places a paragraph line by line (our own greedy wrap, so positions are known). A `~` in
 * a word marks a hyphenation point: a word that does not fit is split there with `-`.
 * Returns the y after the paragraph, or the words left over when the box bottom is hit.
 */
function placeParagraph(
  doc: PDFKit.PDFDocument,
  text: string,
  box: { x: number; y: number; width: number; bottom: number },
  size: number,
  leading: number,
): { y: number; rest: string } {
  doc.fontSize(size);
  const words = text.split(' ');
  let y = box.y;
  let line = '';
  const width = (s: string): number => doc.widthOfString(s.replace(/~/g, ''));
  const emit = (s: string): void => {
    doc.text(s.replace(/~/g, ''), box.x, y, { lineBreak: false });
    y += leading;
  };
  while (words.length > 0) {
    if (y + leading > box.bottom) return { y, rest: [line, ...words].filter(Boolean).join(' ') };
    const word = words[0] as string;
    const candidate = line ? `${line} ${word}` : word;
    if (width(candidate) <= box.width) {
      line = candidate;
      words.shift();
      continue;
    }
    // Hyphenate: at a `~` mark, or any long word, keep the longest prefix that fits.
    const plainWord = word.replace(/~/g, '');
    const marks = word.includes('~')
      ? [...word.matchAll(/~/g)].map((m, i) => (m.index ?? 0) - i)
      : plainWord.length >= 9
        ? Array.from({ length: plainWord.length - 5 }, (_, i) => i + 3)
        : [];
    const fit = marks.reverse().find((at) => width(`${line} ${plainWord.slice(0, at)}-`) <= box.width);
    if (line && fit !== undefined) {
      emit(`${line} ${plainWord.slice(0, fit)}-`);
      words[0] = plainWord.slice(fit);
      line = '';
      continue;
    }
    emit(line || word);
    if (!line) words.shift();
    line = '';
  }
  if (line) emit(line);
  return { y, rest: '' };
}

/** A paper: full-width title, authors and abstract, then two columns over two pages. */
async function twoColumnPaper(): Promise<void> {
  const doc = newDoc({
    info: { Title: 'Sparse Attention for Long Documents', Author: 'A. Researcher; B. Scientist', Subject: 'A two-column test paper' },
    lang: 'en-GB',
  });
  const rand = rng(7);
  doc.font('Times-Bold').fontSize(20).text('Sparse Attention for Long Documents', 72, 72, { width: 468, align: 'center' });
  doc.font('Times-Roman').fontSize(11).text('A. Researcher and B. Scientist', 72, 102, { width: 468, align: 'center' });
  doc.font('Times-Bold').fontSize(12).text('Abstract', 72, 130);
  doc.font('Times-Roman');
  let { y } = placeParagraph(
    doc,
    `We study how attention scales to long inputs. ${paragraph(rand, 4)}`,
    { x: 72, y: 148, width: 468, bottom: 720 },
    10,
    12,
  );
  const columns = [
    { x: 72, width: 222 },
    { x: 318, width: 222 },
  ];
  const sections: Array<{ heading: string; paras: string[] }> = [
    {
      heading: '1 Introduction',
      paras: [
        `Long documents chal~lenge standard atten~tion because its cost grows quad~ratically. ${paragraph(rand, 5)}`,
        paragraph(rand, 5),
      ],
    },
    {
      heading: '2 Method',
      paras: [
        `Our method selects a sparse set of positions per query using a learned rout~ing function. ${paragraph(rand, 6)}`,
        paragraph(rand, 4),
      ],
    },
    {
      heading: '3 Experiments',
      paras: [paragraph(rand, 6), `Results on the bench~mark show consis~tent gains over dense base~lines. ${paragraph(rand, 5)}`],
    },
    { heading: '4 Discussion', paras: [paragraph(rand, 8), paragraph(rand, 7), paragraph(rand, 6)] },
    { heading: '5 Conclusion', paras: [`Sparse attention makes long docu~ments tractable. ${paragraph(rand, 4)}`] },
  ];
  let col = 0;
  let top = y + 14;
  y = top;
  const bottom = 720;
  const nextColumn = (): void => {
    col++;
    if (col >= columns.length) {
      doc.addPage();
      col = 0;
      top = 72;
    }
    y = top;
  };
  for (const section of sections) {
    if (y + 40 > bottom) nextColumn();
    const c = columns[col] as { x: number; width: number };
    doc.font('Times-Bold').fontSize(12).text(section.heading, c.x, y, { lineBreak: false });
    y += 18;
    doc.font('Times-Roman');
    for (const para of section.paras) {
      let rest = para;
      while (rest) {
        const cc = columns[col] as { x: number; width: number };
        const placed = placeParagraph(doc, rest, { x: cc.x, y, width: cc.width, bottom }, 10, 12);
        rest = placed.rest;
        y = placed.y + 6;
        if (rest) nextColumn();
      }
    }
    y += 6;
  }
  await save(doc, join(OUT, 'two-column.pdf'));
}

/** A report: running header and footer, chapters, sections, bullet lists, `pages` pages. */
async function report(path: string, pages: number, seed: number, options: PDFKit.PDFDocumentOptions = {}, figures = false): Promise<void> {
  const doc = newDoc({ info: { Title: 'Acme Annual Report 2026', Author: 'Acme Corp', ...options.info }, lang: 'en-US', ...options });
  const rand = rng(seed);
  for (let p = 1; p <= pages; p++) {
    if (p > 1) doc.addPage();
    doc.font('Helvetica').fontSize(8).text('Acme Annual Report 2026', 72, 36, { lineBreak: false });
    doc.fontSize(8).text(`Page ${p} of ${pages}`, 480, 750, { lineBreak: false });
    let y = 72;
    if (p % 5 === 1) {
      doc
        .font('Helvetica-Bold')
        .fontSize(18)
        .text(`Chapter ${Math.ceil(p / 5)}: ${sentence(rand, 3).slice(0, -1)}`, 72, y, { lineBreak: false });
      y += 32;
    }
    doc
      .font('Helvetica-Bold')
      .fontSize(14)
      .text(`Section ${p}.1 ${sentence(rand, 2).slice(0, -1)}`, 72, y, { lineBreak: false });
    y += 24;
    doc.font('Helvetica');
    y = placeParagraph(doc, paragraph(rand, 5), { x: 72, y, width: 468, bottom: 720 }, 11, 14).y + 8;
    for (let b = 0; b < 3; b++) {
      y = placeParagraph(doc, `• ${sentence(rand, 8)}`, { x: 84, y, width: 456, bottom: 720 }, 11, 14).y;
    }
    y += 8;
    doc
      .font('Helvetica-Bold')
      .fontSize(14)
      .text(`Section ${p}.2 ${sentence(rand, 2).slice(0, -1)}`, 72, y, { lineBreak: false });
    y += 24;
    doc.font('Helvetica');
    y = placeParagraph(doc, paragraph(rand, 6), { x: 72, y, width: 468, bottom: 720 }, 11, 14).y + 8;
    y = placeParagraph(doc, paragraph(rand, 4), { x: 72, y, width: 468, bottom: 720 }, 11, 14).y;
    // Bench only: a noisy figure per page (incompressible, like a photo) to reach ~10 MB.
    if (figures && y < 620) doc.image(noisePng(224, 82, p), 72, y + 10, { width: 224 });
  }
  await save(doc, path);
}

/** A manual page: a dot-leader contents list, inline code and an indented code block in Courier. */
async function codeManual(): Promise<void> {
  const doc = newDoc({ info: { Title: 'Widget CLI manual' } });
  doc.font('Helvetica-Bold').fontSize(18).text('Widget CLI manual', 72, 72, { lineBreak: false });
  doc.font('Helvetica').fontSize(11);
  let y = 110;
  for (const [entry, page] of [
    ['1 Installing', '1'],
    ['2 Configuration', '3'],
  ] as const) {
    doc.text(entry, 72, y, { lineBreak: false });
    doc.text('. '.repeat(30), 180, y, { lineBreak: false });
    doc.text(page, 520, y, { lineBreak: false });
    y += 16;
  }
  y += 20;
  doc.font('Helvetica-Bold').fontSize(14).text('1 Installing', 72, y, { lineBreak: false });
  y += 26;
  const inline: Array<[string, boolean]> = [
    ['Run', false],
    ['widget init', true],
    ['in an empty folder; it writes', false],
    ['widget.toml', true],
    ['and a *sample* <config>.', false],
  ];
  let x = 72;
  for (const [part, mono] of inline) {
    doc
      .font(mono ? 'Courier' : 'Helvetica')
      .fontSize(11)
      .text(part, x, y, { lineBreak: false });
    x += doc.widthOfString(part) + doc.font('Helvetica').widthOfString(' ');
  }
  y += 24;
  for (const line of ['[server]', 'port = 8080', 'routes = [', '    "/health",', '    "/v1/read",', ']']) {
    const indent = line.length - line.trimStart().length;
    doc
      .font('Courier')
      .fontSize(10)
      .text(line.trimStart(), 90 + indent * 6, y, { lineBreak: false });
    y += 12;
  }
  y += 14;
  doc.font('Helvetica').fontSize(11).text('Restart the service after editing the file.', 72, y, { lineBreak: false });
  await save(doc, join(OUT, 'code-manual.pdf'));
}

/** Tables: a small one between paragraphs, then a page-wide one (its columns look like page columns). */
async function tables(): Promise<void> {
  const doc = newDoc({ info: { Title: 'Regional results' } });
  doc
    .font('Helvetica')
    .fontSize(11)
    .text('Quarterly results are summarised in the table below, by region and quarter.', 72, 72, { width: 468 });
  const rows = [
    ['Region', 'Q1', 'Q2', 'Change'],
    ['North', '12.5', '13.1', '+4.8%'],
    ['South | East', '9.0', '8.7', '-3.3%'],
    ['West', '15.2', '16.0', '+5.3%'],
  ];
  rows.forEach((r, i) => {
    doc.font(i === 0 ? 'Helvetica-Bold' : 'Helvetica');
    r.forEach((c, j) => doc.text(c, 72 + j * 110, 110 + i * 16, { lineBreak: false }));
  });
  doc.font('Helvetica').text('Growth was strongest in the West, as the last column shows.', 72, 190, { width: 468 });
  doc.addPage();
  for (let i = 0; i < 12; i++) {
    [`Item ${i}`, String(i * 3), String((i * 7) % 11), i % 2 ? 'yes' : 'no'].forEach((c, j) =>
      doc.text(c, 72 + j * 120, 72 + i * 16, { lineBreak: false }),
    );
  }
  await save(doc, join(OUT, 'tables.pdf'));
}

/** A grayscale PNG (a scan-like page of noise and dark "text" stripes). */
function scanPng(width: number, height: number, seed: number): Buffer {
  const rand = rng(seed);
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0;
    const stripe = y % 24 < 10 && y > 40 && y < height - 40;
    for (let x = 0; x < width; x++) {
      const ink = stripe && x > 30 && x < width - 30 && rand() < 0.45;
      raw[y * (width + 1) + 1 + x] = ink ? 40 : 235 + Math.floor(rand() * 20);
    }
  }
  return pngFromRaw(width, height, raw);
}

/** Wraps 8-bit grayscale scanlines (filter byte first) into a PNG. */
function pngFromRaw(width: number, height: number, raw: Buffer): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function noisePng(width: number, height: number, seed: number): Buffer {
  const rand = rng(seed);
  const raw = Buffer.alloc((width + 1) * height);
  for (let i = 0; i < raw.length; i++) raw[i] = i % (width + 1) === 0 ? 0 : Math.floor(rand() * 256);
  return pngFromRaw(width, height, raw);
}

async function imageOnly(): Promise<void> {
  const doc = newDoc({ info: { Title: 'Scanned letter' } });
  for (let p = 0; p < 3; p++) {
    if (p > 0) doc.addPage();
    doc.image(scanPng(425, 550, p + 1), 72, 72, { width: 468 });
  }
  await save(doc, join(OUT, 'image-only.pdf'));
}

async function encrypted(): Promise<void> {
  const doc = newDoc({ userPassword: 'secret', ownerPassword: 'owner', pdfVersion: '1.7', info: { Title: 'Confidential' } });
  doc.fontSize(12).text('This text is only readable with the password.', 72, 72);
  await save(doc, join(OUT, 'encrypted.pdf'));
  const open = newDoc({
    ownerPassword: 'owner',
    pdfVersion: '1.7',
    permissions: { printing: 'highResolution' },
    info: { Title: 'Owner password only' },
  });
  open.fontSize(12).text('Anyone can open this file; only editing is restricted.', 72, 72);
  await save(open, join(OUT, 'encrypted-owner-only.pdf'));
}

/** `%PDF-` then deterministic garbage: no structure pdf.js can recover. */
function corrupted(): void {
  const rand = rng(99);
  const junk = Buffer.alloc(20_000);
  for (let i = 0; i < junk.length; i++) junk[i] = Math.floor(rand() * 256);
  writeFileSync(join(OUT, 'corrupted.pdf'), Buffer.concat([Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'), junk]));
}

/** Hand-written hostile PDFs: deep array nesting, a page tree that loops, a flate bomb. */
function hostile(): void {
  const build = (objects: string[], trailerExtra = ''): Buffer => {
    let body = '%PDF-1.4\n';
    const offsets: number[] = [];
    objects.forEach((obj, i) => {
      offsets.push(Buffer.byteLength(body, 'latin1'));
      body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
    });
    const xref = Buffer.byteLength(body, 'latin1');
    body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
    body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${xref}\n%%EOF\n`;
    return Buffer.from(body, 'latin1');
  };
  const deep = '['.repeat(100_000) + ']'.repeat(100_000);
  writeFileSync(
    join(OUT, 'hostile-deep-nesting.pdf'),
    build([
      `<< /Type /Catalog /Pages 2 0 R /Deep ${deep} >>`,
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Extra ${deep} >>`,
      '<< /Length 0 >>\nstream\n\nendstream',
    ]),
  );
  writeFileSync(
    join(OUT, 'hostile-page-loop.pdf'),
    build(
      [
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>',
        '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>',
      ],
      '/Prev 9 ',
    ),
  );
  // 200 MB of spaces as one Flate content stream: ~200 KB on disk.
  const bomb = deflateSync(Buffer.alloc(200 * 1024 * 1024, 0x20), { level: 9 });
  const font = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  const head = build([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${bomb.length} /Filter /FlateDecode >>\nstream\n@@BOMB@@\nendstream`,
    font,
  ]);
  const marker = head.indexOf('@@BOMB@@');
  writeFileSync(join(OUT, 'hostile-flate-bomb.pdf'), Buffer.concat([head.subarray(0, marker), bomb, head.subarray(marker + 8)]));
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  await twoColumnPaper();
  await report(join(OUT, 'report-50.pdf'), 50, 11);
  await imageOnly();
  await codeManual();
  await tables();
  await encrypted();
  corrupted();
  hostile();
  if (process.argv.includes('--bench')) {
    mkdirSync(BENCH_OUT, { recursive: true });
    await report(join(BENCH_OUT, 'report-500.pdf'), 500, 5, {}, true);
  }
  console.log(`PDF fixtures written to ${OUT}`);
}

await main();
