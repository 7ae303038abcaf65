/**
 * A layer pinned over the whole viewport (`fixed inset-0`) is a modal or a drawer the page's
 * scripts open on top of it: its text is not the page's. A layer that only fills its own box
 * (`absolute inset-0`) is a caption over a picture, and a whole page held in such a layer (an
 * app shell) stays.
 */
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../../src/convert/html/index.js';

const DESCRIPTION =
  '<p>Our felted wool slipper is knitted from undyed merino and stitched onto a natural rubber sole, so it keeps its shape for years of evenings by the stove.</p>' +
  '<p>The footbed is lined with a thin cork layer that moulds to your foot within a week and keeps it dry even on a cold stone floor.</p>';

const NOTIFY_MODAL =
  '<div class="z-50 fixed inset-0 overflow-y-auto"><div class="fixed inset-0 bg-black/50"></div>' +
  '<div class="relative mx-auto max-w-md"><h3>Notify me when back in stock</h3>' +
  '<p>Limited colours sell out fast. Leave your email address and we will write the moment this one returns to the shelves.</p>' +
  '<form><input type="email" name="email"><button>Notify me</button></form></div></div>';

const page = (extra: string): string =>
  `<!doctype html><html><head><title>Felted Wool Slipper</title></head><body><main><h1>Felted Wool Slipper</h1>${extra}${DESCRIPTION}</main></body></html>`;

describe('viewport overlays', () => {
  it('drops a modal pinned over the viewport and keeps the product text', () => {
    const md = htmlToMarkdown(page(NOTIFY_MODAL), 'https://shop.example/products/felted-wool-slipper').markdown;
    expect(md).toContain('knitted from undyed merino');
    expect(md).toContain('thin cork layer');
    expect(md).not.toContain('Notify me when back in stock');
    expect(md).not.toContain('Leave your email address');
  });

  it('keeps a caption laid over its own picture (absolute, not fixed)', () => {
    const caption =
      '<figure class="relative"><img src="/slipper.jpg" alt="Slipper"><div class="absolute inset-0"><p>Hand-stitched in our workshop beside the river mill.</p></div></figure>';
    const md = htmlToMarkdown(page(caption), 'https://shop.example/products/felted-wool-slipper').markdown;
    expect(md).toContain('Hand-stitched in our workshop');
    expect(md).toContain('knitted from undyed merino');
  });

  it('keeps a whole page held in a fixed full-screen shell', () => {
    const html = `<!doctype html><html><head><title>Felted Wool Slipper</title></head><body><div class="fixed inset-0 overflow-auto"><main><h1>Felted Wool Slipper</h1>${DESCRIPTION}${DESCRIPTION.replace(/<p>/g, '<p>Again: ')}</main></div></body></html>`;
    const md = htmlToMarkdown(html, 'https://shop.example/products/felted-wool-slipper').markdown;
    expect(md).toContain('knitted from undyed merino');
    expect(md).toContain('thin cork layer');
  });
});
