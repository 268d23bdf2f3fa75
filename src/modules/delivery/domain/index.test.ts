import { describe, expect, it } from 'vitest';
import * as domain from './index.ts';

describe('delivery domain public API', () => {
  it('exports the building blocks', () => {
    for (const name of [
      'pesewasToGhs', 'ghsToPesewas', 'haversineKm', 'isInGhana', 'resolveArea', 'priceFee',
      'validatePricingConfig', 'planWindows', 'isHoliday', 'isDeliveryDay', 'normalizeGhanaPhone',
      'maskPhoneLast4', 'canTransition', 'canCancel', 'buildTimeline', 'describeStatus', 'nextSandboxStatus',
    ] as const) {
      expect(typeof domain[name], name).toBe('function');
    }
    expect(domain.GHANA_AREAS.length).toBeGreaterThanOrEqual(70);
    expect(domain.GHANA_REGIONS).toHaveLength(16);
  });

  it('composes into an estimate (central Accra → East Legon, Monday morning)', () => {
    const dropoff = { lat: 5.635, lng: -0.161 };
    expect(domain.isInGhana(dropoff)).toBe(true);
    const area = domain.resolveArea(dropoff, domain.GHANA_AREAS, domain.GHANA_REGIONS);
    expect(area).toEqual({ region: 'Greater Accra', serviceArea: 'East Legon', areaId: 'loc_accra_east_legon' });
    const fee = domain.priceFee(domain.CENTRAL_ACCRA, dropoff, 'standard');
    expect(domain.pesewasToGhs(fee)).toBe(45);
    const plan = domain.planWindows(new Date('2025-06-02T09:00:00Z'), undefined, 'standard');
    expect(plan.estimatedDelivery).toBe('2025-06-02T13:00:00.000Z');
  });
});
