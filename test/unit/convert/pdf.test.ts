import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { convertDocument } from '../../../src/convert/index.js';
import { pdfToMarkdown } from '../../../src/convert/pdf/pdf.js';
import { PdfWorkerPool, runPdfJob, spawnPdfWorker } from '../../../src/convert/workers/pdf-worker.js';
import { ServiceError } from '../../../src/errors.js';

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures', 'formats');
const fixture = (name: string): Buffer => readFileSync(join(FIXTURES, name));

async function failure(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ServiceError) return err;
    throw err;
  }
  throw new Error('expected a ServiceError');
}

function makePdf(draw: (doc: PDFKit.PDFDocument) => void): Promise<Buffer> {
  return new Promise((resolve) => {
    const doc = new PDFDocument({ size: 'LETTER', margin: 72 });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    draw(doc);
    doc.end();
  });
}

describe('pdfToMarkdown on generated fixtures', () => {
  it('reads a two-column paper column by column, joining hyphenated words', async () => {
    const { markdown, metadata } = await pdfToMarkdown(fixture('two-column.pdf'));
    const order = [
      '# Sparse Attention',
      '## Abstract',
      '## 1 Introduction',
      '## 2 Method',
      '## 3 Experiments',
      '## 4 Discussion',
      '<!-- page 2 -->',
      '## 5 Conclusion',
    ];
    const positions = order.map((h) => markdown.indexOf(h));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(markdown).toContain('Long documents challenge standard attention because its cost grows quadratically.');
    expect(markdown).not.toMatch(/\p{L}- \p{Ll}/u);
    expect(metadata).toMatchObject({
      title: 'Sparse Attention for Long Documents',
      author: 'A. Researcher; B. Scientist',
      language: 'en-GB',
      pageCount: 2,
      contentType: 'application/pdf',
    });
  });

  it('reads a 50-page report: heading levels, bullets, no running headers or page numbers', async () => {
    const { markdown, metadata } = await pdfToMarkdown(fixture('report-50.pdf'));
    expect(metadata.pageCount).toBe(50);
    expect(markdown.match(/^# Chapter \d+:/gm)).toHaveLength(10);
    expect(markdown.match(/^## Section \d+\.\d /gm)).toHaveLength(100);
    expect(markdown.match(/^- /gm)).toHaveLength(150);
    expect(markdown).not.toContain('Acme Annual Report 2026');
    expect(markdown).not.toMatch(/Page \d+ of 50/);
    expect(markdown.match(/^<!-- page \d+ -->$/gm)).toHaveLength(49);
  });

  it('IMAGE_PDF (422) when no page has a text layer', async () => {
    const err = await failure(pdfToMarkdown(fixture('image-only.pdf')));
    expect(err.code).toBe('IMAGE_PDF');
    expect(err.status).toBe(422);
    expect(err.message).toContain('3 pages');
  });

  it('warns about pages without text when only some have it', async () => {
    const pdf = await makePdf((doc) => {
      doc.text('Only the first page has text.');
      doc.addPage();
      doc.rect(100, 100, 200, 200).fill('#333');
    });
    const result = await pdfToMarkdown(pdf);
    expect(result.markdown).toBe('Only the first page has text.\n');
    expect(result.warnings.map((w) => w.code)).toEqual(['PDF_PAGES_WITHOUT_TEXT']);
  });

  it('a password-protected PDF is EXTRACTION_FAILED saying a password is needed', async () => {
    const err = await failure(pdfToMarkdown(fixture('encrypted.pdf')));
    expect(err.code).toBe('EXTRACTION_FAILED');
    expect(err.message).toMatch(/encrypted and needs a password/);
    expect(err.fields.reason).toBe('pdf_password_required');
  });

  it('an owner-password-only PDF opens normally', async () => {
    expect((await pdfToMarkdown(fixture('encrypted-owner-only.pdf'))).markdown).toContain('Anyone can open this file');
  });

  it.each(['corrupted.pdf', 'hostile-deep-nesting.pdf', 'hostile-page-loop.pdf', 'hostile-flate-bomb.pdf'])(
    '%s → EXTRACTION_FAILED, and the next PDF still converts',
    async (name) => {
      const err = await failure(pdfToMarkdown(fixture(name)));
      expect(err.code).toBe('EXTRACTION_FAILED');
      expect((await pdfToMarkdown(fixture('encrypted-owner-only.pdf'))).markdown).toContain('Anyone');
    },
  );

  it('refuses a decompression bomb before pdf.js inflates it', async () => {
    const err = await failure(pdfToMarkdown(fixture('hostile-flate-bomb.pdf')));
    expect(err.message).toContain('decompression bomb');
    expect(err.fields.reason).toBe('pdf_decompression_bomb');
  });

  it('stops at the time budget with EXTRACTION_FAILED', async () => {
    const err = await failure(pdfToMarkdown(fixture('report-50.pdf'), { timeoutMs: 1 }));
    expect(err.code).toBe('EXTRACTION_FAILED');
    expect(err.message).toContain('1 ms budget');
  });

  it('cuts at maxPages with TRUNCATED', async () => {
    const result = await pdfToMarkdown(fixture('report-50.pdf'), { maxPages: 2 });
    expect(result.metadata.pageCount).toBe(50);
    expect(result.warnings).toEqual([{ code: 'TRUNCATED', message: 'PDF cut at 2 of 50 pages' }]);
    expect(result.markdown.match(/^<!-- page \d+ -->$/gm)).toEqual(['<!-- page 2 -->']);
  });

  it('makes body-size lines that match a bookmark into headings', async () => {
    const pdf = await makePdf((doc) => {
      doc.outline.addItem('Background').addItem('Prior work');
      doc.font('Helvetica').fontSize(11).text('Opening paragraph of the memo.', 72, 72);
      doc.font('Helvetica-Bold').fontSize(11).text('Background', 72, 110);
      doc.font('Helvetica').fontSize(11).text('Why this matters.', 72, 130);
      doc.font('Helvetica-Bold').fontSize(11).text('Prior work', 72, 170);
      doc.font('Helvetica').fontSize(11).text('What others did.', 72, 190);
    });
    expect((await pdfToMarkdown(pdf)).markdown).toBe(
      'Opening paragraph of the memo.\n\n## Background\n\nWhy this matters.\n\n### Prior work\n\nWhat others did.\n',
    );
  });

  it('ignores rotated text (margin labels, watermarks)', async () => {
    const pdf = await makePdf((doc) => {
      doc.fontSize(12).text('Body text stays.', 72, 72);
      doc
        .save()
        .rotate(90, { origin: [300, 400] })
        .fontSize(40)
        .text('DRAFT', 300, 400)
        .restore();
    });
    expect((await pdfToMarkdown(pdf)).markdown).toBe('Body text stays.\n');
  });

  it('goes through convertDocument with metadata.contentType and pageCount', async () => {
    const result = await convertDocument({
      body: fixture('two-column.pdf'),
      contentType: 'application/pdf',
      headers: {},
      url: 'https://e.test/p.pdf',
    });
    expect(result.metadata).toMatchObject({ contentType: 'application/pdf', pageCount: 2, description: 'A two-column test paper' });
  });
});

describe('pdfToMarkdown with a PdfWorkerPool', () => {
  it('reuses warm workers and gives the same results, also after failures', async () => {
    const pool = new PdfWorkerPool({ maxIdle: 1 });
    try {
      const oneShot = await pdfToMarkdown(fixture('two-column.pdf'));
      const first = await pdfToMarkdown(fixture('two-column.pdf'), { pool });
      const warm = await pool.take();
      pool.give(warm);
      expect(await pool.take()).toBe(warm);
      pool.give(warm);
      expect((await failure(pdfToMarkdown(fixture('encrypted.pdf'), { pool }))).code).toBe('EXTRACTION_FAILED');
      expect((await failure(pdfToMarkdown(fixture('hostile-flate-bomb.pdf'), { pool }))).code).toBe('EXTRACTION_FAILED');
      expect((await failure(pdfToMarkdown(fixture('report-50.pdf'), { pool, timeoutMs: 1 }))).code).toBe('EXTRACTION_FAILED');
      const again = await convertDocument(
        { body: fixture('two-column.pdf'), contentType: 'application/pdf', headers: {}, url: 'https://e.test/p.pdf' },
        { pdf: { pool } },
      );
      expect(first.markdown).toBe(oneShot.markdown);
      expect(again.markdown).toBe(oneShot.markdown);
    } finally {
      await pool.close();
    }
  });

  it('queues beyond maxActive and gives up waiting at the time budget', async () => {
    const pool = new PdfWorkerPool({ maxActive: 1 });
    try {
      const held = await pool.take();
      const err = await failure(pdfToMarkdown(fixture('two-column.pdf'), { pool, timeoutMs: 50 }));
      expect(err.message).toContain('50 ms budget');
      const queued = pdfToMarkdown(fixture('two-column.pdf'), { pool });
      pool.give(held);
      expect((await queued).metadata.pageCount).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('runs conversions in parallel on separate workers', async () => {
    const pool = new PdfWorkerPool({ maxIdle: 2 });
    try {
      const results = await Promise.all(
        ['two-column.pdf', 'report-50.pdf', 'encrypted-owner-only.pdf'].map((f) => pdfToMarkdown(fixture(f), { pool })),
      );
      expect(results.map((r) => r.metadata.pageCount)).toEqual([2, 50, 1]);
    } finally {
      await pool.close();
    }
  });
});

/** A minimal hand-built PDF: one page of Helvetica text, an XMP packet, no /Info. */
function pdfWithXmp(xmp: string, text: string): Buffer {
  const content = `BT /F1 12 Tf 72 700 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R /Metadata 5 0 R /Lang (fr-CA) >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 6 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    `<< /Type /Metadata /Subtype /XML /Length ${Buffer.byteLength(xmp)} >>\nstream\n${xmp}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((obj, i) => {
    offsets.push(Buffer.byteLength(body));
    body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body);
}

describe('PDF metadata from XMP and the catalog', () => {
  it('takes title, author and description from XMP when /Info has none, language from /Lang', async () => {
    const xmp = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Rapport annuel</rdf:li></rdf:Alt></dc:title>
<dc:creator><rdf:Seq><rdf:li>Marie Curie</rdf:li></rdf:Seq></dc:creator>
<dc:description><rdf:Alt><rdf:li xml:lang="x-default">Un resume</rdf:li></rdf:Alt></dc:description>
</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>`;
    const result = await pdfToMarkdown(pdfWithXmp(xmp, 'Bonjour le monde'));
    expect(result.markdown).toBe('Bonjour le monde\n');
    expect(result.metadata).toMatchObject({
      title: 'Rapport annuel',
      author: 'Marie Curie',
      description: 'Un resume',
      language: 'fr-CA',
      pageCount: 1,
    });
  });
});

describe('pdf.js without its optional canvas package', () => {
  it('still extracts text with the DOMMatrix stand-in', async () => {
    const worker = spawnPdfWorker(256, { forceMatrixStub: true });
    const messages: string[] = [];
    const data = new Uint8Array(fixture('encrypted-owner-only.pdf'));
    const job = runPdfJob(
      worker,
      { data, maxPages: 5, maxStreamBytes: 1 << 26, maxTotalBytes: 1 << 28 },
      (msg) => {
        if (msg.type === 'page') messages.push(msg.items.map((i) => i.text).join(' '));
        if (msg.type === 'error') messages.push(`error: ${msg.message}`);
      },
      () => messages.push('crash'),
    );
    try {
      expect(await job.finished).toBe(true);
      expect(messages.join(' ')).toContain('Anyone can open this file');
    } finally {
      await worker.terminate();
    }
  });
});
