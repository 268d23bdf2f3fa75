import { samplesFor, type SampleInput, type Samples } from './openapi-samples.ts';
import { escapeHtml } from './html.ts';
import { fieldRows, type FieldRow, type JsonSchema } from './openapi-schema.ts';

/**
 * One operation of the /docs reference as HTML, rendered on the server from the OpenAPI document
 * itself (so it can never say something the document does not): readable with JavaScript off.
 */

const esc = escapeHtml;

export const inline = (text: string) =>
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
      if (lines.every((l) => /^\d+\. /.test(l)))
        return `<ol>${lines.map((l) => `<li>${inline(l.replace(/^\d+\. /, ''))}</li>`).join('')}</ol>`;
      if (lines.every((l) => l.startsWith('- ')))
        return `<ul>${lines.map((l) => `<li>${inline(l.slice(2))}</li>`).join('')}</ul>`;
      return `<p>${inline(block)}</p>`;
    })
    .join('\n');
}

export const anchor = (id: string) => `op-${id.replace(/[^A-Za-z0-9_-]/g, '-')}`;

export function fieldsTable(caption: string, rows: readonly FieldRow[]): string {
  if (rows.length === 0) return '';
  const body = rows
    .map(
      (r) =>
        `<tr><td><code>${esc(r.name)}</code></td><td>${esc(r.type)}</td><td class="req">${r.required ? 'yes' : 'no'}</td><td>${inline(r.description)}</td></tr>`,
    )
    .join('');
  return `<table><caption>${esc(caption)}</caption><thead><tr><th>Field</th><th>Type</th><th>Required</th><th>Description</th></tr></thead><tbody>${body}</tbody></table>`;
}

type Examples = Record<string, { summary: string; value: unknown }> | undefined;

const json = (v: unknown) => `<pre><code>${esc(JSON.stringify(v, null, 2))}</code></pre>`;

/** Error rows: status, code and its meaning (the summary of the code's shared example). */
function errorsTable(
  responses: Record<string, any>,
  shared: Record<string, { summary: string }>,
): string {
  const rows: string[] = [];
  for (const [status, res] of Object.entries(responses)) {
    if (!/^[45]/.test(status)) continue;
    for (const code of Object.keys(res.content?.['application/json']?.examples ?? {})) {
      rows.push(
        `<tr><td>${esc(status)}</td><td><code>${esc(code)}</code></td><td>${inline(shared[code]?.summary ?? '')}</td></tr>`,
      );
    }
  }
  return `<table class="errors"><caption>Errors</caption><thead><tr><th>Status</th><th>Code</th><th>When</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** The description's scope paragraph is for tools that show only descriptions; the page lists it above. */
const withoutScopeLine = (text: string | undefined) =>
  text
    ?.split('\n\n')
    .filter((para) => !para.startsWith('Scope: '))
    .join('\n\n');

/** The operation's first documented request, as the samples send it. */
export function sampleInput(path: string, method: string, op: Record<string, any>): SampleInput {
  const params = (op.parameters ?? []) as Array<Record<string, any>>;
  const query = Object.fromEntries(
    params
      .filter((p) => p.in === 'query' && p.example !== undefined)
      .map((p) => [p.name, p.example]),
  );
  const examples = op.requestBody?.content?.['application/json']?.examples as Examples;
  const body = examples
    ? (Object.values(examples)[0]?.value as Record<string, unknown>)
    : undefined;
  return { method, path, body, query };
}

const LANGUAGES: Array<[keyof Samples & ('curl' | 'sdk' | 'ppctl'), string]> = [
  ['curl', 'curl'],
  ['sdk', 'Node.js SDK'],
  ['ppctl', 'ppctl'],
];

/** curl, SDK and ppctl samples, each in a disclosure (curl open); the script keeps the reader's choice across pages. */
function samplesHtml(samples: Samples | undefined): string {
  if (!samples) return '';
  const blocks = LANGUAGES.map(([key, label], i) => {
    const file =
      key === 'ppctl' && samples.ppctlFile
        ? `<p>${esc(samples.ppctlFile.name)}:</p><pre><code>${esc(samples.ppctlFile.content)}</code></pre>`
        : '';
    const note =
      key === 'ppctl' && samples.ppctlOmits ? `<p>${esc(samples.ppctlOmits.note)}</p>` : '';
    return `<details class="sample" data-lang="${key}"${i === 0 ? ' open' : ''}><summary>${esc(label)}</summary>${file}<pre><code>${esc(samples[key])}</code></pre>${note}</details>`;
  });
  return `<section class="samples" aria-label="Code samples"><h3>Request</h3>${blocks.join('')}</section>`;
}

function responseExamples(status: string, examples: Examples): string {
  if (!examples) return '';
  return `<section aria-label="Example responses"><h3>Response ${esc(status)}</h3>${Object.values(
    examples,
  )
    .map(
      (e, i) =>
        `<details class="sample"${i === 0 ? ' open' : ''}><summary>${esc(e.summary)}</summary>${json(e.value)}</details>`,
    )
    .join('')}</section>`;
}

/** One operation: what it does and its fields beside its samples and example responses. */
export function operationHtml(
  path: string,
  method: string,
  op: Record<string, any>,
  shared: Record<string, { summary: string }>,
): string {
  const params = (op.parameters ?? []) as Array<Record<string, any>>;
  const paramRows: FieldRow[] = params.map((p) => ({
    name: p.name,
    type: String(p.schema?.type ?? 'string'),
    required: Boolean(p.required),
    description: p.description ?? '',
  }));
  const body = op.requestBody?.content?.['application/json'];
  const [status, success] = Object.entries(op.responses as Record<string, any>).find(([s]) =>
    /^2/.test(s),
  )!;
  const successJson = success.content?.['application/json'];
  const scopes = (op['x-scopes'] ?? []) as string[];
  return `<article class="op" id="${anchor(op.operationId)}">
<h1><span class="method ${esc(method)}">${esc(method.toUpperCase())}</span> <code class="path">${esc(path)}</code></h1>
<p class="opid">Operation <code>${esc(op.operationId)}</code></p>
<div class="op-grid"><div class="op-text">
<p class="summary">${inline(op.summary ?? '')}</p>
<dl><dt>Scope</dt><dd>${scopes.map((s) => `<code>${esc(s)}</code>`).join(', ')}</dd>
<dt>Keys</dt><dd>${op['x-production-only'] ? 'production only' : 'staging and production'}</dd>
<dt>Rate limit</dt><dd>counts as a ${esc(op['x-access'] ?? 'request')}</dd></dl>
${markdown(withoutScopeLine(op.description))}
${fieldsTable('Query parameters', paramRows)}
${body ? fieldsTable('Request body', fieldRows(body.schema as JsonSchema)) : ''}
<details><summary>Response ${esc(status)} fields</summary>${fieldsTable(`Response ${status}`, fieldRows((successJson?.schema ?? {}) as JsonSchema))}</details>
${errorsTable(op.responses, shared)}
</div><div class="op-code">
${samplesHtml(samplesFor(op.operationId, sampleInput(path, method, op)))}
${responseExamples(status, successJson?.examples)}
</div></div>
</article>`;
}
