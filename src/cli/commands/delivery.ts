import { coordinates, type Command } from '../command.ts';
import { block, table, type Fields } from '../output.ts';

const order = (body: unknown) =>
  block(body, {
    'order id': 'internal_order_id',
    reference: 'order_reference',
    status: 'status',
    description: (o) => o.status_details?.description,
    'app id': 'app_id',
    environment: 'environment',
    payment: (o) => o.order_info?.payment_status,
    tracking: 'tracking_url',
  });

const point = (c: { lat: number; lng: number } | undefined | null) =>
  c ? `${c.lat},${c.lng}` : undefined;

const locationFields: Fields = {
  id: 'id',
  name: 'name',
  region: 'region',
  zone: 'zone',
  coordinates: (l) => point(l.coordinates),
};

export const deliveryGroups = {
  orders: 'Delivery orders: move them through their states (courier updates, failures)',
  locations: 'Delivery areas partners can name (curated and added live)',
};

export const deliveryCommands: Command[] = [
  {
    name: 'orders move',
    summary: 'Move an order to its next state; an illegal move answers the allowed ones',
    route: 'POST /delivery/orders/:order_id/status',
    usage:
      'ORDER_ID --to accepted|pickedUp|in_transit|delivered|returning|returned|failed|cancelled [--note TEXT] [--reason recipient_absent|refused|wrong_address|other]',
    payload: (a) => ({ status: a.to, note: a.note, failure_reason: a.reason }),
    show: order,
    help: {
      to: 'placed → accepted → pickedUp → in_transit → delivered; a failed attempt goes in_transit again (while attempts are left) or returning → returned; any open order can fail; cancelled refunds a wallet-funded order',
      note: 'Shown in the timeline (at most 500 characters)',
      reason:
        'Why the courier could not deliver: needed for another attempt and for returning (other needs --note)',
    },
  },
  {
    name: 'locations create',
    summary: 'Add a live delivery area; every instance lists it within seconds',
    route: 'POST /locations',
    usage: '--name NAME --region REGION --zone ZONE [--lat LAT --lng LNG]',
    payload: (a) => ({ name: a.name, region: a.region, zone: a.zone, coordinates: coordinates(a) }),
    show: (b) => block(b, locationFields),
    help: {
      region: 'One of the 16 regions of Ghana, any case',
      lat: 'Latitude of the area, inside Ghana (with --lng)',
      lng: 'Longitude of the area (with --lat)',
    },
  },
  {
    name: 'locations list',
    summary: 'List every delivery area with its coordinates',
    route: 'GET /locations',
    usage: '[--region REGION] [--zone ZONE]',
    payload: (a) => ({ region: a.region, zone: a.zone }),
    show: (b) => table(b.locations, locationFields, '(no locations)'),
  },
];
