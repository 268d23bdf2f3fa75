import type { FastifyInstance } from 'fastify';
import { escapeHtml, pageHeaders } from '../../platform/http/html.ts';
import { pesewasToGhs } from '../../platform/money.ts';
import type { SandboxCheckoutRow, SandboxGateway } from './sandbox.ts';


const HEADERS = pageHeaders({ formAction: 'self' });

const STYLE = `body{font-family:system-ui,sans-serif;background:#f3f4f6;margin:0}main{max-width:26rem;margin:3rem auto;background:#fff;border-radius:.75rem;padding:1.5rem;box-shadow:0 1px 4px rgba(0,0,0,.1)}
.banner{background:#fff4ce;border-radius:.5rem;padding:.5rem .75rem;font-size:.85rem;margin-bottom:1rem}.amount{font-size:2rem;font-weight:700;margin:.5rem 0}
form{display:inline}button{font-size:1rem;padding:.65rem 1.2rem;border-radius:.5rem;border:0;margin-right:.5rem;cursor:pointer}
#pay{background:#1a7f37;color:#fff}#decline{background:#e5e7eb}`;

function checkoutPage(row: SandboxCheckoutRow, raw: string): string {
  const open = raw === 'Unpaid';
  const actions = open
    ? `<form method="post" action="/sandbox/checkout/${row.id}/pay"><button id="pay" type="submit">Pay GHS ${pesewasToGhs(row.amount_pesewas).toFixed(2)}</button></form>
<form method="post" action="/sandbox/checkout/${row.id}/decline"><button id="decline" type="submit">Decline</button></form>`
    : `<p id="outcome">This checkout is ${escapeHtml(raw.toLowerCase())}.</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Sandbox checkout</title><style>${STYLE}</style></head>
<body><main><div class="banner">Sandbox payment: no real money moves.</div><div>${escapeHtml(row.description)}</div>
<div class="amount">GHS ${pesewasToGhs(row.amount_pesewas).toFixed(2)}</div>${actions}</main></body></html>`;
}

/** The sandbox gateway's hosted checkout: a page, and Pay / Decline as form posts or JSON calls. */
export function registerSandboxCheckout(app: FastifyInstance, gateway: SandboxGateway): void {
  app.get<{ Params: { id: string } }>('/sandbox/checkout/:id', async (request, reply) => {
    const row = await gateway.find(request.params.id);
    reply.headers(HEADERS);
    if (!row) return reply.code(404).send('<!doctype html><title>Not found</title><p>No such checkout.</p>');
    return reply.send(checkoutPage(row, gateway.rawStatus(row)));
  });

  for (const [action, decision] of [['pay', 'Paid'], ['decline', 'Declined']] as const) {
    app.post<{ Params: { id: string } }>(`/sandbox/checkout/:id/${action}`, async (request, reply) => {
      const decided = await gateway.decide(request.params.id, decision);
      const row = decided ?? (await gateway.find(request.params.id));
      if (!row) return reply.code(404).send({ status: 'error', code: 'NOT_FOUND', message: 'No such checkout.', request_id: request.id });
      if (decided) await gateway.sendCallback(decided);
      const status = gateway.rawStatus(row);
      if ((request.headers.accept ?? '').includes('application/json')) {
        return reply.code(decided ? 200 : 409).send({ checkout_id: row.id, status, changed: Boolean(decided) });
      }
      return reply.redirect(decided?.status === 'Paid' ? row.return_url : row.cancellation_url, 303);
    });
  }
}
