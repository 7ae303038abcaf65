/**
 * marked 4 ships no types. Used by the output-safety tests and by convert/output.ts, which
 * renders the Markdown of non-HTML documents for `format: html` and `text`.
 */
declare module 'marked' {
  export const marked: {
    parse(markdown: string, options?: { mangle?: boolean; headerIds?: boolean; gfm?: boolean }): string;
  };
}
