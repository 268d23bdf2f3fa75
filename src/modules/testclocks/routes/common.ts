import { Type } from '@sinclair/typebox';
import { DateTime, DeliverySuccess } from '../../../platform/http/openapi-shapes.ts';
import { StringEnum, strictObject } from '../../../platform/http/schemas.ts';
import type { TestClockRow } from '../repository.ts';
import { clockView } from '../views.ts';

export const ClockId = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^clk_[0-9A-Za-z]{1,60}$',
  description: 'A test clock id (clk_...) from test_clocks.create',
});

/** A date-time with its offset; the service checks the range. */
export const ClockTime = (description: string) =>
  Type.String({ format: 'date-time', maxLength: 40, description });

export const ClockIdBody = strictObject({ test_clock_id: ClockId });

export const TestClock = Type.Object({
  id: Type.String({ description: 'clk_...' }),
  object: Type.Literal('test_clock'),
  name: Type.String(),
  frozen_time: DateTime('The clock’s time: what "now" is for every object attached to it'),
  status: StringEnum(
    ['ready', 'advancing'] as const,
    'ready, or advancing while an advance runs its steps (an advance answers once it is ready again)',
  ),
  created_at: DateTime('When the clock was created (real time)'),
});

export const ClockResponse = DeliverySuccess(TestClock);

export const EXAMPLE_CLOCK = {
  id: 'clk_01KB3Z8M4Q2W7N5X9R0T6V1YCD',
  object: 'test_clock',
  name: 'Friday evening rush',
  frozen_time: '2026-12-04T17:00:00.000Z',
  status: 'ready',
  created_at: '2026-11-29T10:00:00.000Z',
} as const;

export const clockAnswer = (message: string, clock: TestClockRow, statusCode?: number) => ({
  ...(statusCode ? { statusCode } : {}),
  body: { status: 'success', message, data: clockView(clock) },
});
