import { errors } from '../../../platform/errors.ts';
import type { PricingConfig } from '../../delivery/index.ts';
import { CENTRAL_ACCRA, type LatLng } from '../../../shared/ghana/index.ts';
import { feeFor } from '../../delivery/index.ts';
import type { LocationsService } from '../../delivery/index.ts';
import { areaNamedIn, type NamedPoint } from '../domain/places.ts';
import type { QuoteSource } from './repository.ts';

export interface BuyerPlace {
  address: string;
  lat?: number;
  lng?: number;
  area_id?: string;
}

export interface Quote {
  point: LatLng;
  source: QuoteSource;
  feePesewas: number;
}

/**
 * Prices a sale's delivery from the vendor's pickup point with the delivery service's own
 * formula (feeFor, the fee orders.estimate quotes as `standard`). The drop-off point, best first:
 * 1. the buyer's `delivery.lat`/`lng`;
 * 2. the centre of `delivery.area_id` (an id from locations.list);
 * 3. a known area whose name the address contains ("..., East Legon, Accra");
 * 4. otherwise the centre of the vendor's own zone: the first area listed for it (Accra Central
 *    for Accra Metro, Adum for Kumasi Metro), or central Accra when the pickup is in no known
 *    area. An unplaced buyer is quoted a typical same-town trip, never a zero-distance one.
 */
export class DeliveryQuoter {
  constructor(
    private readonly locations: LocationsService,
    private readonly pricing: PricingConfig,
  ) {}

  async quote(place: BuyerPlace, pickup: LatLng): Promise<Quote> {
    const { point, source } = await this.dropoff(place, pickup);
    return { point, source, feePesewas: feeFor(pickup, point, this.pricing) };
  }

  /** Where the buyer is, as the delivery order will name it: region and town (service area). */
  async describe(point: LatLng): Promise<{ region: string; city: string }> {
    const area = await this.locations.resolve(point);
    return { region: area?.region ?? 'Greater Accra', city: area?.serviceArea ?? 'Accra' };
  }

  private async dropoff(
    place: BuyerPlace,
    pickup: LatLng,
  ): Promise<{ point: LatLng; source: QuoteSource }> {
    if (place.lat !== undefined && place.lng !== undefined)
      return { point: { lat: place.lat, lng: place.lng }, source: 'coordinates' };
    if (place.area_id !== undefined) {
      const area = await this.locations.findById(place.area_id);
      if (!area) {
        throw errors.validation(
          'delivery.area_id is not a known area; take one from locations.list.',
          [{ field: 'delivery.area_id', issue: 'is not a known area' }],
        );
      }
      // An operator-added area may have no coordinates: it labels the place, the address may still price it.
      if (area.coordinates) return { point: area.coordinates, source: 'area' };
    }
    const { locations } = await this.locations.list({ includeCoordinates: true });
    const named = areaNamedIn(
      place.address,
      locations.filter((l): l is NamedPoint & typeof l => l.coordinates !== undefined),
    );
    if (named) return { point: named.coordinates, source: 'address' };
    return { point: await this.zoneCentre(pickup), source: 'default' };
  }

  private async zoneCentre(pickup: LatLng): Promise<LatLng> {
    const resolved = await this.locations.resolve(pickup);
    const area = resolved?.areaId ? await this.locations.findById(resolved.areaId) : null;
    if (!area) return CENTRAL_ACCRA;
    const { locations } = await this.locations.list({ zone: area.zone, includeCoordinates: true });
    return locations.find((l) => l.coordinates)?.coordinates ?? CENTRAL_ACCRA;
  }
}
