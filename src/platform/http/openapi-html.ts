import { escapeHtml, htmlPage } from './html.ts';
import type { OpenApiDocument } from './openapi-document.ts';
import { fieldRows, type FieldRow, type JsonSchema } from './openapi-schema.ts';

/**
 * The /docs reference page, rendered on the server from the OpenAPI document itself (so it can
 * never say something the document does not): plain HTML and inline CSS, no script, no outside
 * resource, readable with JavaScript off.
 */

const esc = escapeHtml;

const inline = (text: string) =>
  esc(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>');

/** The Markdown the descriptions use: paragraphs, numbered and bulleted lists, code spans, bold. */
export function markdown(text: string | undefined): string {
  if (!text) return '';
  return text
    .split(/\n{2,}/)
    .map((block) => {
      const lines = block.split('\n');
      if (lines.every((l) => /^\d+\. /.test(l))) return `<ol>${lines.map((l) => `<li>${inline(l.replace(/^\d+\. /, ''))}</li>`).join('')}</ol>`;
      if (lines.every((l) => l.startsWith('- '))) return `<ul>${lines.map((l) => `<li>${inline(l.slice(2))}</li>`).join('')}</ul>`;
      return `<p>${inline(block)}</p>`;
    })
    .join('\n');
}

const anchor = (id: string) => `op-${id.replace(/[^A-Za-z0-9_-]/g, '-')}`;

function fieldsTable(caption: string, rows: readonly FieldRow[]): string {
  if (rows.length === 0) return '';
  const body = rows
    .map((r) => `<tr><td><code>${esc(r.name)}</code></td><td>${esc(r.type)}</td><td class="req">${r.required ? 'yes' : 'no'}</td><td>${inline(r.description)}</td></tr>`)
    .join('');
  return `<table><caption>${esc(caption)}</caption><thead><tr><th>Field</th><th>Type</th><th>Required</th><th>Description</th></tr></thead><tbody>${body}</tbody></table>`;
}

type Examples = Record<string, { summary: string; value: unknown }> | undefined;

const json = (v: unknown) => `<pre><code>${esc(JSON.stringify(v, null, 2))}</code></pre>`;

function requestExample(method: string, path: string, query: string, value: unknown): string {
  const head = [
    `${method.toUpperCase()} ${path}${query ? `?${query}` : ''} HTTP/1.1`,
    'X-API-Key: pk_staging_...',
    'X-Timestamp: 1763683200',
    'X-Nonce: 6f1c2a9e-4b7d-4e3a-9c51-0d2f8e7a1b3c',
    'X-Signature: <hex HMAC-SHA256 of the canonical request>',
  ];
  if (value !== undefined) head.push('Content-Type: application/json', '', JSON.stringify(value, null, 2));
  return `<pre><code>${esc(head.join('\n'))}</code></pre>`;
}

function examplesBlock(title: string, examples: Examples, render: (value: unknown) => string): string {
  if (!examples) return '';
  return Object.values(examples)
    .map((e) => `<h5>${esc(title)}: ${esc(e.summary)}</h5>${render(e.value)}`)
    .join('');
}

/** Error rows: status, code and its meaning (the summary of the code's shared example). */
function errorsTable(responses: Record<string, any>, shared: Record<string, { summary: string }>): string {
  const rows: string[] = [];
  for (const [status, res] of Object.entries(responses)) {
    if (!/^[45]/.test(status)) continue;
    for (const code of Object.keys(res.content?.['application/json']?.examples ?? {})) {
      rows.push(`<tr><td>${esc(status)}</td><td><code>${esc(code)}</code></td><td>${inline(shared[code]?.summary ?? '')}</td></tr>`);
    }
  }
  return `<table class="errors"><caption>Errors</caption><thead><tr><th>Status</th><th>Code</th><th>When</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The description's scope paragraph is for tools that show only descriptions; the page lists it above. */
const withoutScopeLine = (text: string | undefined) => text?.split('\n\n').filter((para) => !para.startsWith('Scope: ')).join('\n\n');

function operationHtml(path: string, method: string, op: Record<string, any>, shared: Record<string, { summary: string }>): string {
  const params = (op.parameters ?? []) as Array<Record<string, any>>;
  const query = params
    .filter((p) => p.in === 'query' && p.example !== undefined)
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(p.example))}`)
    .join('&');
  const paramRows: FieldRow[] = params.map((p) => ({ name: p.name, type: String(p.schema?.type ?? 'string'), required: Boolean(p.required), description: p.description ?? '' }));
  const body = op.requestBody?.content?.['application/json'];
  const [status, success] = Object.entries(op.responses as Record<string, any>).find(([s]) => /^2/.test(s))!;
  const successJson = success.content?.['application/json'];
  const scopes = (op['x-scopes'] ?? []) as string[];
  const requestExamples: Examples = body?.examples ?? { signed: { summary: 'signed, no body', value: undefined } };
  return `<article class="op" id="${anchor(op.operationId)}">
<h3><span class="method ${esc(method)}">${esc(method.toUpperCase())}</span> <code class="path">${esc(path)}</code></h3>
<p class="opid">Operation <code>${esc(op.operationId)}</code></p>
<p class="summary">${inline(op.summary ?? '')}</p>
<dl><dt>Scope</dt><dd>${scopes.map((s) => `<code>${esc(s)}</code>`).join(', ')}</dd>
<dt>Keys</dt><dd>${op['x-production-only'] ? 'production only' : 'staging and production'}</dd>
<dt>Rate limit</dt><dd>counts as a ${esc(op['x-access'] ?? 'request')}</dd></dl>
${markdown(withoutScopeLine(op.description))}
${fieldsTable('Query parameters', paramRows)}
${body ? fieldsTable('Request body', fieldRows(body.schema as JsonSchema)) : ''}
${examplesBlock('Example request', requestExamples, (v) => requestExample(method, path, query, v))}
<details><summary>Response ${esc(status)} fields</summary>${fieldsTable(`Response ${status}`, fieldRows((successJson?.schema ?? {}) as JsonSchema))}</details>
${examplesBlock(`Example response ${status}`, successJson?.examples, json)}
${errorsTable(op.responses, shared)}
</article>`;
}

const STYLE = `body{font-size:15px;color:#1d232b;background:#fafbfc}
.skip{position:absolute;left:1rem;top:-3rem;background:#fff;color:#14323f;padding:.5rem .75rem;border-radius:4px}.skip:focus{top:.5rem}
header{padding:1rem 1.5rem;background:#14323f;color:#fff}header a{color:#bfe3f2}header h1{margin:0;font-size:1.4rem}
header code{background:#24495a;color:#fff}header :focus-visible{outline-color:#fff}
.layout{display:flex;align-items:flex-start}nav{position:sticky;top:0;max-height:100vh;overflow:auto;min-width:17rem;padding:1rem;border-right:1px solid #dde3e8;font-size:.85rem}
nav ul{list-style:none;padding:0;margin:0 0 1rem}nav a{color:#14323f;text-decoration:none}nav h2{font-size:.9rem;text-transform:uppercase;margin:.5rem 0}
main{flex:1;padding:1rem 2rem;max-width:62rem;min-width:0}article.op{border-top:2px solid #dde3e8;padding-top:.5rem;margin-top:2rem}
code{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;background:#eef2f5;padding:0 .2em;border-radius:3px}
pre{background:#14232b;color:#e8f1f5;padding:.75rem;overflow:auto;border-radius:4px}pre code{background:none;color:inherit;padding:0}
table{border-collapse:collapse;width:100%;margin:.75rem 0;font-size:.85rem}caption{text-align:left;font-weight:600;padding:.25rem 0}
th,td{border:1px solid #dde3e8;padding:.3rem .5rem;text-align:left;vertical-align:top}th{background:#eef2f5}
.method{display:inline-block;min-width:3.2rem;text-align:center;color:#fff;border-radius:3px;font-size:.8rem;padding:.1rem .3rem}
.method.get{background:#1d7a46}.method.post{background:#2859a8}.method.patch{background:#8a5a00}.method.delete{background:#a52a2a}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem}dt{font-weight:600}dd{margin:0}
@media (max-width:50rem){.layout{display:block}nav{position:static;max-height:none;border:0}main{padding:1rem}
table,tbody,tr,td{display:block}thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
tr{border:1px solid #dde3e8;border-top:0;padding:.4rem .5rem}tbody tr:first-child{border-top:1px solid #dde3e8}
td{display:inline;border:0;padding:0 .6rem 0 0}td:last-child{display:block;padding:.2rem 0 0}td.req{white-space:nowrap}td.req::before{content:"required: "}caption{display:block}}`;

/** The whole page for one OpenAPI document. */
export function renderReferencePage(doc: OpenApiDocument): string {
  const tags = (doc.tags ?? []) as Array<{ name: string; description?: string }>;
  const ops = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );
  const inTag = (tag: string) => ops.filter((o) => (o.op.tags ?? [])[0] === tag);
  const nav = tags
    .map((t) => `<h2>${esc(t.name)}</h2><ul>${inTag(t.name).map((o) => `<li><a href="#${anchor(o.op.operationId)}">${esc(o.op.operationId)}</a></li>`).join('')}</ul>`)
    .join('');
  const schemes = Object.entries((doc.components?.securitySchemes ?? {}) as Record<string, any>)
    .map(([name, s]) => `<h3>${esc(name)} <small><code>${esc(s.name ?? `Authorization: ${s.scheme}`)}</code></small></h3>${markdown(s.description)}`)
    .join('');
  const headers = Object.entries((doc.components?.headers ?? {}) as Record<string, any>).map(([name, h]) => ({ name, type: String(h.schema?.type), required: false, description: h.description }));
  const sections = tags
    .map((t) => `<section id="tag-${esc(t.name)}"><h2>${esc(t.name)}</h2>${markdown(t.description)}${inTag(t.name).map((o) => operationHtml(o.path, o.method, o.op, doc.components?.examples ?? {})).join('')}</section>`)
    .join('');
  return htmlPage({
    title: `${doc.info.title} reference`,
    style: STYLE,
    body: `<a class="skip" href="#content">Skip to the reference</a><header><h1>${esc(doc.info.title)} <small>v${esc(doc.info.version)}</small></h1>
<p>Base URL <code>${esc(doc.servers?.[0]?.url ?? '')}</code> · <a href="/openapi.json">OpenAPI 3.1 document</a></p></header>
<div class="layout"><nav aria-label="Operations"><ul><li><a href="#overview">Overview</a></li><li><a href="#authentication">Authentication and signing</a></li><li><a href="#errors">Errors and headers</a></li></ul>${nav}</nav>
<main id="content"><section id="overview"><h2>Overview</h2>${markdown(doc.info.description)}</section>
<section id="authentication"><h2>Authentication and signing</h2>${schemes}</section>
<section id="errors"><h2>Errors and headers</h2>${fieldsTable('Error body', fieldRows(doc.components.schemas.Error))}${fieldsTable('Response headers', headers)}</section>
${sections}</main></div>`,
  });
}
