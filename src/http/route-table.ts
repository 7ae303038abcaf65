/**
 * Remembers every registered route pattern so the not-found handler can tell an unknown
 * path (404) from a known path used with the wrong method (405 + Allow).
 */
export class RouteTable {
  private readonly routes: Array<{ pattern: RegExp; method: string; url: string }> = [];

  add(url: string, methods: string | string[]): void {
    const source = url
      .split('/')
      .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
      .join('/');
    for (const method of Array.isArray(methods) ? methods : [methods]) {
      if (method === 'HEAD') continue;
      // Our own route URLs, escaped; each parameter is `[^/]+` between literal slashes, so a
      // match is one pass over the path.
      // eslint-disable-next-line pith/no-rescan
      this.routes.push({ pattern: new RegExp(`^${source}/?$`), method, url });
    }
  }

  /** Every (method, url pattern) registered, HEAD twins excluded. */
  list(): Array<{ method: string; url: string }> {
    return this.routes.map(({ method, url }) => ({ method, url }));
  }

  allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    for (const r of this.routes) if (r.pattern.test(path)) methods.add(r.method);
    return [...methods];
  }
}
