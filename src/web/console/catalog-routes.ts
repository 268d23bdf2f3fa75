import type { FastifyInstance, FastifyReply } from 'fastify';
import { vendorView, type VendorInput, type VendorRow } from '../../modules/catalog/index.ts';
import { formatGhs } from '../../platform/money.ts';
import { isAppError } from '../../platform/errors.ts';
import { WebRefusal } from '../dashboard/kit.ts';
import {
  holds,
  ALL_ROLES,
  CHANGE_ROLES,
  unlessMissing,
  type ConsoleKit,
  type OperatorCurrent,
} from './kit.ts';
import { definePage, idParam } from '../../platform/web/page.ts';
import { isId, type IdPrefix } from '../../platform/ids.ts';

const PAGE = 50;

const cursor = (v: unknown, prefix: IdPrefix) => {
  if (v === undefined) return undefined;
  if (!isId(prefix, v))
    throw new WebRefusal(400, 'That page link is not valid; start from the first page.');
  return v;
};

const VENDOR_FIELDS = {
  syndicatable: { max: 5, label: 'Syndication' },
  commission_rate: { max: 20, label: 'Commission rate' },
  contact_person: { max: 200, label: 'Pickup contact person' },
  contact_phone: { max: 32, label: 'Pickup contact phone' },
  address: { max: 500, label: 'Pickup address' },
  lat: { max: 20, label: 'Pickup latitude' },
  lng: { max: 20, label: 'Pickup longitude' },
};
type VendorForm = Record<keyof typeof VENDOR_FIELDS, string>;

const vendorForm = (v: VendorRow): VendorForm => ({
  syndicatable: String(v.syndicatable),
  commission_rate: String(v.commission_bps / 10_000),
  contact_person: v.pickup_contact_person,
  contact_phone: v.pickup_contact_phone,
  address: v.pickup_address,
  lat: String(v.pickup_lat),
  lng: String(v.pickup_lng),
});

/**
 * The form as the operator API's PATCH body, or what is wrong with its shape. Only the text is
 * read here (numbers in decimal notation); CatalogService checks the values, as it does for the API.
 */
function vendorPatch(f: VendorForm): VendorInput | string {
  if (f.syndicatable !== 'true' && f.syndicatable !== 'false')
    return 'Syndication must be on or off.';
  const numbers: Array<[string, string]> = [
    [VENDOR_FIELDS.commission_rate.label, f.commission_rate],
    [VENDOR_FIELDS.lat.label, f.lat],
    [VENDOR_FIELDS.lng.label, f.lng],
  ];
  for (const [label, text] of numbers) {
    if (!/^-?\d+(\.\d+)?$/.test(text.trim()))
      return `${label} must be a number written with digits and a point, e.g. 0.125 or -0.187.`;
  }
  return {
    syndicatable: f.syndicatable === 'true',
    commission_rate: Number(f.commission_rate.trim()),
    pickup: {
      contact_person: f.contact_person,
      contact_phone: f.contact_phone,
      address: f.address,
      coordinates: { lat: Number(f.lat.trim()), lng: Number(f.lng.trim()) },
    },
  };
}

/**
 * The catalog for operators: vendors (syndication, commission, pickup point) and products with
 * their variants and stock. Changes go through CatalogService, as on the operator API (support and
 * admin), and are audited as the operator.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list of declarations, one per page or operation, each handler a few lines
export function registerConsoleCatalogRoutes(app: FastifyInstance, kit: ConsoleKit): void {
  const { catalog } = kit.deps;
  if (!catalog) return;

  async function vendorsPage(
    reply: FastifyReply,
    current: OperatorCurrent,
    after: string | undefined,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const { vendors, nextAfter } = await catalog!.listVendors(PAGE, after);
    const rows = vendors.map((v) => ({
      ...v,
      commission: `${(v.commission_bps / 100).toFixed(2)} %`,
    }));
    return kit.page(
      reply,
      'catalog',
      {
        title: 'Catalog',
        vendors: rows,
        next: nextAfter,
        canChange: holds(current, CHANGE_ROLES),
        ...extra,
      },
      status,
    );
  }

  /** A vendor's page: its fields, and the edit form for those who may change it (`values`: what they sent). */
  async function vendorPage(
    reply: FastifyReply,
    current: OperatorCurrent,
    id: string,
    extra: { values?: Record<string, string>; error?: string; notice?: string } = {},
    status = 200,
  ) {
    const found = await unlessMissing(catalog!.getVendor(id));
    if (!found) throw new WebRefusal(404, 'There is no such vendor.');
    return kit.page(
      reply,
      'vendor',
      {
        title: found.name,
        vendor: { ...found, commission: `${(found.commission_bps / 100).toFixed(2)} %` },
        values: extra.values ?? vendorForm(found),
        canChange: holds(current, CHANGE_ROLES),
        ...extra,
      },
      status,
    );
  }

  async function productPage(
    reply: FastifyReply,
    current: OperatorCurrent,
    id: string,
    extra: Record<string, unknown> = {},
    status = 200,
  ) {
    const found = await unlessMissing(catalog!.getProductAdmin(id));
    if (!found) throw new WebRefusal(404, 'There is no such product.');
    const variants = found.variants.map((v) => ({
      ...v,
      price: formatGhs(Number(v.price_pesewas)),
    }));
    return kit.page(
      reply,
      'product',
      {
        title: found.product.title,
        product: found.product,
        variants,
        canChange: holds(current, CHANGE_ROLES),
        ...extra,
      },
      status,
    );
  }

  /** A refused change shows the service's sentence with its 4xx; anything else is the error page. */
  async function refused(
    err: unknown,
    show: (message: string, status: number) => Promise<FastifyReply>,
  ) {
    if (!isAppError(err) || err.statusCode >= 500) throw err;
    return show(err.message, err.statusCode);
  }

  definePage(
    app,
    kit,
    { method: 'GET', path: '/console/catalog', need: ALL_ROLES },
    async ({ request, reply, actor: current }) => {
      return vendorsPage(reply, current, cursor(request.query.after, 'ven'));
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/catalog/vendors/:id/syndication',
      params: { id: idParam('ven', 'There is no such vendor.') },
      need: CHANGE_ROLES,
      form: { syndicatable: { max: 5, label: 'Syndication' } },
    },
    async ({ request, reply, actor: current, form: f }) => {
      if (f.syndicatable !== 'true' && f.syndicatable !== 'false')
        throw new WebRefusal(400, 'Syndication must be on or off.');
      const id = request.params.id;
      try {
        const after = await catalog.updateVendor(
          id,
          { syndicatable: f.syndicatable === 'true' },
          (tx, before, now) =>
            kit.audit(
              request,
              current,
              {
                action: 'vendor.update',
                target: { type: 'vendor', id },
                before: { syndicatable: before.syndicatable },
                after: { syndicatable: now.syndicatable },
              },
              tx,
            ),
        );
        return vendorsPage(reply, current, undefined, {
          notice: `${after.name}: syndication ${after.syndicatable ? 'on, its active products are listed' : 'off, its products are unlisted'}.`,
        });
      } catch (err) {
        return refused(err, (error, status) =>
          vendorsPage(reply, current, undefined, { error }, status),
        );
      }
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'GET',
      path: '/console/catalog/vendors/:id',
      params: { id: idParam('ven', 'There is no such vendor.') },
      need: ALL_ROLES,
    },
    async ({ request, reply, actor: current }) => {
      return vendorPage(reply, current, request.params.id);
    },
  );

  // The same CatalogService.updateVendor as PATCH /admin/v1/vendors/{id} (same roles, same checks),
  // audited with before and after in the change's own transaction.
  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/catalog/vendors/:id',
      params: { id: idParam('ven', 'There is no such vendor.') },
      need: CHANGE_ROLES,
      form: VENDOR_FIELDS,
    },
    async ({ request, reply, actor: current, form: values }) => {
      const id = request.params.id;
      const patch = vendorPatch(values);
      if (typeof patch === 'string')
        return vendorPage(reply, current, id, { values, error: patch }, 400);
      try {
        const after = await catalog.updateVendor(id, patch, (tx, before, now) =>
          kit.audit(
            request,
            current,
            {
              action: 'vendor.update',
              target: { type: 'vendor', id },
              before: vendorView(before),
              after: vendorView(now),
            },
            tx,
          ),
        );
        return vendorPage(reply, current, id, { notice: `${after.name}: saved.` });
      } catch (err) {
        // A vendor that does not exist is the page's own 404.
        return refused(err, (error, status) =>
          vendorPage(reply, current, id, { values, error }, status),
        );
      }
    },
  );

  definePage(
    app,
    kit,
    { method: 'GET', path: '/console/catalog/products', need: ALL_ROLES },
    async ({ request, reply }) => {
      const vendorId = cursor(
        request.query.vendor === '' ? undefined : request.query.vendor,
        'ven',
      );
      const after = cursor(request.query.after, 'prd');
      const { products, nextAfter } = await catalog.listProductsAdmin({
        limit: PAGE,
        ...(vendorId ? { vendorId } : {}),
        ...(after ? { after } : {}),
      });
      const next = nextAfter
        ? `/console/catalog/products?${new URLSearchParams({ ...(vendorId ? { vendor: vendorId } : {}), after: nextAfter })}`
        : undefined;
      return kit.page(reply, 'products', { title: 'Products', products, vendorId, next });
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'GET',
      path: '/console/catalog/products/:id',
      params: { id: idParam('prd', 'There is no such product.') },
      need: ALL_ROLES,
    },
    async ({ request, reply, actor: current }) => {
      return productPage(reply, current, request.params.id);
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/catalog/products/:id/active',
      params: { id: idParam('prd', 'There is no such product.') },
      need: CHANGE_ROLES,
      form: { active: { max: 5, label: 'Active' } },
    },
    async ({ request, reply, actor: current, form: f }) => {
      if (f.active !== 'true' && f.active !== 'false')
        throw new WebRefusal(400, 'Active must be true or false.');
      const id = request.params.id;
      const before = await unlessMissing(catalog.getProductAdmin(id));
      if (!before) throw new WebRefusal(404, 'There is no such product.');
      try {
        const after = await catalog.updateProduct(id, { active: f.active === 'true' });
        await kit.audit(request, current, {
          action: 'product.update',
          target: { type: 'product', id },
          before: { active: before.product.active },
          after: { active: after.product.active },
        });
        return productPage(reply, current, id, {
          notice: after.product.active ? 'Active.' : 'Inactive: it is not listed.',
        });
      } catch (err) {
        return refused(err, (error, status) => productPage(reply, current, id, { error }, status));
      }
    },
  );

  definePage(
    app,
    kit,
    {
      method: 'POST',
      path: '/console/catalog/products/:id/variants/:variantId/stock',
      params: {
        id: idParam('prd', 'There is no such variant.'),
        variantId: idParam('var', 'There is no such variant.'),
      },
      need: CHANGE_ROLES,
      form: { stock: { max: 7, label: 'Stock' } },
    },
    async ({ request, reply, actor: current, form: f }) => {
      const { id, variantId } = request.params;
      const before = await unlessMissing(catalog.getProductAdmin(id));
      const variant = before?.variants.find((v) => v.id === variantId);
      if (!before || !variant) throw new WebRefusal(404, 'There is no such variant.');
      const text = f.stock.trim();
      const stock = /^\d{1,7}$/.test(text) ? Number(text) : Number.NaN;
      if (!(stock <= 1_000_000))
        return productPage(
          reply,
          current,
          id,
          { error: 'Stock is a whole number of units from 0 to 1,000,000.' },
          400,
        );
      try {
        await catalog.updateProduct(id, { variants: [{ variant_id: variantId, stock }] });
        await kit.audit(request, current, {
          action: 'product.update',
          target: { type: 'product', id },
          before: { variant_id: variantId, stock: variant.stock },
          after: { variant_id: variantId, stock },
        });
        return productPage(reply, current, id, {
          notice: `${variant.label}: stock set to ${stock}.`,
        });
      } catch (err) {
        return refused(err, (error, status) => productPage(reply, current, id, { error }, status));
      }
    },
  );
}
