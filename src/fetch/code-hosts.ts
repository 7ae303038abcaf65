/**
 * Code-hosting "blob" pages → raw content (DESIGN §2). Input is a parsed URL with a
 * lower-case host; returns a new URL or null when no rule applies. Only file paths are
 * rewritten (a ref followed by at least one path segment).
 */
export function rewriteCodeHostUrl(url: URL): URL | null {
  const host = url.hostname;
  const segs = url.pathname.split('/').slice(1);
  const rebuild = (newHost: string, parts: string[]): URL => {
    const out = new URL(url.href);
    out.hostname = newHost;
    out.pathname = `/${parts.join('/')}`;
    return out;
  };

  if (host === 'github.com' || host === 'www.github.com') {
    // /o/r/blob/ref/path… → raw.githubusercontent.com/o/r/ref/path…
    const [owner, repo, kind, ...rest] = segs;
    if (owner && repo && kind === 'blob' && rest.length >= 2 && rest.every(Boolean)) {
      const out = rebuild('raw.githubusercontent.com', [owner, repo, ...rest]);
      out.search = '';
      return out;
    }
    return null;
  }
  if (host === 'gist.github.com') {
    // /user/id[/revision] → gist.githubusercontent.com/user/id/raw[/revision]
    const [user, id, rev, ...more] = segs;
    if (user && id && /^[0-9a-f]+$/i.test(id) && more.length === 0 && (rev === undefined || /^[0-9a-f]+$/i.test(rev))) {
      const out = rebuild('gist.githubusercontent.com', rev ? [user, id, 'raw', rev] : [user, id, 'raw']);
      out.search = '';
      return out;
    }
    return null;
  }
  if (host === 'gitlab.com' || host.split('.')[0] === 'gitlab') {
    // /group/…/project/-/blob/ref/path → /-/raw/
    const i = segs.indexOf('-');
    if (i >= 2 && segs[i + 1] === 'blob' && segs.length - (i + 2) >= 2) {
      return rebuild(host, [...segs.slice(0, i), '-', 'raw', ...segs.slice(i + 2)]);
    }
    return null;
  }
  if (host === 'bitbucket.org' || host === 'www.bitbucket.org') {
    // /ws/repo/src/ref/path → /ws/repo/raw/ref/path
    const [ws, repo, kind, ...rest] = segs;
    if (ws && repo && kind === 'src' && rest.length >= 2 && rest[rest.length - 1]) {
      return rebuild('bitbucket.org', [ws, repo, 'raw', ...rest]);
    }
    return null;
  }
  if (host === 'codeberg.org' || host === 'gitea.com' || /^(gitea|forgejo)\./.test(host)) {
    // /o/r/src/{branch|commit|tag}/ref/path → /o/r/raw/{…}/ref/path
    const [owner, repo, kind, refKind, ...rest] = segs;
    if (
      owner &&
      repo &&
      kind === 'src' &&
      (refKind === 'branch' || refKind === 'commit' || refKind === 'tag') &&
      rest.length >= 2 &&
      rest[rest.length - 1]
    ) {
      return rebuild(host, [owner, repo, 'raw', refKind, ...rest]);
    }
    return null;
  }
  return null;
}
