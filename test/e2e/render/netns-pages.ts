/**
 * Hostile pages for the namespace SSRF test: a client-rendered article (its content from a
 * same-origin JSON call, so "the page still renders" is proven by the browser having
 * worked) whose scripts and markup try to reach every private target every way a page
 * can. Pure strings: the child serves them.
 */

export const SAFE_TEXT = 'The lighthouse keeper logged every passing ship by hand';

export const ARTICLE_JSON = JSON.stringify({
  title: 'Notes from the lighthouse',
  paragraphs: [
    `${SAFE_TEXT}, in a ledger that now fills eleven volumes. The entries give the name, the flag and the direction of travel, and on stormy nights a few words about the sea.`,
    'Historians use the ledgers to date the decline of the coastal trade: the entries thin out in the years after the railway reached the harbour, and the last sailing ship appears in the spring of the final volume.',
  ],
});

/** Renders the article from the JSON; every attack page starts with it. */
const RENDER_ARTICLE = `
fetch('/api/article.json').then(function (r) { return r.json(); }).then(function (a) {
  var art = document.createElement('article');
  var h1 = document.createElement('h1'); h1.textContent = a.title; art.append(h1);
  a.paragraphs.forEach(function (p) { var el = document.createElement('p'); el.textContent = p; art.append(el); });
  document.getElementById('root').append(art);
});`;

function shell(title: string, head: string, script: string, body = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head>
<body><div id="root"></div>${body}
<script>${RENDER_ARTICLE}</script>
<script>${script}</script>
</body></html>
`;
}

/** Sub-resources of every kind, to every target; the browser must stay on the page. */
export function attackPage(targets: string[], sitePort: number): string {
  const T = JSON.stringify(targets);
  const head = targets
    .map(
      (t) =>
        `<link rel="prefetch" href="${t}prefetch"><link rel="preconnect" href="${t}"><link rel="dns-prefetch" href="${t}">` +
        `<link rel="preload" as="fetch" href="${t}preload" crossorigin><link rel="modulepreload" href="${t}module.js">` +
        `<link rel="stylesheet" href="${t}style.css">`,
    )
    .join('\n');
  const markup = targets
    .map(
      (t) =>
        `<img src="${t}img.png"><iframe src="${t}frame"></iframe><script src="${t}script.js"></script>` +
        `<object data="${t}object"></object><video src="${t}video.mp4"></video><audio src="${t}audio.mp3"></audio>` +
        `<form method="post" action="${t}form" target="sink"><input name="q" value="x"></form>`,
    )
    .join('\n');
  const script = `
var T = ${T};
T.forEach(function (t) {
  fetch(t + 'fetch').catch(function () {});
  fetch(t + 'post', { method: 'POST', body: 'x', mode: 'no-cors' }).catch(function () {});
  fetch(t.replace(/^http:/, 'https:') + 'tls').catch(function () {});
  try { var x = new XMLHttpRequest(); x.open('GET', t + 'xhr'); x.send(); } catch (e) {}
  try { navigator.sendBeacon(t + 'beacon', 'beacon'); } catch (e) {}
  try { new WebSocket(t.replace(/^http/, 'ws') + 'ws'); } catch (e) {}
  try { new WebSocket(t.replace(/^http/, 'wss') + 'wss'); } catch (e) {}
  try { new EventSource(t + 'events'); } catch (e) {}
  var css = document.createElement('style');
  css.textContent = '@import url("' + t + 'import.css"); body { background: url("' + t + 'bg.png"); }';
  document.head.append(css);
  var s = document.createElement('script'); s.src = t + 'dynamic.js'; document.head.append(s);
  var f = document.createElement('iframe'); f.src = t + 'dynamic-frame'; document.body.append(f);
});
document.querySelectorAll('form').forEach(function (form) { try { form.submit(); } catch (e) {} });
try { navigator.serviceWorker.register('/sw.js').catch(function () {}); } catch (e) {}
try { new Worker('/worker.js'); } catch (e) {}
try {
  var pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:10.0.0.1:3478' }, { urls: 'turn:10.0.0.1:3478?transport=udp', username: 'u', credential: 'c' }] });
  pc.createDataChannel('x');
  pc.createOffer().then(function (o) { return pc.setLocalDescription(o); }).catch(function () {});
} catch (e) {}
fetch('/r1').catch(function () {});
var chain = document.createElement('script'); chain.src = '/r1'; document.head.append(chain);
fetch('http://rebind.test:${sitePort}/api/first').catch(function () {}).then(function () {
  fetch('http://rebind.test:${sitePort}/api/second').catch(function () {});
});`;
  return shell('Notes from the lighthouse', head, script, `<iframe name="sink"></iframe>${markup}`);
}

/** The main frame itself trying to leave for every target (one way per page). */
export function navigationPage(how: string, targets: string[], sitePort: number): string {
  const T = JSON.stringify(targets);
  switch (how) {
    case 'form':
      // a form posted by the main frame to each target in turn
      return shell(
        'Notes from the lighthouse',
        '',
        `var T = ${T}; T.forEach(function (t, i) { setTimeout(function () {
          var f = document.createElement('form'); f.method = 'post'; f.action = t + 'form';
          var input = document.createElement('input'); input.name = 'q'; input.value = 'x'; f.append(input);
          document.body.append(f); f.submit(); }, 100 + i * 40); });`,
      );
    case 'meta':
      return shell('Notes from the lighthouse', '<meta http-equiv="refresh" content="0;url=http://10.0.0.1:8080/refresh">', '');
    case 'chain':
      // a same-origin navigation whose redirects end at a private address
      return shell('Notes from the lighthouse', '', `setTimeout(function () { location.href = 'http://site.test:${sitePort}/r1'; }, 100);`);
    case 'open':
      return shell(
        'Notes from the lighthouse',
        '',
        `var T = ${T}; T.forEach(function (t) { try { window.open(t + 'popup'); } catch (e) {} });`,
      );
    default:
      // location changes to each target in turn
      return shell(
        'Notes from the lighthouse',
        '',
        `var T = ${T}; T.forEach(function (t, i) { setTimeout(function () { location.href = t + 'location'; }, 100 + i * 40); });`,
      );
  }
}
