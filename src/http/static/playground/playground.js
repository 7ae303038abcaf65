// pith playground: POST /v1/read on this origin, then show the Markdown rendered and raw,
// the stats, the billing and cache headers, and the warnings. No framework, no build.

(() => {
  const $ = (id) => document.getElementById(id);
  const BILLING_HEADERS = [
    ['X-Service-Cache', 'cache'],
    ['X-Service-Billed', 'billed to'],
    ['X-RateLimit-Remaining', 'plan credits left'],
    ['X-RateLimit-Reset', 'plan credits reset'],
    ['X-Credits-Remaining', 'bought credits left'],
    ['X-Concurrent-Remaining', 'concurrency headroom'],
    ['X-Request-Id', 'request id'],
  ];
  const KEY_STORE = 'pith.playground.key';
  let last = null; // { json, markdown, html }

  function fillList(dl, rows) {
    dl.replaceChildren();
    for (const [name, value] of rows) {
      const dt = document.createElement('dt');
      dt.textContent = name;
      const dd = document.createElement('dd');
      dd.textContent = value === null || value === undefined || value === '' ? '—' : String(value);
      dl.append(dt, dd);
    }
  }

  /** Appends an ordered list of `items`, one text line each, under the rendered view. */
  function appendList(className, items, line) {
    const list = document.createElement('ol');
    list.className = className;
    for (const item of items) {
      const li = document.createElement('li');
      li.textContent = line(item);
      list.append(li);
    }
    $('rendered').append(list);
  }

  function setStatus(text) {
    $('status').textContent = text;
  }

  function showError(code, message, requestId) {
    $('error').hidden = false;
    $('error-code').textContent = code;
    $('error-message').textContent = message;
    $('error-request').textContent = requestId || '—';
  }

  /** Attributes that make a browser fetch something as soon as the element exists. */
  const LOADING_ATTRIBUTES = ['src', 'srcset', 'poster', 'background', 'data'];

  /**
   * Remote images stay unloaded until the user asks: an image URL in a page is a tracking
   * pixel or a request into the viewer's own network as easily as a picture. Each image
   * becomes its alt text, marked as an image, with the URL as a tooltip. The work happens in
   * a DOMParser document, which never loads anything; only the result reaches the page.
   */
  function withoutRemoteLoads(html) {
    const doc = new DOMParser().parseFromString(html, 'text/html');
    for (const img of doc.body.querySelectorAll('img')) {
      const stand = doc.createElement('span');
      stand.className = 'image-placeholder';
      stand.textContent = `[image${img.getAttribute('alt') ? `: ${img.getAttribute('alt')}` : ''}]`;
      stand.title = img.getAttribute('src') || '';
      img.replaceWith(stand);
    }
    for (const el of doc.body.querySelectorAll('*')) {
      for (const name of LOADING_ATTRIBUTES) el.removeAttribute(name);
    }
    return doc.body.innerHTML;
  }

  function renderMarkdown(markdown) {
    const html = window.marked.parse(markdown, { mangle: false, headerIds: false });
    // The Markdown comes from arbitrary pages: never trust its HTML.
    const clean = window.DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
    return $('images').checked ? clean : withoutRemoteLoads(clean);
  }

  /** The content of the answer in its format, and how to show it rendered. */
  function contentOf(json) {
    if (typeof json.html === 'string') {
      const clean = window.DOMPurify.sanitize(json.html, { USE_PROFILES: { html: true } });
      return { title: 'HTML', raw: json.html, html: $('images').checked ? clean : withoutRemoteLoads(clean) };
    }
    if (typeof json.text === 'string') {
      const pre = document.createElement('pre');
      pre.textContent = json.text;
      return { title: 'Text', raw: json.text, html: pre.outerHTML };
    }
    const markdown = json.markdown || '';
    return { title: 'Markdown', raw: markdown, html: renderMarkdown(markdown) };
  }

  function showResult(json, response) {
    const content = contentOf(json);
    const markdown = content.raw;
    const html = content.html;
    last = { json, markdown, html };
    $('rendered').innerHTML = html;
    $('raw').textContent = markdown;
    $('raw-title').textContent = content.title;
    if (Array.isArray(json.links)) appendList('links', json.links, (link) => `${link.text || '(no text)'} — ${link.url}`);
    // listed as text: the viewer loads no image it was not asked to
    if (Array.isArray(json.images)) appendList('images', json.images, (image) => `${image.alt || '(no alt)'} — ${image.url}`);
    const meta = json.metadata || {};
    fillList($('metadata'), [
      ['url', json.url],
      ['title', meta.title],
      ['description', meta.description],
      ['language', meta.language],
      ['links', Array.isArray(json.links) ? `${json.links.length} in the content, ${json.links_elsewhere} elsewhere` : null],
      ['images', Array.isArray(json.images) ? `${json.images.length} in the content` : null],
    ]);
    const stats = json.stats || {};
    fillList($('stats'), [
      ['source', `${stats.raw_html_size_kb} KB`],
      ['markdown', `${stats.markdown_size_kb} KB`],
      ['reduction', `${stats.reduction_percent} %`],
      ['tokens', stats.tokens === undefined ? null : `${stats.tokens} (o200k)`],
      ['extraction', `${stats.extraction_time_ms} ms`],
      ['rendered', stats.rendered === undefined ? null : stats.rendered ? 'yes (headless browser)' : 'no'],
      ['cache hit', json.cache ? String(json.cache.hit) : null],
    ]);
    fillList(
      $('headers'),
      BILLING_HEADERS.map(([header, label]) => [label, response.headers.get(header)]),
    );
    const warnings = json.warnings || [];
    $('warnings').hidden = warnings.length === 0;
    $('warning-list').replaceChildren(
      ...warnings.map((w) => {
        const li = document.createElement('li');
        li.textContent = `${w.code}: ${w.message}`;
        return li;
      }),
    );
    $('result').hidden = false;
  }

  /** The request body: `render` as chosen (auto is the server's default, so it is not sent), and the read options. */
  function readBody(url) {
    const body = { url };
    if ($('fresh').checked) body.fresh = true;
    const render = $('render').value;
    if (render !== 'auto') body.render = render === 'true';
    // read options: only what differs from the defaults is sent
    const target = $('target').value.trim();
    const remove = $('remove').value.trim();
    if (target) body.target_selector = target;
    if (remove) body.remove_selector = remove;
    if ($('format').value !== 'markdown') body.format = $('format').value;
    if ($('whole').checked) body.main_content = false;
    if ($('links').checked) body.links = true;
    if ($('link-mode').value !== 'inline') body.link_mode = $('link-mode').value;
    if ($('image-mode').value !== 'keep') body.image_mode = $('image-mode').value;
    if ($('image-list').checked) body.images = true;
    if ($('raw-urls').checked) body.clean_urls = false;
    if ($('keep-hidden').checked) body.keep_hidden = true;
    return body;
  }

  async function read(event) {
    event.preventDefault();
    const url = $('url').value.trim();
    const key = $('key').value.trim();
    if ($('remember').checked) sessionStorage.setItem(KEY_STORE, key);
    else sessionStorage.removeItem(KEY_STORE);
    $('error').hidden = true;
    $('read').disabled = true;
    setStatus(`Reading ${url} …`);
    const started = performance.now();
    try {
      const response = await fetch('/v1/read', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(readBody(url)),
      });
      let json = null;
      try {
        json = await response.json();
      } catch {
        json = null;
      }
      const ms = Math.round(performance.now() - started);
      if (!response.ok || !json || json.status !== 'success') {
        const code = json?.code || `HTTP ${response.status}`;
        showError(code, json?.message || response.statusText, json?.request_id || response.headers.get('X-Request-Id'));
        setStatus(`Failed after ${ms} ms.`);
        return;
      }
      showResult(json, response);
      setStatus(`Read in ${ms} ms (${response.headers.get('X-Service-Cache') === 'HIT' ? 'from the cache' : 'fetched'}).`);
    } catch (err) {
      showError('NETWORK', err?.message ? err.message : String(err), null);
      setStatus('The service could not be reached.');
    } finally {
      $('read').disabled = false;
    }
  }

  async function copy(text, button) {
    const label = button.textContent;
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = 'Copied';
    } catch {
      // Clipboard API unavailable (insecure origin): fall back to a selected textarea.
      const area = document.createElement('textarea');
      area.value = text;
      document.body.append(area);
      area.select();
      const ok = document.execCommand('copy');
      area.remove();
      button.textContent = ok ? 'Copied' : 'Copy failed';
    }
    setTimeout(() => {
      button.textContent = label;
    }, 1200);
  }

  $('read-form').addEventListener('submit', read);
  $('images').addEventListener('change', () => {
    if (!last) return;
    last.html = contentOf(last.json).html;
    $('rendered').innerHTML = last.html;
  });
  $('copy-md').addEventListener('click', (e) => last && copy(last.markdown, e.currentTarget));
  $('copy-html').addEventListener('click', (e) => last && copy(last.html, e.currentTarget));
  $('copy-json').addEventListener('click', (e) => last && copy(JSON.stringify(last.json, null, 2), e.currentTarget));
  const remembered = sessionStorage.getItem(KEY_STORE);
  if (remembered) {
    $('key').value = remembered;
    $('remember').checked = true;
  }
  const params = new URLSearchParams(location.search);
  if (params.get('url')) $('url').value = params.get('url');
})();
