import type { WafVendor } from '../../../src/fetch/waf.js';

export interface WafFixture {
  name: string;
  vendor: WafVendor | null;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Block pages written from the vendors' public documentation and common observations. */
export const WAF_FIXTURES: WafFixture[] = [
  {
    name: 'cloudflare managed challenge',
    vendor: 'cloudflare',
    status: 403,
    headers: {
      server: 'cloudflare',
      'cf-ray': '8a1b2c3d4e5f6789-FRA',
      'cf-mitigated': 'challenge',
      'content-type': 'text/html; charset=UTF-8',
    },
    body: '<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title></head><body><div id="challenge-body-text">Checking if the site connection is secure</div><script src="/cdn-cgi/challenge-platform/h/g/orchestrate/chl_page/v1?ray=8a1b"></script></body></html>',
  },
  {
    name: 'cloudflare 503 "Just a moment" without cf-mitigated',
    vendor: 'cloudflare',
    status: 503,
    headers: { server: 'cloudflare', 'cf-ray': '7f00aa11bb22cc33-AMS', 'content-type': 'text/html' },
    body: '<html><head><title>Just a moment...</title></head><body><form id="challenge-form" action="/?__cf_chl_f_tk=abc" method="POST"></form></body></html>',
  },
  {
    name: 'cloudflare "Sorry, you have been blocked"',
    vendor: 'cloudflare',
    status: 403,
    headers: { server: 'cloudflare', 'cf-ray': '7f00aa11bb22cc34-LHR' },
    body: '<title>Attention Required! | Cloudflare</title><h1 data-translate="block_headline">Sorry, you have been blocked</h1><p>Cloudflare Ray ID: 7f00aa11bb22cc34</p>',
  },
  {
    name: 'akamai access denied',
    vendor: 'akamai',
    status: 403,
    headers: { server: 'AkamaiGHost', 'content-type': 'text/html', 'mime-version': '1.0' },
    body: '<HTML><HEAD>\n<TITLE>Access Denied</TITLE>\n</HEAD><BODY>\n<H1>Access Denied</H1>\n \nYou don\'t have permission to access "http&#58;&#47;&#47;www&#46;example&#46;com&#47;" on this server.<P>\nReference&#32;&#35;18&#46;2f1c1002&#46;1700000000&#46;5e1a2b3\n<P>https&#58;&#47;&#47;errors&#46;edgesuite&#46;net&#47;18&#46;2f1c1002</P>\n</BODY>\n</HTML>',
  },
  {
    name: 'akamai access denied, no server header',
    vendor: 'akamai',
    status: 403,
    headers: { 'content-type': 'text/html' },
    body: '<HTML><HEAD><TITLE>Access Denied</TITLE></HEAD><BODY><H1>Access Denied</H1>You don\'t have permission to access "/" on this server.<P>Reference #18.6d3c3e17.1700000001.2a3b4c</BODY></HTML>',
  },
  {
    name: 'imperva incapsula incident',
    vendor: 'imperva',
    status: 403,
    headers: {
      'x-iinfo': '9-12345678-0 0NNN RT(1700000000000 0) q(0 -1 -1 -1) r(0 -1)',
      'x-cdn': 'Imperva',
      'set-cookie': 'visid_incap_123=abc; path=/',
    },
    body: '<html style="height:100%"><head><META NAME="ROBOTS" CONTENT="NOINDEX, NOFOLLOW"></head><body><iframe id="main-iframe" src="/_Incapsula_Resource?CWUDNSAI=9&xinfo=9-12345678-0&incident_id=123-456&edet=15" frameborder=0>Request unsuccessful. Incapsula incident ID: 123000450123456789-12345678901234567</iframe></body></html>',
  },
  {
    name: 'datadome captcha',
    vendor: 'datadome',
    status: 403,
    headers: {
      server: 'DataDome',
      'x-datadome': 'protected',
      'x-datadome-cid': 'AHrlqAAAAAMA',
      'set-cookie': 'datadome=abc123; Max-Age=31536000; Path=/',
    },
    body: '<html><head><title>example.com</title></head><body><script>var dd={"rt":"c","cid":"AHrlqAAAAAMA","hsh":"ABC","t":"fe","host":"geo.captcha-delivery.com"}</script><script src="https://ct.captcha-delivery.com/c.js"></script></body></html>',
  },
  {
    name: 'perimeterx / HUMAN press and hold',
    vendor: 'perimeterx',
    status: 403,
    headers: { 'content-type': 'text/html', 'set-cookie': '_pxhd=abc:def; path=/' },
    body: '<!DOCTYPE html><html><head><title>Access to this page has been denied</title></head><body><div id="px-captcha"></div><script>window._pxAppId = "PXabc123";window._pxUuid="1234";</script><p>Press &amp; Hold to confirm you are a human (and not a bot).</p><script src="/PXabc123/init.js"></script></body></html>',
  },
  {
    name: 'sucuri website firewall',
    vendor: 'sucuri',
    status: 403,
    headers: { server: 'Sucuri/Cloudproxy', 'x-sucuri-id': '18012', 'x-sucuri-block': 'BOT01' },
    body: '<!DOCTYPE html><html><head><title>Sucuri WebSite Firewall - Access Denied</title></head><body><h2>Access Denied - Sucuri Website Firewall</h2><p>If you are the site owner, contact <a href="mailto:cloudproxy@sucuri.net">cloudproxy@sucuri.net</a></p></body></html>',
  },
  {
    name: 'aws waf via cloudfront',
    vendor: 'aws-waf',
    status: 403,
    headers: {
      server: 'CloudFront',
      'x-cache': 'Error from cloudfront',
      via: '1.1 abc.cloudfront.net (CloudFront)',
      'x-amz-cf-id': 'abcDEF==',
    },
    body: '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"><HTML><HEAD><TITLE>ERROR: The request could not be satisfied</TITLE></HEAD><BODY><H1>403 ERROR</H1><H2>The request could not be satisfied.</H2><HR noshade size="1px">Request blocked.\nWe can\'t connect to the server for this app or website at this time.<BR clear="all"><HR noshade size="1px"><PRE>Generated by cloudfront (CloudFront)\nRequest ID: abcDEF==</PRE></BODY></HTML>',
  },
  {
    name: 'aws waf challenge action',
    vendor: 'aws-waf',
    status: 202,
    headers: { 'x-amzn-waf-action': 'challenge', 'content-type': 'text/html' },
    body: '<html><head><script src="https://abc.token.awswaf.com/abc/challenge.js"></script></head><body></body></html>',
  },
  {
    name: 'aws waf on an application load balancer',
    vendor: 'aws-waf',
    status: 403,
    headers: { server: 'awselb/2.0', 'content-type': 'text/html' },
    body: '<html>\r\n<head><title>403 Forbidden</title></head>\r\n<body>\r\n<center><h1>403 Forbidden</h1></center>\r\n</body>\r\n</html>\r\n',
  },
  {
    name: 'kasada 429',
    vendor: 'kasada',
    status: 429,
    headers: { 'x-kpsdk-ct': '0abc', 'x-kpsdk-r': '1-ABC', 'content-type': 'text/html' },
    body: '<html><head></head><body><script>window.KPSDK={};KPSDK.now=typeof performance!=="undefined"&&performance.now?function(){return performance.now()}:Date.now;</script><script src="/149e9513-01fa-4fb0-aad4-566afd725d1b/2d206a39-8ed7-437e-a3be-862e0f06eea3/ips.js?tkrm_alpekz_s1.3=0abc"></script></body></html>',
  },
  // negatives: error pages that are not firewalls
  {
    name: 'plain nginx 403',
    vendor: null,
    status: 403,
    headers: { server: 'nginx/1.25.3', 'content-type': 'text/html' },
    body: '<html><head><title>403 Forbidden</title></head><body><center><h1>403 Forbidden</h1></center><hr><center>nginx/1.25.3</center></body></html>',
  },
  {
    name: 'origin 403 behind cloudflare without challenge',
    vendor: null,
    status: 403,
    headers: { server: 'nginx', 'cf-ray': '1234-FRA' },
    body: '<h1>Forbidden</h1><p>You need to log in.</p>',
  },
  {
    name: 'plain 503 maintenance',
    vendor: null,
    status: 503,
    headers: { 'retry-after': '120' },
    body: 'Down for maintenance',
  },
  {
    name: 'plain 429 rate limit',
    vendor: null,
    status: 429,
    headers: { 'retry-after': '10' },
    body: 'Too many requests',
  },
  {
    name: '200 page that mentions cloudflare',
    vendor: null,
    status: 200,
    headers: { server: 'cloudflare', 'cf-ray': '1-AMS' },
    body: '<p>We use Cloudflare and Akamai. Just a moment... says the spinner.</p>',
  },
];
