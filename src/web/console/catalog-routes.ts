import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formatGhs } from '../../platform/money.ts';
import { isAppError } from '../../platform/errors.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import { ALL_ROLES, CHANGE_ROLES, unlessMissing, type ConsoleKit, type OperatorCurrent } from './kit.ts';

const VENDOR_ID = /^ven_[0-9A-Z]{26}$/;
const PRODUCT_ID = /^prd_[0-9A-Z]{26}$/;
const VARIANT_ID = /^var_[0-9A-Z]{26}$/;
const PAGE = 50;

const has = (current: OperatorCurrent, roles: readonly string[]) => current.operator.roles.some((r) => roles.includes(r));
const cursor = (v: unknown, pattern: RegExp) => {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !pattern.test(v)) throw new WebRefusal(400, 'That page link is not valid; start from the first page.');
  return v;
};

/**
 * The catalog for operators: vendors (syndication, commission, pickup point) and products with
 * their variants and stock. Changes go through CatalogService, as on the operator API (support and
 * admin), and are audited as the operator.
 */
export function registerConsoleCatalogRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { catalog, audit } = kit.deps;
  if (!catalog) return;

  async function vendorsPage(reply: FastifyReply, current: OperatorCurrent, after: string | undefined, extra: Record<string, unknown> = {}, status = 200) {
    const { vendors, nextAfter } = await catalog!.listVendors(PAGE, after);
    const rows = vendors.map((v) => ({ ...v, commission: `${(v.commission_bps / 100).toFixed(2)} %` }));
    return kit.page(reply, 'catalog', { title: 'Catalog', vendors: rows, next: nextAfter, canChange: has(current, CHANGE_ROLES), ...extra }, status);
  }

  async function productPage(reply: FastifyReply, current: OperatorCurrent, id: string, extra: Record<string, unknown> = {}, status = 200) {
    const found = PRODUCT_ID.test(id) ? await unlessMissing(catalog!.getProductAdmin(id)) : undefined;
    if (!found) throw new WebRefusal(404, 'There is no such product.');
    const variants = found.variants.map((v) => ({ ...v, price: formatGhs(Number(v.price_pesewas)) }));
    return kit.page(reply, 'product', { title: found.product.title, product: found.product, variants, canChange: has(current, CHANGE_ROLES), ...extra }, status);
  }

  /** A refused change shows the service's sentence with its 4xx; anything else is the error page. */
  async function refused(err: unknown, show: (message: string, status: number) => Promise<FastifyReply>) {
    if (!isAppError(err) || err.statusCode >= 500) throw err;
    return show(err.message, err.statusCode);
  }

  app.get<{ Querystring: { after?: string } }>('/console/catalog', async (request, reply) => {
    const current = await kit.operator(request, reply, ALL_ROLES);
    if (!current) return reply;
    return vendorsPage(reply, current, cursor(request.query.after, VENDOR_ID));
  });

  app.post<{ Params: { id: string } }>('/console/catalog/vendors/:id/syndication', async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
    const current = await kit.operator(request, reply, CHANGE_ROLES);
    if (!current) return reply;
    const f = kit.form(request, { syndicatable: { max: 5, label: 'Syndication' } }, current);
    if (f.syndicatable !== 'true' && f.syndicatable !== 'false') throw new WebRefusal(400, 'Syndication must be on or off.');
    const id = request.params.id;
    const before = VENDOR_ID.test(id) ? await unlessMissing(catalog.getVendor(id)) : undefined;
    if (!before) throw new WebRefusal(404, 'There is no such vendor.');
    try {
      const after = await catalog.updateVendor(id, { syndicatable: f.syndicatable === 'true' });
      await audit.record({ actor: kit.actor(current), action: 'vendor.update', target: { type: 'vendor', id }, before: { syndicatable: before.syndicatable }, after: { syndicatable: after.syndicatable }, origin: kit.origin(request) });
      return vendorsPage(reply, current, undefined, { notice: `${after.name}: syndication ${after.syndicatable ? 'on, its active products are listed' : 'off, its products are unlisted'}.` });
    } catch (err) {
      return refused(err, (error, status) => vendorsPage(reply, current, undefined, { error }, status));
    }
  });

  app.get<{ Querystring: { vendor?: string; after?: string } }>('/console/catalog/products', async (request, reply) => {
    const current = await kit.operator(request, reply, ALL_ROLES);
    if (!current) return reply;
    const vendorId = cursor(request.query.vendor === '' ? undefined : request.query.vendor, VENDOR_ID);
    const after = cursor(request.query.after, PRODUCT_ID);
    const { products, nextAfter } = await catalog.listProductsAdmin({ limit: PAGE, ...(vendorId ? { vendorId } : {}), ...(after ? { after } : {}) });
    const next = nextAfter ? `/console/catalog/products?${new URLSearchParams({ ...(vendorId ? { vendor: vendorId } : {}), after: nextAfter })}` : undefined;
    return kit.page(reply, 'products', { title: 'Products', products, vendorId, next });
  });

  app.get<{ Params: { id: string } }>('/console/catalog/products/:id', async (request, reply) => {
    const current = await kit.operator(request, reply, ALL_ROLES);
    if (!current) return reply;
    return productPage(reply, current, request.params.id);
  });

  app.post<{ Params: { id: string } }>('/console/catalog/products/:id/active', async (request, reply) => {
    const current = await kit.operator(request, reply, CHANGE_ROLES);
    if (!current) return reply;
    const f = kit.form(request, { active: { max: 5, label: 'Active' } }, current);
    if (f.active !== 'true' && f.active !== 'false') throw new WebRefusal(400, 'Active must be true or false.');
    const id = request.params.id;
    const before = PRODUCT_ID.test(id) ? await unlessMissing(catalog.getProductAdmin(id)) : undefined;
    if (!before) throw new WebRefusal(404, 'There is no such product.');
    try {
      const after = await catalog.updateProduct(id, { active: f.active === 'true' });
      await audit.record({ actor: kit.actor(current), action: 'product.update', target: { type: 'product', id }, before: { active: before.product.active }, after: { active: after.product.active }, origin: kit.origin(request) });
      return productPage(reply, current, id, { notice: after.product.active ? 'Active.' : 'Inactive: it is not listed.' });
    } catch (err) {
      return refused(err, (error, status) => productPage(reply, current, id, { error }, status));
    }
  });

  app.post<{ Params: { id: string; variantId: string } }>('/console/catalog/products/:id/variants/:variantId/stock', async (request, reply) => {
    const current = await kit.operator(request, reply, CHANGE_ROLES);
    if (!current) return reply;
    const f = kit.form(request, { stock: { max: 7, label: 'Stock' } }, current);
    const { id, variantId } = request.params;
    const before = PRODUCT_ID.test(id) ? await unlessMissing(catalog.getProductAdmin(id)) : undefined;
    const variant = VARIANT_ID.test(variantId) ? before?.variants.find((v) => v.id === variantId) : undefined;
    if (!before || !variant) throw new WebRefusal(404, 'There is no such variant.');
    const text = f.stock.trim();
    const stock = /^\d{1,7}$/.test(text) ? Number(text) : Number.NaN;
    if (!(stock <= 1_000_000)) return productPage(reply, current, id, { error: 'Stock is a whole number of units from 0 to 1,000,000.' }, 400);
    try {
      await catalog.updateProduct(id, { variants: [{ variant_id: variantId, stock }] });
      await audit.record({ actor: kit.actor(current), action: 'product.update', target: { type: 'product', id }, before: { variant_id: variantId, stock: variant.stock }, after: { variant_id: variantId, stock }, origin: kit.origin(request) });
      return productPage(reply, current, id, { notice: `${variant.label}: stock set to ${stock}.` });
    } catch (err) {
      return refused(err, (error, status) => productPage(reply, current, id, { error }, status));
    }
  });
}
