import { detect } from 'tinyld';

/**
 * metadata.language as a BCP 47 tag: `<html lang>`, else the Content-Language header, else
 * a guess from the text by tinyld (ISO 639-1 codes, which are valid BCP 47 primary tags).
 */

/** Below this many letters a statistical guess is noise. */
const MIN_DETECT_CHARS = 40;
/** The detector reads this much text; more costs time and changes nothing. */
const DETECT_SAMPLE_CHARS = 200;

export function normaliseLanguageTag(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const first = raw.split(/[,;]/)[0]?.trim().replace(/_/g, '-') ?? '';
  if (!/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/.test(first)) return null;
  const [lang, ...rest] = first.split('-');
  const tail = rest.map((p) =>
    p.length === 2 ? p.toUpperCase() : p.length === 4 ? p[0]?.toUpperCase() + p.slice(1).toLowerCase() : p.toLowerCase(),
  );
  return [(lang as string).toLowerCase(), ...tail].join('-');
}

export function detectLanguage(text: string): string | null {
  const sample = text.slice(0, DETECT_SAMPLE_CHARS);
  const letters = sample.replace(/[^\p{L}]/gu, '');
  if (letters.length < MIN_DETECT_CHARS) return null;
  const code = detect(sample);
  return code ? normaliseLanguageTag(code) : null;
}

export function pageLanguage(htmlLang: string | null, contentLanguage: string | null | undefined, text: () => string): string | null {
  return normaliseLanguageTag(htmlLang) ?? normaliseLanguageTag(contentLanguage) ?? detectLanguage(text());
}
