import { readNumber, UsageError, type Args } from '../args.ts';
import { coordinates, morePages, onOff, type Command } from '../command.ts';
import { block, ghs, table, type Fields } from '../output.ts';

const vendorFields: Fields = {
  'vendor id': 'vendor_id',
  name: 'name',
  syndicatable: 'syndicatable',
  commission: (v) => `${Math.round(v.commission_rate * 10_000) / 100}%`,
  pickup: (v) => `${v.pickup.contact_person}, ${v.pickup.contact_phone}, ${v.pickup.address}`,
  created: 'created_at',
};

const productFields: Fields = {
  'product id': 'product_id',
  'vendor id': 'vendor_id',
  title: 'title',
  category: 'category',
  active: 'active',
  listed: 'listed',
  variants: (p) => p.variants.length,
};

function product(body: { variants: unknown[] }): string {
  const variants = table(body.variants, {
    'variant id': 'variant_id',
    label: 'label',
    price: (v) => ghs(v.price_ghs),
    stock: 'stock',
    reserved: 'reserved',
    available: 'available',
    sellable: 'sellable',
  });
  return `${block(body, { ...productFields, images: 'images', updated: 'updated_at' })}\n\n${variants}`;
}

const saleFields: Fields = {
  'sale id': 'sale_id',
  'partner id': 'partner_id',
  env: 'environment',
  method: 'payment_method',
  state: 'state',
  payment: 'payment_status',
  total: (s) => ghs(s.total_ghs),
  'gateway paid': (s) => ghs(s.gateway_amount_ghs),
  'refund due': (s) => ghs(s.refund_due_ghs),
  earned: (s) => s.earned_at ?? '-',
  created: 'created_at',
};

const list =
  (key: string, fields: Fields, command: string) => (body: Record<string, any>, a: Args) =>
    table(body[key], fields, `(no ${key})`) + morePages(key, command, body.next_after, a);

const number = (raw: string, what: string, whole: boolean): number => {
  const value = readNumber(raw, whole);
  if (value === undefined)
    throw new UsageError(`${what} must be ${whole ? 'a whole number' : 'a number'} (got "${raw}")`);
  return value;
};

/** `LABEL:GHS:STOCK`, read from the right so that a label may hold colons. */
function newVariant(spec: string) {
  const parts = spec.split(':');
  if (parts.length < 3)
    throw new UsageError(
      `--variant needs LABEL:GHS:STOCK, e.g. "Size 42:120.50:10" (got "${spec}")`,
    );
  const stock = number(parts.pop()!, '--variant stock', true);
  const price = number(parts.pop()!, '--variant price', false);
  return { label: parts.join(':'), price_ghs: price, stock };
}

/** `--stock VARIANT_ID=N`, `--price VARIANT_ID=GHS` and `--in-stock VARIANT_ID=on|off`, merged per variant in the order given. */
function variantChanges(a: Args) {
  const byId = new Map<string, Record<string, unknown>>();
  const fields = [
    ['stock', 'stock'],
    ['price', 'price_ghs'],
    ['in-stock', 'in_stock'],
  ] as const;
  for (const [flag, field] of fields) {
    for (const spec of (a[flag] as string[] | undefined) ?? []) {
      const at = spec.lastIndexOf('=');
      if (at <= 0) throw new UsageError(`--${flag} needs VARIANT_ID=VALUE (got "${spec}")`);
      const [id, raw] = [spec.slice(0, at), spec.slice(at + 1)];
      if (flag === 'in-stock' && raw !== 'on' && raw !== 'off')
        throw new UsageError(`--in-stock needs VARIANT_ID=on or VARIANT_ID=off (got "${spec}")`);
      const value = flag === 'in-stock' ? raw === 'on' : number(raw, `--${flag}`, flag === 'stock');
      byId.set(id, { ...(byId.get(id) ?? { variant_id: id }), [field]: value });
    }
  }
  return byId.size === 0 ? undefined : [...byId.values()];
}

function vendorUpdate(a: Args) {
  const pickup = {
    contact_person: a['contact-person'],
    contact_phone: a['contact-phone'],
    address: a.address,
    coordinates: coordinates(a),
  };
  const body = {
    name: a.name,
    syndicatable: onOff(a.syndicatable),
    commission_rate: a['commission-rate'],
    pickup: Object.values(pickup).some((v) => v !== undefined) ? pickup : undefined,
  };
  if (Object.values(body).every((v) => v === undefined))
    throw new UsageError('nothing to update: give at least one option');
  return body;
}

function productUpdate(a: Args) {
  if (a['clear-category'] && a.category !== undefined)
    throw new UsageError('--category and --clear-category cannot be combined');
  if (a['clear-images'] && a.image !== undefined)
    throw new UsageError('--image and --clear-images cannot be combined');
  const body = {
    active: onOff(a.active),
    title: a.title,
    description: a.description,
    images: a['clear-images'] ? [] : a.image,
    category: a['clear-category'] ? null : a.category,
    variants: variantChanges(a),
  };
  if (Object.values(body).every((v) => v === undefined))
    throw new UsageError('nothing to update: give at least one option');
  return body;
}

const PAGE_HELP = {
  limit: 'How many to show, 1 to 200 (default 50)',
  after: 'Start after this one (the last one of the previous page)',
};
const PICKUP_HELP = {
  'commission-rate': "The platform's share of the subtotal, 0 to 1 (0.1 = 10%)",
  'contact-phone': 'A Ghana phone number',
  lat: 'Pickup latitude, inside Ghana (with --lng)',
  lng: 'Pickup longitude (with --lat)',
};

export const catalogGroups = {
  vendors: 'Vendors of the safe catalog, with their pickup point and commission',
  products: 'Products and their variants: prices, stock, switches',
  sales: 'Safe-catalog sales, e.g. the ones that need a person (on_hold, refund_due)',
};

export const catalogCommands: Command[] = [
  {
    name: 'vendors create',
    summary: 'Add a vendor with its pickup point and commission rate',
    route: 'POST /vendors',
    usage:
      '--name NAME --syndicatable on|off --commission-rate RATE --contact-person NAME --contact-phone PHONE --address TEXT --lat LAT --lng LNG',
    payload: (a) => ({
      name: a.name,
      syndicatable: onOff(a.syndicatable),
      commission_rate: a['commission-rate'],
      pickup: {
        contact_person: a['contact-person'],
        contact_phone: a['contact-phone'],
        address: a.address,
        coordinates: coordinates(a),
      },
    }),
    show: (b) => block(b, vendorFields),
    help: { ...PICKUP_HELP, syndicatable: 'Whether partners may list its products' },
  },
  {
    name: 'vendors update',
    summary:
      'Change a vendor; turning syndication off takes its products out of the partner catalog at once',
    route: 'PATCH /vendors/:vendor_id',
    usage:
      'VENDOR_ID [--name NAME] [--syndicatable on|off] [--commission-rate RATE] [--contact-person NAME] [--contact-phone PHONE] [--address TEXT] [--lat LAT --lng LNG]',
    payload: vendorUpdate,
    show: (b) => block(b, vendorFields),
    help: PICKUP_HELP,
  },
  {
    name: 'vendors list',
    summary: 'List vendors, oldest first',
    route: 'GET /vendors',
    usage: '[--limit N] [--after VENDOR_ID]',
    payload: (a) => ({ limit: a.limit, after: a.after }),
    show: list('vendors', vendorFields, 'vendors list'),
    help: PAGE_HELP,
  },
  {
    name: 'vendors get',
    summary: 'Show a vendor',
    route: 'GET /vendors/:vendor_id',
    usage: 'VENDOR_ID',
    show: (b) => block(b, vendorFields),
  },
  {
    name: 'products create',
    summary: 'Add a product with its variants (prices in GHS)',
    route: 'POST /products',
    usage:
      '--vendor VENDOR_ID --title TITLE --variant LABEL:GHS:STOCK... [--description TEXT] [--image URL...] [--category NAME] [--active on|off]',
    payload: (a) => ({
      vendor_id: a.vendor,
      title: a.title,
      description: a.description ?? '',
      images: a.image ?? [],
      category: a.category ?? null,
      active: onOff(a.active) ?? true,
      variants: (a.variant as string[]).map(newVariant),
    }),
    show: product,
    help: {
      variant: 'A variant as label, price in GHS and stock, e.g. "Size 42:120.50:10"',
      active: 'Listed for partners (default on)',
    },
  },
  {
    name: 'products update',
    summary: 'Switch a product on or off, edit it, or set variant stock, price and in_stock',
    route: 'PATCH /products/:product_id',
    usage:
      'PRODUCT_ID [--active on|off] [--title TITLE] [--description TEXT] [--image URL... | --clear-images] [--category NAME | --clear-category] [--stock VARIANT_ID=N...] [--price VARIANT_ID=GHS...] [--in-stock VARIANT_ID=on|off...]',
    payload: productUpdate,
    show: product,
    help: {
      image: 'The new list of images, replacing the old one',
      'in-stock': 'off stops sales of the variant whatever its stock; on allows them again',
    },
  },
  {
    name: 'products list',
    summary: 'List products, listed or not, with stock, oldest first',
    route: 'GET /products',
    usage: '[--vendor VENDOR_ID] [--limit N] [--after PRODUCT_ID]',
    payload: (a) => ({ vendor_id: a.vendor, limit: a.limit, after: a.after }),
    show: list('products', productFields, 'products list'),
    help: PAGE_HELP,
  },
  {
    name: 'products get',
    summary: 'Show a product with its switches and stock',
    route: 'GET /products/:product_id',
    usage: 'PRODUCT_ID',
    show: product,
  },
  {
    name: 'sales list',
    summary: 'List sales by state and payment status, oldest first',
    route: 'GET /sales',
    usage: '[--state STATE] [--payment-status STATUS] [--limit N] [--after SALE_ID]',
    payload: (a) => ({
      state: a.state,
      payment_status: a['payment-status'],
      limit: a.limit,
      after: a.after,
    }),
    show: list('sales', saleFields, 'sales list'),
    help: {
      ...PAGE_HELP,
      state: 'e.g. on_hold: paid an amount other than the total',
      'payment-status': 'e.g. refund_due: buyers owed money back',
    },
  },
];
