/**
 * INTERIM (owned by the fetcher work, issue 4): decodes body bytes to text.
 * BOM, then the Content-Type charset, else UTF-8.
 */
export interface DecodedText {
  text: string;
  charset: string;
  /** True when no BOM, header or meta declared the charset and it was guessed. */
  guessed: boolean;
}

export function decodeBody(body: Buffer, contentTypeHeader?: string | null): DecodedText {
  if (body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) {
    return { text: new TextDecoder('utf-8').decode(body.subarray(3)), charset: 'utf-8', guessed: false };
  }
  const declared = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentTypeHeader ?? '')?.[1];
  if (declared) {
    try {
      return { text: new TextDecoder(declared).decode(body), charset: declared.toLowerCase(), guessed: false };
    } catch {
      // unknown label: fall through to UTF-8
    }
  }
  return { text: new TextDecoder('utf-8').decode(body), charset: 'utf-8', guessed: !declared };
}
