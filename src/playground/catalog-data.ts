/**
 * A demo catalog for development databases: twelve Ghanaian vendors (one not syndicated, to show
 * the filter) and sixty products (one inactive). Loaded into an EMPTY catalog only: by the
 * playground (`npm run demo`) on its first start, or by `npm run demo:catalog`; never by a server
 * on its own. Names, phones and addresses are made up; coordinates are real neighbourhood centres
 * so delivery quotes look right.
 */
import type { CatalogService } from '../modules/catalog/index.ts';

type Variant = readonly [label: string, priceGhs: number, stock: number];
type Product = readonly [
  title: string,
  category: string,
  description: string,
  variants: readonly Variant[],
  active?: boolean,
];
interface DemoVendor {
  name: string;
  syndicatable: boolean;
  commission_rate: number;
  contact: string;
  phone: string;
  address: string;
  at: readonly [lat: number, lng: number];
  products: readonly Product[];
}

const sizes = (price: number, stock: number, labels = ['S', 'M', 'L', 'XL']): Variant[] =>
  labels.map((l) => [l, price, stock]);

export const DEMO_VENDORS: readonly DemoVendor[] = [
  {
    name: 'Makola Kente House',
    syndicatable: true,
    commission_rate: 0.1,
    contact: 'Efua Asante',
    phone: '020 000 0101',
    address: 'Makola Market, Accra Central',
    at: [5.549, -0.205],
    products: [
      [
        'Handwoven kente stole',
        'Fashion',
        'Bonwire kente stole, 2 m, cotton and rayon.',
        [
          ['Gold and green', 180, 12],
          ['Blue and silver', 195.5, 6],
        ],
      ],
      [
        'Kente graduation sash',
        'Fashion',
        'Personalisable sash for graduations and ceremonies.',
        [
          ['Standard', 95, 40],
          ['With name embroidered', 130, 15],
        ],
      ],
      [
        'Adinkra print shirt',
        'Fashion',
        'Cotton shirt with hand-stamped Adinkra symbols.',
        sizes(150, 8),
      ],
      [
        'Kente bow tie',
        'Accessories',
        'Kente-cloth bow tie, adjustable strap.',
        [['One size', 45, 30]],
      ],
      [
        'Full kente cloth (12 yards)',
        'Fashion',
        'Traditional full-length kente for special occasions.',
        [['Adweneasa pattern', 2400, 2]],
      ],
    ],
  },
  {
    name: 'Osu Shea Naturals',
    syndicatable: true,
    commission_rate: 0.125,
    contact: 'Akosua Boateng',
    phone: '020 000 0102',
    address: 'Oxford Street, Osu',
    at: [5.556, -0.179],
    products: [
      [
        'Raw unrefined shea butter',
        'Beauty',
        'Grade A shea butter from Tamale cooperatives.',
        [
          ['250 g', 35, 60],
          ['500 g', 60, 40],
          ['1 kg', 110, 20],
        ],
      ],
      [
        'African black soap',
        'Beauty',
        'Alata samina with plantain ash and palm kernel oil.',
        [
          ['Bar', 15, 100],
          ['Liquid 500 ml', 40, 35],
        ],
      ],
      [
        'Shea and cocoa body lotion',
        'Beauty',
        'Light lotion with shea butter and cocoa butter.',
        [['200 ml', 55, 25]],
      ],
      [
        'Baobab oil',
        'Beauty',
        'Cold-pressed baobab seed oil for skin and hair.',
        [['50 ml', 65, 18]],
      ],
      [
        'Moringa leaf powder',
        'Health',
        'Dried moringa leaves, finely ground.',
        [['200 g', 30, 50]],
      ],
    ],
  },
  {
    name: 'Kumasi Adum Leatherworks',
    syndicatable: true,
    commission_rate: 0.1,
    contact: 'Kwabena Owusu',
    phone: '020 000 0103',
    address: 'Adum, Kumasi',
    at: [6.692, -1.623],
    products: [
      [
        'Leather ahenema sandals',
        'Footwear',
        'Traditional chief sandals, hand-stitched.',
        sizes(220, 5, ['40', '41', '42', '43', '44']),
      ],
      [
        'Leather messenger bag',
        'Bags',
        'Full-grain leather with kente trim.',
        [
          ['Brown', 480, 4],
          ['Black', 480, 3],
        ],
      ],
      ['Leather wallet', 'Accessories', 'Bifold wallet with card slots.', [['Brown', 85, 20]]],
      [
        'Leather belt',
        'Accessories',
        'Hand-tooled belt with brass buckle.',
        sizes(95, 10, ['32', '34', '36', '38']),
      ],
      ['Leather pouffe', 'Home', 'Moroccan-style pouffe made in Kumasi.', [['Tan', 350, 3]]],
    ],
  },
  {
    name: 'Tema Fresh Fish Market',
    syndicatable: true,
    commission_rate: 0.08,
    contact: 'Naa Dedei Tetteh',
    phone: '020 000 0104',
    address: 'Fishing Harbour, Tema Community 1',
    at: [5.64, 0.005],
    products: [
      [
        'Smoked herring (kako)',
        'Groceries',
        'Traditionally smoked herring, sun dried.',
        [
          ['Small basket', 60, 30],
          ['Large basket', 110, 15],
        ],
      ],
      [
        'Dried anchovies (keta school boys)',
        'Groceries',
        'Salted and dried anchovies.',
        [['500 g', 35, 40]],
      ],
      [
        'Fresh tilapia',
        'Groceries',
        'Volta lake tilapia, cleaned on request.',
        [
          ['1 kg', 70, 25],
          ['2 kg', 135, 12],
        ],
      ],
      ['Smoked catfish', 'Groceries', 'Whole smoked catfish.', [['Each', 45, 30]]],
      [
        'Shito (black pepper sauce)',
        'Groceries',
        'Homemade shito with dried fish and shrimp.',
        [
          ['Mild 350 g', 40, 50],
          ['Hot 350 g', 40, 50],
        ],
      ],
    ],
  },
  {
    name: 'East Legon Gadget Hub',
    syndicatable: true,
    commission_rate: 0.05,
    contact: 'Yaw Mensah',
    phone: '020 000 0105',
    address: 'Lagos Avenue, East Legon',
    at: [5.635, -0.161],
    products: [
      [
        'Power bank 20 000 mAh',
        'Electronics',
        'Fast-charging power bank, two USB ports.',
        [
          ['Black', 250, 30],
          ['White', 250, 20],
        ],
      ],
      ['Bluetooth speaker', 'Electronics', 'Portable waterproof speaker.', [['Standard', 380, 15]]],
      [
        'USB-C charging cable',
        'Electronics',
        'Braided 1 m cable.',
        [
          ['1 m', 35, 100],
          ['2 m', 50, 60],
        ],
      ],
      [
        'Solar lantern',
        'Electronics',
        'Rechargeable lantern for dumsor nights.',
        [['Standard', 150, 25]],
      ],
      [
        'Wireless earbuds',
        'Electronics',
        'Noise-isolating earbuds with charging case.',
        [['Black', 420, 10]],
      ],
    ],
  },
  {
    name: 'Madina Market Foodstuffs',
    syndicatable: true,
    commission_rate: 0.07,
    contact: 'Hajia Amina Issah',
    phone: '020 000 0106',
    address: 'Madina Market',
    at: [5.669, -0.166],
    products: [
      [
        'Gari (Ijebu style)',
        'Groceries',
        'Crisp, fine gari.',
        [
          ['2 kg', 30, 80],
          ['5 kg', 70, 40],
        ],
      ],
      [
        'Local rice (Aveyime)',
        'Groceries',
        'Ghana-grown long-grain rice.',
        [
          ['5 kg', 95, 40],
          ['25 kg', 450, 8],
        ],
      ],
      [
        'Palm oil',
        'Groceries',
        'Fresh red palm oil.',
        [
          ['1 litre', 35, 50],
          ['4 litres', 130, 15],
        ],
      ],
      [
        'Kontomire (cocoyam leaves)',
        'Groceries',
        'Fresh bundles from Aburi farms.',
        [['Bundle', 10, 60]],
      ],
      ['Groundnut paste', 'Groceries', 'Stone-ground, no additives.', [['500 g', 30, 45]]],
    ],
  },
  {
    name: 'Cape Coast Beads & Crafts',
    syndicatable: true,
    commission_rate: 0.15,
    contact: 'Esi Quayson',
    phone: '020 000 0107',
    address: 'Kotokuraba Market, Cape Coast',
    at: [5.106, -1.247],
    products: [
      [
        'Krobo glass bead necklace',
        'Jewellery',
        'Recycled glass beads from Odumase Krobo.',
        [
          ['Single strand', 75, 20],
          ['Triple strand', 180, 8],
        ],
      ],
      [
        'Waist beads set',
        'Jewellery',
        'Set of three waist bead strands.',
        [['Assorted colours', 50, 30]],
      ],
      [
        'Bead bracelet',
        'Jewellery',
        'Stretch bracelet of powder-glass beads.',
        [
          ['Blue', 25, 40],
          ['Yellow', 25, 40],
        ],
      ],
      [
        'Carved Sankofa figure',
        'Home',
        'Hand-carved wooden Sankofa bird, 30 cm.',
        [['Standard', 160, 6]],
      ],
      [
        'Djembe drum',
        'Music',
        'Goatskin djembe carved from tweneboa wood.',
        [
          ['Small', 350, 4],
          ['Large', 650, 2],
        ],
      ],
    ],
  },
  {
    name: 'Ho Volta Basketry',
    syndicatable: true,
    commission_rate: 0.12,
    contact: 'Selasi Agbeko',
    phone: '020 000 0108',
    address: 'Ho Central Market',
    at: [6.601, 0.47],
    products: [
      [
        'Bolga market basket',
        'Home',
        'Elephant-grass basket with leather handles.',
        [
          ['Medium', 140, 12],
          ['Large', 190, 8],
        ],
      ],
      [
        'Woven table mats (set of 6)',
        'Home',
        'Straw mats dyed with natural colours.',
        [['Set', 90, 15]],
      ],
      ['Fan (woven straw)', 'Accessories', 'Hand fan with leather rim.', [['Each', 20, 50]]],
      [
        'Storage basket with lid',
        'Home',
        'Tightly woven basket for the kitchen.',
        [['Standard', 110, 10]],
      ],
      ['Ewe kente scarf', 'Fashion', 'Agotime Ewe kente scarf.', [['Standard', 140, 7]]],
    ],
  },
  {
    name: 'Tamale Smock Weavers',
    syndicatable: true,
    commission_rate: 0.1,
    contact: 'Abdul-Rahman Yakubu',
    phone: '020 000 0109',
    address: 'Central Market, Tamale',
    at: [9.403, -0.842],
    products: [
      ['Fugu smock (batakari)', 'Fashion', 'Handwoven northern smock.', sizes(320, 6)],
      ['Smock cap', 'Accessories', 'Matching woven cap.', [['One size', 45, 20]]],
      ['Dawadawa spice', 'Groceries', 'Fermented locust bean seasoning.', [['250 g', 20, 40]]],
      ['Shea butter soap', 'Beauty', 'Made by Tamale women cooperatives.', [['Bar', 12, 80]]],
      [
        'Woven fugu fabric (2 yards)',
        'Fashion',
        'Strips of handwoven smock cloth.',
        [['Blue stripes', 150, 10]],
      ],
    ],
  },
  {
    name: 'Takoradi Home & Kitchen',
    syndicatable: true,
    commission_rate: 0.09,
    contact: 'Kojo Arthur',
    phone: '020 000 0110',
    address: 'Market Circle, Takoradi',
    at: [4.895, -1.755],
    products: [
      [
        'Asanka (earthenware grinding bowl)',
        'Home',
        'Clay bowl with wooden tapoli.',
        [
          ['Medium', 45, 20],
          ['Large', 65, 10],
        ],
      ],
      [
        'Aluminium cooking pot set',
        'Home',
        'Locally cast pots, three sizes.',
        [['Set of 3', 280, 6]],
      ],
      ['Fufu pounder (wooden)', 'Home', 'Mortar and pestle for fufu.', [['Standard', 220, 4]]],
      ['Coal pot', 'Home', 'Cast-iron charcoal stove.', [['Medium', 120, 8]]],
      ['Calabash bowls (set of 3)', 'Home', 'Polished calabash serving bowls.', [['Set', 75, 12]]],
    ],
  },
  {
    name: 'Spintex Kids Corner',
    syndicatable: true,
    commission_rate: 0.1,
    contact: 'Abena Darko',
    phone: '020 000 0111',
    address: 'Spintex Road, Accra',
    at: [5.633, -0.11],
    products: [
      [
        'Ankara print school bag',
        'Kids',
        'Padded backpack in Ankara print.',
        [
          ['Small', 120, 15],
          ['Large', 150, 10],
        ],
      ],
      [
        'Kente baby romper',
        'Kids',
        'Cotton romper with kente trim.',
        sizes(85, 10, ['0-3 m', '3-6 m', '6-12 m']),
      ],
      ['Oware board game', 'Toys', 'Carved wooden oware with seeds.', [['Standard', 130, 8]]],
      [
        'Picture book: Anansi stories',
        'Books',
        'Illustrated Anansi tales for ages 4-8.',
        [['Paperback', 60, 25]],
      ],
      ['Wooden toy tro-tro', 'Toys', 'Hand-painted wooden minibus.', [['Standard', 70, 0]], false],
    ],
  },
  {
    name: 'Kejetia Wholesale Textiles',
    syndicatable: false,
    commission_rate: 0.06,
    contact: 'Kofi Asamoah',
    phone: '020 000 0112',
    address: 'Kejetia Market, Kumasi',
    at: [6.698, -1.624],
    products: [
      [
        'Wax print (6 yards)',
        'Fashion',
        'GTP-style wax print, assorted designs.',
        [['Assorted', 240, 30]],
      ],
      [
        'Plain cotton fabric (6 yards)',
        'Fashion',
        'Dyeable cotton for tailoring.',
        [['White', 120, 25]],
      ],
      ['Batik tie-dye fabric', 'Fashion', 'Hand-dyed batik from Aburi.', [['Indigo', 160, 12]]],
      ['Lace fabric (5 yards)', 'Fashion', 'Embroidered lace for occasions.', [['Gold', 450, 6]]],
      ['Headwrap fabric', 'Fashion', 'Wax print headwrap, 2 yards.', [['Assorted', 50, 40]]],
    ],
  },
];

/** Loads the demo catalog through the operator service (so every rule applies); refuses a catalog that already has vendors. */
export async function loadDemoCatalog(
  catalog: CatalogService,
): Promise<{ vendors: number; products: number }> {
  if ((await catalog.vendorCount()) > 0)
    throw new Error('the catalog already has vendors; the demo loads into an empty catalog only');
  let products = 0;
  for (const v of DEMO_VENDORS) {
    const vendor = await catalog.createVendor({
      name: v.name,
      syndicatable: v.syndicatable,
      commission_rate: v.commission_rate,
      pickup: {
        contact_person: v.contact,
        contact_phone: v.phone,
        address: v.address,
        coordinates: { lat: v.at[0], lng: v.at[1] },
      },
    });
    for (const [title, category, description, variants, active = true] of v.products) {
      const slug = title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '');
      await catalog.createProduct({
        vendor_id: vendor.id,
        title,
        description,
        category,
        active,
        images: [`https://picsum.photos/seed/${slug}/640/480`],
        variants: variants.map(([label, price_ghs, stock]) => ({ label, price_ghs, stock })),
      });
      products++;
    }
  }
  return { vendors: DEMO_VENDORS.length, products };
}
