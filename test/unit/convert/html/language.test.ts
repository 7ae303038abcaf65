import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../../src/convert/html/index.js';
import { detectLanguage, normaliseLanguageTag } from '../../../../src/convert/html/language.js';

describe('language', () => {
  it('normalises tags to BCP 47 casing', () => {
    expect(normaliseLanguageTag('en_us')).toBe('en-US');
    expect(normaliseLanguageTag('ZH-hant-tw')).toBe('zh-Hant-TW');
    expect(normaliseLanguageTag('de-DE, en;q=0.5')).toBe('de-DE');
    expect(normaliseLanguageTag('not a tag')).toBeNull();
    expect(normaliseLanguageTag('')).toBeNull();
  });

  it('detects the language of the text when nothing declares it', () => {
    expect(detectLanguage('Les ventes de vélos électriques aux plus de soixante ans ont doublé en trois ans, selon la fédération.')).toBe(
      'fr',
    );
    expect(detectLanguage('short')).toBeNull();
  });

  it('uses <html lang>, then Content-Language, then detection', () => {
    const body =
      '<body><article><p>Der schnelle braune Fuchs springt über den faulen Hund, und die Wirtschaft wächst weiter.</p></article></body>';
    expect(htmlToMarkdown(`<html lang="pt-br">${body}</html>`, 'https://x.test/').metadata.language).toBe('pt-BR');
    expect(htmlToMarkdown(`<html>${body}</html>`, 'https://x.test/', { contentLanguage: 'nl' }).metadata.language).toBe('nl');
    expect(htmlToMarkdown(`<html>${body}</html>`, 'https://x.test/').metadata.language).toBe('de');
  });
});
