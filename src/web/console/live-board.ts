import type { ConsoleKit } from './kit.ts';
import type { LiveBoard } from './live.ts';

/**
 * What a board's template needs to update itself: its event stream (the board's, unless named) and
 * the page its region is fetched again from, and console-live.js. Nothing when this instance has no
 * live streams.
 */
export function liveBoard(
  kit: ConsoleKit,
): (board: LiveBoard, page: string, stream?: string) => Record<string, unknown> {
  return (board, page, stream) =>
    kit.deps.listen
      ? {
          live: stream ?? `/console/events/${board}`,
          livePage: page,
          pageJs: [kit.web.assetUrl('console-live.js')],
        }
      : {};
}
