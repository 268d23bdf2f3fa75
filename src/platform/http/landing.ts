import { escapeHtml, htmlPage } from './html.ts';
import type { OpenApiDocument } from './openapi-document.ts';
import { markdown } from './openapi-html.ts';

const STYLE = `body{background:#fafbfc}main{max-width:40rem;margin:0 auto;padding:2rem 1.25rem}
h1{margin:0 0 .25rem;font-size:1.6rem}.version{color:#4b5563;margin:0 0 1rem}
code{font:14px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;background:#eef2f5;padding:0 .2em;border-radius:3px}
ul{list-style:none;padding:0}li{background:#fff;border:1px solid #dde3e8;border-radius:.5rem;padding:.75rem 1rem;margin:.5rem 0}
a{color:#1a4f8b;font-weight:600}h2{font-size:1.15rem;margin:1.5rem 0 .25rem}`;

/** `GET /`: what answers at this address and where a developer starts (the reference first). */
export function renderLandingPage(doc: OpenApiDocument): string {
  const overview = (doc.info.description ?? '').split('\n\n')[0];
  return htmlPage({
    title: doc.info.title,
    style: STYLE,
    body: `<main><h1>${escapeHtml(doc.info.title)}</h1>
<p class="version">Version ${escapeHtml(doc.info.version)} · base URL <code>${escapeHtml(doc.servers?.[0]?.url ?? '')}</code></p>
${markdown(overview)}
<ul><li><a href="/docs">API reference</a>: every operation with its scope, fields, examples and errors, and how to sign a request.</li>
<li><a href="/openapi.json">OpenAPI 3.1 document</a>: the same reference for code generators and API explorers.</li>
<li><a href="/healthz">Health</a>: whether this server is up.</li></ul>
<h2>Partner dashboard</h2>
<p><a href="/sign-up">Sign up</a> to create your partner account, apps and staging keys, or <a href="/sign-in">sign in</a> to follow your orders.</p></main>`,
  });
}
