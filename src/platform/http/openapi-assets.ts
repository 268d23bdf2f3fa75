import { pageStylesheet } from './html.ts';
import { Assets } from '../web/assets.ts';

/**
 * The reference's stylesheet and script, served by us under /assets/ (fingerprinted) so its pages
 * hold a strict CSP: no inline style or script, nothing from elsewhere.
 */

const STYLE = `body{font-size:15px;color:#1d232b;background:#fafbfc}
a{color:#1a4f8b}code{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace;background:#eef2f5;padding:0 .2em;border-radius:3px;overflow-wrap:break-word}
.skip{position:absolute;left:1rem;top:-3rem;background:#fff;color:#14323f;padding:.5rem .75rem;border-radius:4px;z-index:2}.skip:focus{top:.5rem}
header{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;padding:.75rem 1.25rem;background:#14323f;color:#fff}
header a{color:#bfe3f2}header .brand{color:#fff;font-weight:700;text-decoration:none;font-size:1.1rem}header code{background:#24495a;color:#fff}
header :focus-visible{outline-color:#fff}.base{margin:0;font-size:.85rem;flex-basis:100%}
form[role=search]{display:flex;gap:.4rem;align-items:center;flex:1 1 16rem;max-width:32rem}
form[role=search] label{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
form[role=search] input{flex:1;min-width:0;font:inherit;padding:.35rem .6rem;border:1px solid #5c7c8a;border-radius:4px}
form[role=search] button{font:inherit;padding:.35rem .7rem;border-radius:4px;border:1px solid #bfe3f2;background:#24495a;color:#fff}
.hint{font-size:.8rem;color:#bfe3f2}.menu,.close{display:none}
.layout{display:flex;align-items:flex-start}
nav{position:sticky;top:0;max-height:100vh;overflow:auto;flex:0 0 19rem;padding:1rem;border-right:1px solid #dde3e8;font-size:.85rem;background:#fafbfc}
nav ul{list-style:none;padding:0;margin:0 0 1rem}nav li a{display:flex;gap:.4rem;align-items:baseline;padding:.15rem .3rem;border-radius:3px;color:#14323f;text-decoration:none;overflow-wrap:anywhere}nav li a .method{flex:none}
nav a[aria-current=page]{background:#dcebf3;font-weight:600}nav h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;margin:.5rem 0;color:#4b5563}
main{flex:1;min-width:0;padding:1rem 2rem 3rem;max-width:80rem}main h1{font-size:1.35rem;margin:.5rem 0}
pre{background:#14232b;color:#e8f1f5;padding:.75rem;border-radius:4px;white-space:pre-wrap;overflow-wrap:anywhere;max-width:100%;margin:.4rem 0}
pre code{background:none;color:inherit;padding:0}
.op-grid{display:grid;grid-template-columns:minmax(0,1fr);gap:0 2rem}
@media (min-width:70rem){.op-grid{grid-template-columns:minmax(0,1fr) minmax(0,30rem)}.op-code{position:sticky;top:0;max-height:100vh;overflow:auto}}
.op-code h3{font-size:1rem;margin:1rem 0 .25rem}details.sample{margin:.3rem 0}details.sample>summary{cursor:pointer;font-weight:600}
.op-list{list-style:none;padding:0}.op-list li{padding:.4rem 0;border-bottom:1px solid #e6ebef}.op-list a{text-decoration:none;margin-right:.4rem}.muted{color:#4b5563}
table{border-collapse:collapse;width:100%;margin:.75rem 0;font-size:.85rem}caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{border:1px solid #dde3e8;padding:.3rem .5rem;text-align:left;vertical-align:top}th{background:#eef2f5}
.method{display:inline-block;min-width:2.9rem;text-align:center;color:#fff;border-radius:3px;font-size:.72rem;padding:.05rem .25rem;font-weight:600}
.method.get{background:#1d7a46}.method.post{background:#2859a8}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem}dt{font-weight:600}dd{margin:0}
@media (max-width:50rem){.menu{display:inline-block;color:#fff;font-weight:600;order:1;margin-left:auto}form[role=search]{order:2;flex-basis:100%;max-width:none}.base{order:3}.hint{display:none}.layout{display:block}
nav{display:none;position:static;max-height:none;border:0}nav:target,nav.open{display:block}nav:target .close{display:block;margin-bottom:.5rem}
main{padding:1rem}table,tbody,tr,td{display:block}thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
tr{border:1px solid #dde3e8;border-top:0;padding:.4rem .5rem}tbody tr:first-child{border-top:1px solid #dde3e8}
td{display:inline;border:0;padding:0 .6rem 0 0}td:last-child{display:block;padding:.2rem 0 0}td.req{white-space:nowrap}td.req::before{content:"required: "}caption{display:block}}`;

/**
 * Filters the sidebar as one types (the same rule as the server's search: every word in the
 * operation's id, path or summary), Enter opens the first match, "/" focuses the box, and the
 * sample language last opened stays open on the next page.
 */
const SCRIPT = `(() => {
  const input = document.getElementById('q');
  const nav = document.getElementById('menu');
  if (!input || !nav) return;
  const items = [...nav.querySelectorAll('li[data-search]')];
  const empty = nav.querySelector('.no-match');
  const visible = () => items.filter((li) => !li.hidden);
  const filter = () => {
    const words = input.value.toLowerCase().split(/\\s+/).filter(Boolean);
    for (const li of items) li.hidden = !words.every((w) => li.dataset.search.includes(w));
    if (empty) empty.hidden = visible().length > 0;
    for (const list of nav.querySelectorAll('h2 + ul')) list.previousElementSibling.hidden = !list.querySelector('li:not([hidden])');
    // On a phone the sidebar is a menu: it opens to show the matches (a class, so the box keeps the focus).
    nav.classList.toggle('open', words.length > 0);
  };
  input.addEventListener('input', filter);
  input.form.addEventListener('submit', (e) => {
    const first = visible()[0];
    if (input.value.trim() && first) { e.preventDefault(); location.href = first.querySelector('a').href; }
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' && visible()[0]) { e.preventDefault(); visible()[0].querySelector('a').focus(); }
  });
  document.addEventListener('keydown', (e) => {
    if (e.key === '/' && document.activeElement !== input && !e.ctrlKey && !e.metaKey) { e.preventDefault(); input.focus(); }
  });
  const key = 'docs-sample-language';
  const saved = (() => { try { return localStorage.getItem(key); } catch { return null; } })();
  for (const d of document.querySelectorAll('details.sample[data-lang]')) {
    if (saved) d.open = d.dataset.lang === saved;
    d.addEventListener('toggle', () => { if (d.open) try { localStorage.setItem(key, d.dataset.lang); } catch {} });
  }
})();
`;

export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export function docsAssets(): Assets {
  return new Assets({
    'docs.css': Buffer.from(pageStylesheet(STYLE)),
    'docs.js': Buffer.from(SCRIPT),
  });
}
