/** marked 4 ships no types; the tests use only `marked.parse` (the playground the min build). */
declare module 'marked' {
  export const marked: {
    parse(markdown: string, options?: { mangle?: boolean; headerIds?: boolean }): string;
  };
}
