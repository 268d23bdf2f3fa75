import { UsageError, type Args } from '../args.ts';
import { morePages, onOff, type Command } from '../command.ts';
import { block, table, type Fields } from '../output.ts';

const courierFields: Fields = {
  'courier id': 'courier_id',
  name: 'name',
  phone: 'phone',
  vehicle: 'vehicle',
  zones: (c) => c.zones.join(',') || null,
  active: 'active',
  'on duty': 'on_duty',
  'last seen': (c) => c.last_position?.at ?? null,
};

function courierUpdate(a: Args) {
  const body = {
    name: a.name,
    phone: a.phone,
    vehicle: a.vehicle,
    zones: a.zones,
    active: onOff(a.active),
  };
  if (Object.values(body).every((v) => v === undefined))
    throw new UsageError('nothing to update: give at least one option');
  return body;
}

export const courierGroups = {
  couriers: 'Courier accounts: create, search, change, deactivate (support and admin change them)',
};

export const courierCommands: Command[] = [
  {
    name: 'couriers create',
    summary: 'Create a courier account (they sign in to the courier app with this phone)',
    route: 'POST /couriers',
    usage: '--name NAME --phone PHONE --vehicle motorbike|car|van [--zones ZONE,...]',
    payload: (a) => ({ name: a.name, phone: a.phone, vehicle: a.vehicle, zones: a.zones }),
    show: (b) => block(b, courierFields),
    help: {
      phone: 'A Ghana mobile number, e.g. 0241234567 or +233241234567',
      zones: 'Zone ids the courier works in',
    },
  },
  {
    name: 'couriers list',
    summary: 'List couriers by id (search by name or phone)',
    route: 'GET /couriers',
    usage: '[--q TEXT] [--active on|off] [--limit N] [--after COURIER_ID]',
    payload: (a) => ({ q: a.q, active: onOff(a.active), limit: a.limit, after: a.after }),
    show: (b, a) =>
      `${table(b.couriers, courierFields, '(no couriers)')}${morePages('couriers', 'couriers list', b.next_after, a)}`,
    help: {
      q: 'Part of a name or phone number',
      active: 'on: active accounts only; off: deactivated ones only',
    },
  },
  {
    name: 'couriers get',
    summary: 'Show a courier account with their duty and last position',
    route: 'GET /couriers/:courier_id',
    usage: 'COURIER_ID',
    show: (b) => block(b, courierFields),
  },
  {
    name: 'couriers update',
    summary: 'Change a courier; --active off deactivates them (off duty, signed out)',
    route: 'PATCH /couriers/:courier_id',
    usage:
      'COURIER_ID [--name NAME] [--phone PHONE] [--vehicle motorbike|car|van] [--zones ZONE,...] [--active on|off]',
    payload: courierUpdate,
    show: (b) => block(b, courierFields),
    help: {
      active: 'off: the courier goes off duty and is signed out at once',
      zones: 'Replace the zones',
    },
  },
];
