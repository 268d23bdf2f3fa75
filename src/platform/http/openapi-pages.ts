import { escapeHtml as esc, htmlPage } from './html.ts';
import type { OpenApiDocument } from './openapi-document.ts';
import { anchor, fieldsTable, inline, markdown, operationHtml } from './openapi-html.ts';
import { fieldRows } from './openapi-schema.ts';

/**
 * The /docs reference as pages: an overview listing every operation (and the search's answers),
 * authentication, errors, and one page per operation, each with the same sidebar. Everything works
 * without JavaScript (the sidebar is a link to `#menu` on a phone, the search a GET form); the
 * script only filters the sidebar as one types and remembers the sample language.
 */

export interface DocsFiles {
  css: string;
  js: string;
}

interface Op {
  path: string;
  method: string;
  op: Record<string, any>;
}

/** The words an operation is found by: its id, path, summary and service. */
const haystack = (o: Op) =>
  `${o.op.operationId} ${o.path} ${o.op.summary ?? ''} ${(o.op.tags ?? []).join(' ')}`.toLowerCase();

/** Operations matching every word of the query (the script filters by the same rule). */
export function matching(ops: readonly Op[], q: string): Op[] {
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  return ops.filter((o) => words.every((w) => haystack(o).includes(w)));
}

export const operationUrl = (id: string) => `/docs/${encodeURIComponent(id)}`;

const PAGES = [
  ['/docs', 'Overview'],
  ['/docs/authentication', 'Authentication and signing'],
  ['/docs/errors', 'Errors and headers'],
] as const;

export class ReferencePages {
  private readonly ops: Op[];
  private readonly tags: Array<{ name: string; description?: string }>;

  constructor(
    private readonly doc: OpenApiDocument,
    private readonly files: DocsFiles,
  ) {
    this.tags = (doc.tags ?? []) as Array<{ name: string; description?: string }>;
    this.ops = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(
      ([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })),
    );
  }

  /** The overview, or the search's answers when `q` is given. */
  index(q: string | undefined): string {
    const found = q ? matching(this.ops, q) : this.ops;
    const heading = q
      ? `${found.length} operation${found.length === 1 ? '' : 's'} matching “${esc(q)}”`
      : 'Operations';
    const intro = q
      ? ''
      : `<h1>${esc(this.doc.info.title)} reference</h1>${markdown(this.doc.info.description)}`;
    return this.page(
      q ? `Search: ${q}` : 'Overview',
      '/docs',
      `${intro}<h2 id="operations">${heading}</h2>${this.list(found)}`,
      q,
    );
  }

  authentication(): string {
    const schemes = Object.entries(
      (this.doc.components?.securitySchemes ?? {}) as Record<string, any>,
    )
      .map(
        ([name, s]) =>
          `<h2>${esc(name)} <small><code>${esc(s.name ?? `Authorization: ${s.scheme}`)}</code></small></h2>${markdown(s.description)}`,
      )
      .join('');
    return this.page(
      'Authentication and signing',
      '/docs/authentication',
      `<h1>Authentication and signing</h1>${schemes}`,
    );
  }

  errors(): string {
    const headers = Object.entries((this.doc.components?.headers ?? {}) as Record<string, any>).map(
      ([name, h]) => ({
        name,
        type: String(h.schema?.type),
        required: false,
        description: h.description,
      }),
    );
    const body = `<h1>Errors and headers</h1>${fieldsTable('Error body', fieldRows(this.doc.components.schemas.Error))}${fieldsTable('Response headers', headers)}`;
    return this.page('Errors and headers', '/docs/errors', body);
  }

  /** One operation's page, or undefined for an unknown id. */
  operation(id: string): string | undefined {
    const o = this.ops.find((x) => x.op.operationId === id);
    if (!o) return undefined;
    return this.page(
      id,
      operationUrl(id),
      operationHtml(o.path, o.method, o.op, this.doc.components?.examples ?? {}),
    );
  }

  private list(ops: readonly Op[]): string {
    if (ops.length === 0)
      return '<p>No operation matches. Try a word of its name or path, such as <code>orders</code> or <code>wallet</code>.</p>';
    const rows = ops.map(
      (o) =>
        `<li id="${anchor(o.op.operationId)}"><a href="${operationUrl(o.op.operationId)}"><span class="method ${esc(o.method)}">${esc(o.method.toUpperCase())}</span> <code>${esc(o.op.operationId)}</code></a> <span class="muted">${inline(o.op.summary ?? '')}</span></li>`,
    );
    return `<ul class="op-list">${rows.join('')}</ul>`;
  }

  private nav(current: string): string {
    const link = (href: string, label: string) =>
      `<a href="${href}"${href === current ? ' aria-current="page"' : ''}>${label}</a>`;
    const groups = this.tags.map((t) => {
      const items = this.ops
        .filter((o) => (o.op.tags ?? [])[0] === t.name)
        .map(
          (o) =>
            `<li data-search="${esc(haystack(o))}">${link(operationUrl(o.op.operationId), `<span class="method ${esc(o.method)}">${esc(o.method.toUpperCase())}</span> ${esc(o.op.operationId)}`)}</li>`,
        );
      return `<h2>${esc(t.name)}</h2><ul>${items.join('')}</ul>`;
    });
    return `<nav id="menu" aria-label="API reference"><a class="close" href="#top">Close the menu</a>
<ul>${PAGES.map(([href, label]) => `<li>${link(href, esc(label))}</li>`).join('')}</ul>${groups.join('')}
<p class="no-match" hidden>No operation matches.</p></nav>`;
  }

  private page(title: string, current: string, main: string, q = ''): string {
    const info = this.doc.info;
    return htmlPage({
      title: `${title} · ${info.title} reference`,
      style: '',
      files: { css: [this.files.css], js: [this.files.js] },
      body: `<a class="skip" href="#content">Skip to the content</a>
<header id="top"><a class="brand" href="/docs">${esc(info.title)} <small>v${esc(info.version)}</small></a>
<form role="search" action="/docs" method="get"><label for="q">Search operations</label><input id="q" name="q" type="search" value="${esc(q)}" placeholder="e.g. orders create" autocomplete="off" aria-describedby="q-hint"><button type="submit">Search</button><span id="q-hint" class="hint">Press / to search</span></form>
<a class="menu" href="#menu">Menu</a>
<p class="base">Base URL <code>${esc(this.doc.servers?.[0]?.url ?? '')}</code> · <a href="/openapi.json">OpenAPI 3.1</a></p></header>
<div class="layout">${this.nav(current)}<main id="content">${main}</main></div>`,
    });
  }
}
