// What the courier has typed or chosen in a job form (a could-not-deliver reason, a delivery code)
// outlives a reload of the page. The app reloads when a job action is answered; a reason chosen in
// the instant between the reload starting and the new page showing was lost, and the next tap landed
// on an empty form. The draft is saved as the page goes and put back into the same order's same form.
(() => {
  const root = document.getElementById('app');
  const job = document.querySelector('.job');
  if (!root || !job) return;
  const KEY = `courier-draft-${root.dataset.courier}`;
  const order = job.dataset.order;
  const fields = () =>
    job.querySelectorAll('form[data-kind] select[name], form[data-kind] input[name]');
  const name = (f) => `${f.form.dataset.kind}.${f.name}`;

  let draft = null;
  try {
    draft = JSON.parse(sessionStorage.getItem(KEY) || 'null');
  } catch {}
  sessionStorage.removeItem(KEY);
  if (draft && draft.order === order) {
    for (const f of fields()) {
      const value = draft.values[name(f)];
      if (f.type !== 'file' && typeof value === 'string' && f.value === '') {
        f.value = value;
        f.dispatchEvent(new Event('change', { bubbles: true }));
      }
    }
  }

  window.addEventListener('pagehide', () => {
    const values = {};
    for (const f of fields()) if (f.type !== 'file' && f.value.trim()) values[name(f)] = f.value;
    if (Object.keys(values).length > 0)
      sessionStorage.setItem(KEY, JSON.stringify({ order, values }));
  });
})();
