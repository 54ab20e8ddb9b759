import { createHash } from 'node:crypto';
import { html, trustedHtml, type SafeHtml } from './escape-html.js';

// Every page is self-contained: one inline stylesheet and at most one inline script, both constants
// of this codebase, allowed by their SHA-256 in the Content-Security-Policy. Nothing is loaded
// from elsewhere, so the policy can refuse everything else, including any injected script.

export interface InlineAsset {
  source: string;
  /** CSP source expression, e.g. 'sha256-...'. */
  hash: string;
}

export function inlineAsset(source: string): InlineAsset {
  return { source, hash: `'sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}'` };
}

export interface Page {
  status: number;
  html: string;
  csp: string;
}

const CSS = inlineAsset(`
:root{color-scheme:light dark;--fg:#1b1b1b;--muted:#5c5c5c;--bg:#f4f4f1;--card:#fff;--line:#d9d9d4;--accent:#0b57d0;--ok:#0a7a3d;--bad:#b3261e}
@media (prefers-color-scheme:dark){:root{--fg:#ececec;--muted:#a8a8a8;--bg:#121212;--card:#1d1d1d;--line:#363636;--accent:#8ab4ff;--ok:#6dd58c;--bad:#ff8a80}}
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
input[type=text],input[type=tel],input[type=email],input[type=number],input[type=date],input[type=password],input[type=file],select{width:100%;padding:.7rem;font:inherit;border:1px solid var(--line);border-radius:8px;background:var(--card);color:var(--fg)}
input[aria-invalid=true]{border-color:var(--bad);outline-color:var(--bad)}
fieldset{border:0;padding:0;margin:.9rem 0 0}
fieldset legend{margin-top:0}
label.choice{display:flex;align-items:center;gap:.6rem;font-weight:400;margin:.4rem 0}
.hint{color:var(--muted);font-size:.9rem;margin:.3rem 0 0}
.field-error{color:var(--bad);font-size:.9rem;margin:.3rem 0 0}
.field-error:empty{display:none}
button{display:block;width:100%;padding:.85rem;font:inherit;font-weight:700;border:0;border-radius:10px;background:var(--accent);color:#fff;margin-top:1rem;cursor:pointer}
button[disabled]{opacity:.55;cursor:progress}
button.decline{background:transparent;color:var(--fg);border:1px solid var(--line)}
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
[hidden]{display:none!important}
`);

function contentSecurityPolicy(script: InlineAsset | undefined): string {
  return [
    "default-src 'none'",
    `style-src ${CSS.hash}`,
    `script-src ${script ? script.hash : "'none'"}`,
    // Scripts talk only to this service's own JSON endpoints.
    `connect-src ${script ? "'self'" : "'none'"}`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function layout(opts: { status?: number; title: string; body: SafeHtml; script?: InlineAsset }): Page {
  const doc = html`<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${opts.title} · Direct Taxi</title>
<style>${trustedHtml(CSS.source)}</style>
</head>
<body>
<header>Direct Taxi</header>
<main>
${opts.body}
</main>
<footer>Licensed UK taxis at the council's regulated fare. You pay the driver.</footer>
${opts.script && html`<script>${trustedHtml(opts.script.source)}</script>`}
</body>
</html>
`;
  return { status: opts.status ?? 200, html: doc.value, csp: contentSecurityPolicy(opts.script) };
}

/** A page that only explains something: not found, expired, no longer valid. */
export function messagePage(status: number, title: string, body: SafeHtml): Page {
  return layout({ status, title, body: html`<div class="card"><h1>${title}</h1>${body}</div>` });
}
