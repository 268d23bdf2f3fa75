import {
  AuthenticationError,
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  PartnerApiError,
  PartnerClient,
  PaymentRequiredError,
  PermissionError,
  type CreateOrderRequest,
} from '@partner-platform/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCRA_CENTRAL, EAST_LEGON, orderBody } from '../../delivery/fixtures.ts';
import {
  createPartner,
  startPlatform,
  type PartnerSetup,
  type TestPlatform,
} from '../../helpers/harness.ts';
import { decide, walletPartner } from '../../wallet/helpers.ts';

let p: TestPlatform;
let staging: PartnerSetup;
let production: PartnerSetup;

beforeAll(async () => {
  p = await startPlatform();
  [staging, production] = await Promise.all([createPartner(p), walletPartner(p)]);
});
afterAll(() => p.close());

const order = (extra: Record<string, unknown> = {}) => orderBody(extra) as CreateOrderRequest;

/** The typed error a call rejects with. */
async function failure<T extends PartnerApiError>(call: Promise<unknown>): Promise<T> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PartnerApiError);
  return err as T;
}

describe('SDK: delivery operations against the real server', () => {
  it('health; a wrong signing secret is an AuthenticationError with the request id', async () => {
    expect(await staging.client.delivery.health()).toEqual({ status: 'ok' });
    const forged = new PartnerClient({
      apiKey: staging.apiKey,
      signingSecret: 'sk_wrong',
      baseUrl: p.url,
    });
    const err = await failure(forged.delivery.health());
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err).toMatchObject({
      status: 401,
      code: 'INVALID_SIGNATURE',
      requestId: expect.stringMatching(/^req_/),
      attempts: 1,
    });
    expect(err.headers['x-request-id']).toBe(err.requestId);
  });

  it('orders.create, get, getByReference, track; a missing field and a first-attempt duplicate throw', async () => {
    const body = order();
    const created = await staging.client.delivery.orders.create(body);
    expect(created).toMatchObject({
      status: 'success',
      data: { status: 'order_created', order_details: { order_reference: body.order_reference } },
    });
    expect(created.recovered).toBeUndefined();
    const id = created.data.order_details.order_id;

    const byId = await staging.client.delivery.orders.get(id);
    expect(byId.data).toMatchObject({
      internal_order_id: id,
      order_reference: body.order_reference,
      status: 'placed',
    });
    expect(
      (await staging.client.delivery.orders.getByReference(body.order_reference)).data
        .internal_order_id,
    ).toBe(id);

    const track = await staging.client.delivery.orders.track(id);
    expect(track.data).toMatchObject({
      order_id: id,
      current_status: 'placed',
      recipient_phone_last4: '4567',
    });
    expect(track.data.timeline.map((s) => s.status)).toEqual([
      'placed',
      'accepted',
      'pickedUp',
      'in_transit',
      'delivered',
    ]);

    const missing = await failure(
      staging.client.delivery.orders.create({
        ...order(),
        item: undefined,
      } as unknown as CreateOrderRequest),
    );
    expect(missing).toBeInstanceOf(InvalidRequestError);
    expect(missing).toMatchObject({ status: 400, code: 'MISSING_REQUIRED_FIELD' });

    const dup = await failure(staging.client.delivery.orders.create(body));
    expect(dup).toBeInstanceOf(ConflictError);
    expect(dup).toMatchObject({ code: 'DUPLICATE_ORDER_REFERENCE', attempts: 1 });
  });

  it("get, getByReference and track of an unknown order (or another app's) are NotFoundError ORDER_NOT_FOUND", async () => {
    const other = await createPartner(p);
    const theirs = (await other.client.delivery.orders.create(order())).data.order_details;
    for (const call of [
      () => staging.client.delivery.orders.get(theirs.order_id),
      () => staging.client.delivery.orders.getByReference(theirs.order_reference),
      () => staging.client.delivery.orders.track('dlv_00000000000000000000000000'),
    ]) {
      const err = await failure(call());
      expect(err).toBeInstanceOf(NotFoundError);
      expect(err.code).toBe('ORDER_NOT_FOUND');
    }
  });

  it('createBulk reports one result per item; an empty batch is BATCH_EMPTY', async () => {
    const res = await staging.client.delivery.orders.createBulk([
      order(),
      order({ customer: { name: 'No phone' } }),
    ]);
    expect(res.summary).toEqual({ total: 2, created: 1, failed: 1 });
    expect(res.results[0]).toMatchObject({
      ok: true,
      status_code: 201,
      order_id: expect.stringMatching(/^dlv_/),
    });
    expect(res.results[1]).toMatchObject({
      ok: false,
      code: 'MISSING_REQUIRED_FIELD',
      order_id: null,
    });
    const empty = await failure(staging.client.delivery.orders.createBulk([]));
    expect(empty).toBeInstanceOf(InvalidRequestError);
    expect(empty.code).toBe('BATCH_EMPTY');
  });

  it('createBulk with findExisting marks a reference an earlier call created as existing, with its order id', async () => {
    const earlier = order();
    const id = (await staging.client.delivery.orders.create(earlier)).data.order_details.order_id;
    const plain = await staging.client.delivery.orders.createBulk([earlier]);
    const found = await staging.client.delivery.orders.createBulk([earlier, order()], {
      findExisting: true,
    });
    expect(plain.results[0]).toEqual({
      order_reference: earlier.order_reference,
      ok: false,
      status_code: 409,
      order_id: null,
      code: 'DUPLICATE_ORDER_REFERENCE',
      message: expect.any(String),
    });
    expect(found.results[0]).toMatchObject({
      ok: false,
      code: 'DUPLICATE_ORDER_REFERENCE',
      existing: true,
      order_id: id,
    });
    expect(found.results[1]).toMatchObject({ ok: true, order_id: expect.stringMatching(/^dlv_/) });
    expect(found.results[1]!.existing).toBeUndefined();
    expect(found.summary).toEqual({ total: 2, created: 1, failed: 1 });
  });

  it('estimate prices every priority; an unknown priority is VALIDATION_ERROR with details', async () => {
    const res = await staging.client.delivery.orders.estimate({
      delivery_location: { coordinates: EAST_LEGON, address: 'East Legon' },
      pickup_location: { coordinates: ACCRA_CENTRAL },
      priority: 'economy',
    });
    expect(res.data.priority_level).toBe('economy');
    expect(res.data.available_options.map((o) => o.priority)).toEqual([
      'standard',
      'economy',
      'cargo',
    ]);
    expect(res.data.location_coverage.delivery_available).toBe(true);
    const err = await failure(
      staging.client.delivery.orders.estimate({
        delivery_location: { coordinates: EAST_LEGON },
        priority: 'express' as 'standard',
      }),
    );
    expect(err).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(err.details?.[0]?.field).toBe('priority');
  });

  it('cancel with a reason; cancelling again is INVALID_ORDER_STATUS', async () => {
    const id = (await staging.client.delivery.orders.create(order())).data.order_details.order_id;
    const res = await staging.client.delivery.orders.cancel(id, 'Customer changed their mind');
    expect(res.data).toMatchObject({
      internal_order_id: id,
      status: 'cancelled',
      cancellation_reason: 'Customer changed their mind',
      refund_status: 'not_applicable',
    });
    const again = await failure(staging.client.delivery.orders.cancel(id));
    expect(again).toBeInstanceOf(InvalidRequestError);
    expect(again.code).toBe('INVALID_ORDER_STATUS');
  });

  it('locations.list filters case-insensitively and adds coordinates on request; an empty filter is VALIDATION_ERROR', async () => {
    const res = await staging.client.delivery.locations.list({
      region: 'greater accra',
      include_coordinates: true,
    });
    expect(res.data.total).toBeGreaterThan(0);
    expect(res.data.filters).toEqual({ region: 'greater accra', zone: null });
    expect(res.data.locations.every((l) => l.region === 'Greater Accra')).toBe(true);
    expect(res.data.locations.some((l) => l.coordinates !== undefined)).toBe(true);
    expect((await staging.client.delivery.locations.list()).data.total).toBeGreaterThanOrEqual(
      res.data.total,
    );
    expect((await failure(staging.client.delivery.locations.list({ zone: '' }))).code).toBe(
      'VALIDATION_ERROR',
    );
  });

  it('wallet: balance, topup.initiate and verify (pending, credited, already_credited) with a production key', async () => {
    expect((await production.client.delivery.wallet.balance()).data).toEqual({
      balance_ghs: 0,
      currency: 'GHS',
    });
    const topup = (await production.client.delivery.wallet.topup.initiate(50)).data;
    expect(topup).toMatchObject({
      amount_ghs: 50,
      client_reference: expect.stringMatching(/^serviceD_WA[0-9a-f]{16}$/),
    });
    expect(
      (await production.client.delivery.wallet.topup.verify(topup.client_reference)).data,
    ).toMatchObject({ credited: false, state: 'pending' });
    expect(await decide(topup.checkout_url, 'pay')).toBe(200);
    // The sandbox gateway's callback may credit before verify does: either way, exactly once.
    const paid = (await production.client.delivery.wallet.topup.verify(topup.client_reference))
      .data;
    expect(paid).toMatchObject({ credited: true, amount_ghs: 50 });
    expect(['credited', 'already_credited']).toContain(paid.state);
    expect(
      (await production.client.delivery.wallet.topup.verify(topup.client_reference)).data.state,
    ).toBe('already_credited');
    expect((await production.client.delivery.wallet.balance()).data.balance_ghs).toBe(50);
  });

  it('wallet errors are typed: staging key, minimum amount, unknown top-up, wallet too low', async () => {
    const staged = await failure(staging.client.delivery.wallet.balance());
    expect(staged).toBeInstanceOf(PermissionError);
    expect(staged.code).toBe('PRODUCTION_KEY_REQUIRED');
    expect((await failure(production.client.delivery.wallet.topup.initiate(10))).code).toBe(
      'VALIDATION_ERROR',
    );
    const unknown = await failure(
      production.client.delivery.wallet.topup.verify('serviceD_WA0000000000000000'),
    );
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect(unknown.code).toBe('TOPUP_NOT_FOUND');
    const broke = await walletPartner(p);
    const low = await failure(
      broke.client.delivery.orders.create(order({ payment: { payer: 'partner' } })),
    );
    expect(low).toBeInstanceOf(PaymentRequiredError);
    expect(low).toMatchObject({ status: 402, code: 'INSUFFICIENT_WALLET_BALANCE' });
  });
});
