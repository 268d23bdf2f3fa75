// The tracking page's live updates: progressive enhancement over the page's words (without script the
// page reloads itself every 30 s). Listens to the page's event stream; each `state` gives the page's
// words by data-field and the map's points, which the map script draws (a `tracking:state` event).
// A new status, a courier appearing or leaving, or the end of the delivery reloads the page, which then
// says it in full. EventSource reconnects by itself, resuming from the last event it had.
(() => {
  const card = document.querySelector('[data-events]');
  if (!card || typeof EventSource === 'undefined') return;
  const status = card.dataset.status;
  const hasCourier = Boolean(document.querySelector('[data-field="stop"]'));
  const source = new EventSource(card.dataset.events);
  source.addEventListener('state', (event) => {
    let state;
    try {
      state = JSON.parse(event.data);
    } catch {
      return;
    }
    if (!state.moving || state.status !== status || state.courier !== hasCourier) {
      source.close();
      return void location.reload();
    }
    for (const [field, value] of Object.entries(state.text || {})) {
      const node = document.querySelector(`[data-field="${field}"]`);
      if (node && node.textContent !== value) node.textContent = value;
    }
    document.dispatchEvent(new CustomEvent('tracking:state', { detail: state }));
    document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
  });
})();
