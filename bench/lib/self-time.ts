/** The frames of a V8 CPU profile (`.cpuprofile`, `node --cpu-prof` or the inspector's Profiler.stop) by self time. */

export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }>;
  samples: number[];
  timeDeltas: number[];
}

export interface SelfFrame {
  /** `function path:line`, the path from node_modules/ or src/ on. */
  frame: string;
  selfMs: number;
  /** Share of the busy (non-idle) time. */
  share: number;
}

/** A frame's name as the tables print it: the function, and where it is from node_modules/ or src/ on. */
export function frameName(frame: CpuProfile['nodes'][number]['callFrame']): string {
  const where = frame.url
    ? `${frame.url.replace(/^.*\/(node_modules|src|bench)\//, '$1/')}:${frame.lineNumber + 1}`
    : '';
  return `${frame.functionName || '(anonymous)'} ${where}`.trim();
}

/**
 * The `n` frames with the most self time (samples taken while that frame was on top of the stack),
 * largest first, and the busy time they are shares of. Idle samples count for neither; the
 * garbage collector and `(program)` are frames like any other, since they are cost too.
 */
export function topSelfFrames(
  profile: CpuProfile,
  n = 10,
): { busyMs: number; frames: SelfFrame[] } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const self = new Map<string, number>();
  let busyUs = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id);
    if (!frame || frame.functionName === '(idle)') return;
    const us = profile.timeDeltas[i] ?? 0;
    busyUs += us;
    const name = frameName(frame);
    self.set(name, (self.get(name) ?? 0) + us);
  });
  const frames = [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([frame, us]) => ({ frame, selfMs: us / 1000, share: busyUs ? us / busyUs : 0 }));
  return { busyMs: busyUs / 1000, frames };
}
