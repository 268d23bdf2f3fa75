// The wallet's chart: progressive enhancement over the table of the same figures (no inline script:
// the data is in the element's data-chart attribute). Needs uPlot (uplot.js, loaded before this file).
(() => {
  const el = document.getElementById('wallet-chart');
  if (!el || typeof uPlot === 'undefined') return;
  let data;
  try {
    data = JSON.parse(el.dataset.chart);
  } catch {
    return;
  }
  const xs = data.days.map((d) => Date.parse(`${d}T12:00:00Z`) / 1000);
  const ghs = (v) => (v == null ? '' : `GHS ${v.toFixed(2)}`);
  const size = () => ({ width: Math.max(200, el.clientWidth), height: 240 });
  const chart = new uPlot(
    {
      ...size(),
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'UTC'),
      series: [
        {},
        { label: 'Balance', stroke: '#1d4ed8', width: 2, value: (_, v) => ghs(v) },
        { label: 'Fees spent', stroke: '#b45309', fill: 'rgba(180,83,9,0.15)', width: 1, paths: uPlot.paths.bars({ size: [0.6, 40] }), value: (_, v) => ghs(v) },
      ],
      axes: [{}, { values: (_, ticks) => ticks.map((t) => t.toFixed(0)), size: 60 }],
    },
    [xs, data.closing, data.spent],
    el,
  );
  el.removeAttribute('aria-hidden');
  el.setAttribute('role', 'img');
  el.setAttribute('aria-label', 'Chart of the daily closing balance and fees spent; the same figures are in the table below.');
  let pending;
  window.addEventListener('resize', () => {
    clearTimeout(pending);
    pending = setTimeout(() => chart.setSize(size()), 100);
  });
})();
