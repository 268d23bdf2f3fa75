import type { RetryMode } from './retry.ts';

export interface OperationInfo {
  method: 'GET' | 'POST';
  path: string;
  service: 'delivery' | 'safe-catalog';
  /** Dotted path of the client method that calls it, e.g. `delivery.orders.create`. */
  sdkMethod: string;
  retry: RetryMode;
  /** Staging keys answer 403 PRODUCTION_KEY_REQUIRED. */
  productionOnly?: boolean;
  /** The sandbox's own (test clocks): production keys answer 403 STAGING_KEY_REQUIRED. */
  stagingOnly?: boolean;
}

const d = (op: string) => `/api/v1/delivery/${op}`;
const s = (op: string) => `/api/v1/safe-catalog/${op}`;

/**
 * Every partner operation, keyed by its OpenAPI `operationId`: the single place the client takes
 * methods, paths and retry rules from (and what the conformance test holds against /openapi.json).
 */
export const OPERATIONS = {
  'delivery.health': {
    method: 'GET',
    path: d('health'),
    service: 'delivery',
    sdkMethod: 'delivery.health',
    retry: 'idempotent',
  },
  'delivery.orders.create': {
    method: 'POST',
    path: d('orders.create'),
    service: 'delivery',
    sdkMethod: 'delivery.orders.create',
    retry: 'create',
  },
  // Each item carries its own order_reference guard, so a repeated batch creates nothing twice.
  'delivery.orders.create_bulk': {
    method: 'POST',
    path: d('orders.create_bulk'),
    service: 'delivery',
    sdkMethod: 'delivery.orders.createBulk',
    retry: 'create',
  },
  // Also `delivery.orders.getByReference`.
  'delivery.orders.get': {
    method: 'POST',
    path: d('orders.get'),
    service: 'delivery',
    sdkMethod: 'delivery.orders.get',
    retry: 'idempotent',
  },
  'delivery.orders.track': {
    method: 'POST',
    path: d('orders.track'),
    service: 'delivery',
    sdkMethod: 'delivery.orders.track',
    retry: 'idempotent',
  },
  'delivery.orders.estimate': {
    method: 'POST',
    path: d('orders.estimate'),
    service: 'delivery',
    sdkMethod: 'delivery.orders.estimate',
    retry: 'idempotent',
  },
  // A repeated cancel answers INVALID_ORDER_STATUS, which would hide the first answer: not retried blindly.
  'delivery.orders.cancel': {
    method: 'POST',
    path: d('orders.cancel'),
    service: 'delivery',
    sdkMethod: 'delivery.orders.cancel',
    retry: 'unsafe',
  },
  'delivery.locations.list': {
    method: 'POST',
    path: d('locations.list'),
    service: 'delivery',
    sdkMethod: 'delivery.locations.list',
    retry: 'idempotent',
  },
  'delivery.wallet.balance': {
    method: 'GET',
    path: d('wallet.balance'),
    service: 'delivery',
    sdkMethod: 'delivery.wallet.balance',
    retry: 'idempotent',
    productionOnly: true,
  },
  // A repeat would open a second checkout.
  'delivery.wallet.topup.initiate': {
    method: 'POST',
    path: d('wallet.topup.initiate'),
    service: 'delivery',
    sdkMethod: 'delivery.wallet.topup.initiate',
    retry: 'unsafe',
    productionOnly: true,
  },
  // Credits at most once per top-up, whatever the number of calls.
  'delivery.wallet.topup.verify': {
    method: 'POST',
    path: d('wallet.topup.verify'),
    service: 'delivery',
    sdkMethod: 'delivery.wallet.topup.verify',
    retry: 'idempotent',
    productionOnly: true,
  },
  // A repeat would make a second clock.
  'delivery.test_clocks.create': {
    method: 'POST',
    path: d('test_clocks.create'),
    service: 'delivery',
    sdkMethod: 'delivery.testClocks.create',
    retry: 'unsafe',
    stagingOnly: true,
  },
  'delivery.test_clocks.list': {
    method: 'POST',
    path: d('test_clocks.list'),
    service: 'delivery',
    sdkMethod: 'delivery.testClocks.list',
    retry: 'idempotent',
    stagingOnly: true,
  },
  'delivery.test_clocks.get': {
    method: 'POST',
    path: d('test_clocks.get'),
    service: 'delivery',
    sdkMethod: 'delivery.testClocks.get',
    retry: 'idempotent',
    stagingOnly: true,
  },
  // A repeat after a lost answer is refused (TEST_CLOCK_BACKWARDS, the clock being there already): check with get.
  'delivery.test_clocks.advance': {
    method: 'POST',
    path: d('test_clocks.advance'),
    service: 'delivery',
    sdkMethod: 'delivery.testClocks.advance',
    retry: 'unsafe',
    stagingOnly: true,
  },
  // A repeat answers TEST_CLOCK_NOT_FOUND, which would hide the first answer.
  'delivery.test_clocks.delete': {
    method: 'POST',
    path: d('test_clocks.delete'),
    service: 'delivery',
    sdkMethod: 'delivery.testClocks.delete',
    retry: 'unsafe',
    stagingOnly: true,
  },
  'delivery.messages.settings.get': {
    method: 'GET',
    path: d('messages.settings.get'),
    service: 'delivery',
    sdkMethod: 'delivery.messages.settings.get',
    retry: 'idempotent',
  },
  // Sets the fields sent to the values sent: a repeat changes nothing more.
  'delivery.messages.settings.update': {
    method: 'POST',
    path: d('messages.settings.update'),
    service: 'delivery',
    sdkMethod: 'delivery.messages.settings.update',
    retry: 'idempotent',
  },
  'safe-catalog.health': {
    method: 'GET',
    path: s('health'),
    service: 'safe-catalog',
    sdkMethod: 'catalog.health',
    retry: 'idempotent',
  },
  'safe-catalog.catalog.list': {
    method: 'GET',
    path: s('catalog.list'),
    service: 'safe-catalog',
    sdkMethod: 'catalog.list',
    retry: 'idempotent',
  },
  'safe-catalog.catalog.get': {
    method: 'GET',
    path: s('catalog.get'),
    service: 'safe-catalog',
    sdkMethod: 'catalog.get',
    retry: 'idempotent',
  },
  'safe-catalog.orders.create': {
    method: 'POST',
    path: s('orders.create'),
    service: 'safe-catalog',
    sdkMethod: 'catalog.orders.create',
    retry: 'create',
    productionOnly: true,
  },
  // Idempotent: repeat calls never settle twice.
  'safe-catalog.orders.verify': {
    method: 'POST',
    path: s('orders.verify'),
    service: 'safe-catalog',
    sdkMethod: 'catalog.orders.verify',
    retry: 'idempotent',
    productionOnly: true,
  },
  'safe-catalog.orders.get': {
    method: 'GET',
    path: s('orders.get'),
    service: 'safe-catalog',
    sdkMethod: 'catalog.orders.get',
    retry: 'idempotent',
  },
  'safe-catalog.payouts.list': {
    method: 'GET',
    path: s('payouts.list'),
    service: 'safe-catalog',
    sdkMethod: 'catalog.payouts.list',
    retry: 'idempotent',
    productionOnly: true,
  },
  'safe-catalog.payouts.get': {
    method: 'GET',
    path: s('payouts.get'),
    service: 'safe-catalog',
    sdkMethod: 'catalog.payouts.get',
    retry: 'idempotent',
    productionOnly: true,
  },
} as const satisfies Record<string, OperationInfo>;

export type OperationId = keyof typeof OPERATIONS;
