// Daily charts: progressive enhancement over a table of the same figures (no inline script: the
// data is in each element's data-chart attribute). Needs uPlot (uplot.js, loaded before this file).
// data-chart: { days: ["YYYY-MM-DD", …], label: "…", series: [{ label, values, unit, bars?, color? }] }
(() => {
  if (typeof uPlot === 'undefined') return;
  const UNITS = {
    ghs: (v) => `GHS ${v.toFixed(2)}`,
    count: (v) => String(v),
    percent: (v) => `${v.toFixed(1)}%`,
    minutes: (v) => `${v.toFixed(0)} min`,
  };
  const COLORS = ['#1d4ed8', '#b45309', '#047857', '#7c3aed'];
  for (const el of document.querySelectorAll('[data-chart]')) {
    let data;
    try {
      data = JSON.parse(el.dataset.chart);
    } catch {
      continue;
    }
    if (!Array.isArray(data.days) || !Array.isArray(data.series)) continue;
    const xs = data.days.map((d) => Date.parse(`${d}T12:00:00Z`) / 1000);
    const size = () => ({ width: Math.max(200, el.clientWidth), height: 220 });
    const series = data.series.map((s, i) => {
      const fmt = UNITS[s.unit] ?? UNITS.count;
      const color = s.color ?? COLORS[i % COLORS.length];
      const value = (_, v) => (v == null ? '' : fmt(v));
      return s.bars
        ? {
            label: s.label,
            stroke: color,
            fill: `${color}33`,
            width: 1,
            paths: uPlot.paths.bars({ size: [0.6, 40] }),
            value,
          }
        : { label: s.label, stroke: color, width: 2, spanGaps: false, value };
    });
    const chart = new uPlot(
      {
        ...size(),
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'UTC'),
        series: [{}, ...series],
        axes: [
          {},
          {
            values: (_, ticks) =>
              ticks.map((t) => (Number.isInteger(t) ? String(t) : t.toFixed(1))),
            size: 60,
          },
        ],
      },
      [xs, ...data.series.map((s) => s.values)],
      el,
    );
    el.removeAttribute('aria-hidden');
    el.setAttribute('role', 'img');
    el.setAttribute(
      'aria-label',
      `${data.label ?? 'Chart'}; the same figures are in the table below.`,
    );
    let pending;
    window.addEventListener('resize', () => {
      clearTimeout(pending);
      pending = setTimeout(() => chart.setSize(size()), 100);
    });
  }
})();
