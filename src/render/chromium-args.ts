/**
 * Command-line switches of the rendering Chromium, in one place. Together with the
 * per-context proxy (browser-pool.ts) they leave the browser no way to the network except
 * our guard proxy:
 * - `--host-resolver-rules`: Chromium's own resolver answers NOTFOUND for every name except
 *   the proxy's literal 127.0.0.1, so it can neither resolve nor connect by itself (the
 *   proxy resolves, with the fetcher's resolver and checks).
 * - the proxy itself (`--proxy-server`, `--proxy-bypass-list=<-loopback>`) is set by
 *   playwright from the launch options; `<-loopback>` stops Chromium's default of going
 *   straight to 127.0.0.1/localhost/[::1] without the proxy.
 * - QUIC off (UDP would not go through an HTTP proxy), WebRTC limited to proxied TCP,
 *   no background networking (safe browsing, component and variations updates, DNS
 *   prefetch), no DNS-over-HTTPS, no extensions, plugins, notifications, sync.
 * The Debian build also needs `--no-sandbox` in containers (no user namespaces for the
 * zygote) and `--disable-gpu`. playwright adds `--headless` and its own defaults (among
 * them a `--disable-features` list that a second such switch would replace, so none here).
 */
export function chromiumArgs(opts: { proxyHost: string; jsHeapMb: number }): string[] {
  return [
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--no-default-browser-check',
    `--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE ${opts.proxyHost}`,
    '--disable-quic',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-default-apps',
    '--disable-extensions',
    '--disable-plugins',
    '--disable-notifications',
    '--deny-permission-prompts',
    '--disable-domain-reliability',
    '--disable-client-side-phishing-detection',
    '--disable-breakpad',
    '--metrics-recording-only',
    '--no-pings',
    '--mute-audio',
    '--disable-dev-shm-usage',
    // browser-wide instead of per-page emulation (no round trips when a page opens)
    '--lang=en-US',
    '--window-size=1280,900',
    // one renderer per context is enough for reading; site-per-process would spawn one per
    // cross-site iframe (memory, bench/render.ts) and protects nothing here: contexts hold
    // no cookies or credentials and are thrown away after one page
    '--disable-site-isolation-trials',
    // a page's JavaScript heap is capped: an allocation loop crashes its tab, not the host
    `--js-flags=--max-old-space-size=${opts.jsHeapMb}`,
  ];
}
