import { createHash } from 'node:crypto';
import { html, trustedHtml, type SafeHtml } from './escape-html.js';

// Every page is self-contained: one inline stylesheet, a constant of this codebase allowed by its
// SHA-256 in the Content-Security-Policy, and at most one script of its own, a file this service
// serves (src/pages/browser/, bundled by page-scripts.ts) pinned by Subresource Integrity and
// allowed as 'self'. No script is inline. A page that needs more (the tracking map) names it, and
// only that page's policy allows it: files served by this service ('self', pinned by Subresource
// Integrity) and images from a named origin. Nothing else loads, so the policy can refuse
// everything else, including any injected script.

interface InlineAsset {
  source: string;
  /** CSP source expression, e.g. 'sha256-...'. */
  hash: string;
}

function inlineAsset(source: string): InlineAsset {
  return { source, hash: `'sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}'` };
}

/** A file this service serves (src/pages/map-assets.ts, page-scripts.ts), linked with its integrity hash. */
export interface ExternalAsset {
  href: string;
  integrity: string;
}

/** What one page loads beyond the inline stylesheet and its own script. */
export interface PageExtras {
  stylesheets?: readonly ExternalAsset[];
  /** Run in order, before the page's own script. */
  scripts?: readonly ExternalAsset[];
  /** CSP img-src sources, e.g. a map's tile server. */
  imgSrc?: readonly string[];
  /**
   * Origins a form on the page may end up at besides this service: browsers apply form-action to
   * the redirects after a POST, so the OAuth pages name the client's redirect origin.
   */
  formAction?: readonly string[];
}

export interface Page {
  status: number;
  html: string;
  csp: string;
}

const CSS = inlineAsset(`
:root{color-scheme:light dark;--fg:#1b1b1b;--muted:#5c5c5c;--bg:#f4f4f1;--card:#fff;--line:#d9d9d4;--accent:#0b57d0;--on-accent:#fff;--ok:#0a7a3d;--bad:#b3261e}
@media (prefers-color-scheme:dark){:root{--fg:#ececec;--muted:#a8a8a8;--bg:#121212;--card:#1d1d1d;--line:#363636;--accent:#8ab4ff;--on-accent:#0d1b33;--ok:#6dd58c;--bad:#ff8a80}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header{background:#111;color:#ffd500;padding:.7rem 1rem;font-weight:700;letter-spacing:.02em}
main{max-width:34rem;margin:0 auto;padding:1rem}
h1{font-size:1.4rem;margin:.25rem 0 1rem}
h2{font-size:1.1rem;margin:0 0 .6rem}
.card>:first-child{margin-top:0}
.card>:last-child{margin-bottom:0}
.card{background:var(--card);border:1px solid var(--line);border-radius:12px;padding:1rem;margin:0 0 1rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.4rem 1rem;margin:0}
dt{color:var(--muted)}
dd{margin:0;overflow-wrap:anywhere}
.fare{font-size:1.5rem;font-weight:700}
.fare .muted{font-size:1rem;font-weight:400}
.muted{color:var(--muted)}
label,legend{display:block;font-weight:600;margin:.9rem 0 .3rem;padding:0}
input[type=text],input[type=search],input[type=tel],input[type=email],input[type=number],input[type=date],input[type=password],input[type=file],select{width:100%;padding:.7rem;font:inherit;border:1px solid var(--line);border-radius:8px;background:var(--card);color:var(--fg)}
input[aria-invalid=true]{border-color:var(--bad);outline-color:var(--bad)}
fieldset{border:0;padding:0;margin:.9rem 0 0}
fieldset legend{margin-top:0}
label.choice{display:flex;align-items:center;gap:.6rem;font-weight:400;margin:.4rem 0}
.hint{color:var(--muted);font-size:.9rem;margin:.3rem 0 0}
.field-error{color:var(--bad);font-size:.9rem;margin:.3rem 0 0}
.field-error:empty{display:none}
button{display:block;width:100%;padding:.85rem;font:inherit;font-weight:700;border:0;border-radius:10px;background:var(--accent);color:var(--on-accent);margin-top:1rem;cursor:pointer}
button[disabled]{opacity:.55;cursor:progress}
button.decline{background:transparent;color:var(--fg);border:1px solid var(--line)}
button.suggestion{background:transparent;color:var(--fg);border:1px solid var(--line);font-weight:400;text-align:left;margin-top:.5rem}
.alert ul.suggestions{list-style:none;padding:0}
.actions{display:grid;grid-template-columns:1fr 1fr;gap:.75rem}
.alert{border:1px solid;border-radius:10px;padding:.75rem 1rem;margin:1rem 0}
.alert.error{color:var(--bad);border-color:var(--bad)}
.alert.ok{color:var(--ok);border-color:var(--ok)}
.alert>:first-child{margin-top:0}
.alert>:last-child{margin-bottom:0}
.alert ul{margin:.4rem 0 0;padding-left:1.2rem}
.status{font-size:1.3rem;font-weight:700;margin:0 0 .3rem}
.toggle{display:flex;align-items:center;justify-content:space-between;gap:1rem}
.toggle button{width:auto;margin:0;padding:.7rem 1.2rem}
table{width:100%;border-collapse:collapse;font-size:.95rem}
th,td{text-align:left;padding:.35rem .3rem;border-bottom:1px solid var(--line)}
.plate{display:inline-block;font-family:ui-monospace,Menlo,Consolas,monospace;font-weight:700;letter-spacing:.08em;background:#ffd500;color:#111;padding:.05rem .45rem;border-radius:4px}
.countdown{font-variant-numeric:tabular-nums;font-weight:700}
a{color:var(--accent)}
footer{color:var(--muted);font-size:.85rem;text-align:center;padding:0 1rem 1.5rem}
.eta{font-size:1.15rem;font-weight:700;margin:0}
.map{height:15rem;margin:.75rem 0 .5rem;border:1px solid var(--line);border-radius:8px}
.map-credit{font-size:.8rem;color:var(--muted);margin:0 0 .5rem}
.legend{display:flex;flex-wrap:wrap;gap:.4rem 1rem;list-style:none;margin:0;padding:0;font-size:.9rem;color:var(--muted)}
.dot{display:inline-block;width:.75rem;height:.75rem;border-radius:50%;margin-right:.35rem;vertical-align:-.05rem}
.dot.driver{background:#c5221f}
.dot.pickup{background:#0b57d0}
[hidden]{display:none!important}
.visually-hidden{position:absolute!important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
td select,td button{width:auto;margin:.2rem .3rem .2rem 0}
.table-scroll{overflow-x:auto;max-width:100%}
select{max-width:100%}
body.wide main{max-width:80rem}
@media (min-width:48rem){body.wide main{padding:1rem 1.5rem}}
.wide .table-scroll{position:relative}
.wide td select{min-width:12rem}
.wide td{vertical-align:top}
.wide td button{display:inline-block}
.wide main>section:not(.card),.wide main>div>section:not(.card){margin:0 0 1.75rem}
.toolbar{display:flex;flex-wrap:wrap;align-items:flex-end;gap:.25rem 1rem;margin:0 0 .75rem}
.toolbar label{margin:.4rem 0 .3rem}
.toolbar input,.toolbar select{width:auto;min-width:14rem;max-width:100%}
.toolbar input[type=search]{min-width:min(22rem,100%)}
.toolbar button{width:auto;margin:0;padding:.7rem 1.2rem}
.pager{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;margin:.75rem 0}
.pager button{width:auto;margin:0;padding:.55rem 1rem}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,24rem),1fr));gap:1rem;align-items:start}
.cards>.card{margin:0}
.week{display:grid;grid-template-columns:repeat(7,minmax(8.5rem,1fr));gap:.5rem;min-width:63rem}
.week section{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.5rem;min-height:6rem}
.week section.today{border-color:var(--accent);border-width:2px}
.week h3{font-size:.95rem;margin:0 0 .4rem}
.week ul{list-style:none;margin:0;padding:0;display:grid;gap:.35rem}
.week li{font-size:.85rem;border-left:3px solid var(--line);padding:.1rem 0 .1rem .4rem;overflow-wrap:anywhere}
.week li.open{border-left-color:var(--bad)}
.week li.taken{border-left-color:var(--ok)}
`);

function contentSecurityPolicy(script: ExternalAsset | undefined, extras: PageExtras): string {
  const self = (list: readonly ExternalAsset[] | undefined) => (list && list.length > 0 ? ["'self'"] : []);
  const scripts = self([...(extras.scripts ?? []), ...(script ? [script] : [])]);
  return [
    "default-src 'none'",
    `style-src ${[...self(extras.stylesheets), CSS.hash].join(' ')}`,
    `script-src ${scripts.length > 0 ? scripts.join(' ') : "'none'"}`,
    ...(extras.imgSrc && extras.imgSrc.length > 0 ? [`img-src ${extras.imgSrc.join(' ')}`] : []),
    // Scripts talk only to this service's own JSON endpoints.
    `connect-src ${script ? "'self'" : "'none'"}`,
    `form-action ${["'self'", ...(extras.formAction ?? [])].join(' ')}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * `wide`: a console read on a desktop (ops, the operator dashboard) uses the screen's width, up to
 * 80rem, with its tables scrolling inside their own box; every other page stays a phone's column.
 */
export function layout(opts: {
  status?: number;
  title: string;
  body: SafeHtml;
  /** The page's own script (pageScript(name)), run last. */
  script?: ExternalAsset;
  extras?: PageExtras;
  wide?: boolean;
}): Page {
  const extras = opts.extras ?? {};
  const doc = html`<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${opts.title} · Direct Taxi</title>
${(extras.stylesheets ?? []).map((a) => html`<link rel="stylesheet" href="${a.href}" integrity="${a.integrity}">\n`)}<style>${trustedHtml(CSS.source)}</style>
</head>
${opts.wide ? html`<body class="wide">` : html`<body>`}
<header>Direct Taxi</header>
<main>
${opts.body}
</main>
<footer>Licensed UK taxis at the council's regulated fare. You pay the driver.</footer>
${[...(extras.scripts ?? []), ...(opts.script ? [opts.script] : [])].map((a) => html`<script src="${a.href}" integrity="${a.integrity}"></script>\n`)}
</body>
</html>
`;
  return { status: opts.status ?? 200, html: doc.value, csp: contentSecurityPolicy(opts.script, extras) };
}

/** A page that only explains something: not found, expired, no longer valid. */
export function messagePage(status: number, title: string, body: SafeHtml): Page {
  return layout({ status, title, body: html`<div class="card"><h1>${title}</h1>${body}</div>` });
}
