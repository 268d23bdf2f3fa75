/** Sandbox test clocks: staging apps' own time, advanced by hand; what runs for a clock's objects is registered by flows. */
export { testClocksModule } from './module.ts';
export type { ClockEnding, ClockOwner, ClockStep, TestClocksService } from './service.ts';
