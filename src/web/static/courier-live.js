// Live offers: the server's event stream (/courier/events) says when this courier's offer or job
// changes. A new offer is drawn here at once, with a countdown, a vibration and a short tone; any
// other change asks courier.js to show the job as it is. Without EventSource, or once the stream is
// refused for good, /courier/job is asked every few seconds instead.
(() => {
  const root = document.getElementById('app');
  if (root?.dataset.live !== 'true') return;
  const POLL_MS = 5000;

  const shown = () => {
    const j = document.querySelector('.job');
    return j ? `${j.dataset.kind}|${j.dataset.order}|${j.dataset.stage || ''}` : 'none';
  };
  const stateOf = (d) => (d.kind === 'none' ? 'none' : `${d.kind}|${d.order_id}|${d.stage || ''}`);

  let ticking = null;
  function countdown() {
    const section = document.querySelector('.job[data-kind=offer]');
    const line = document.getElementById('countdown');
    clearInterval(ticking);
    if (!section || !line || !section.dataset.expires) return;
    const expires = Date.parse(section.dataset.expires);
    const tick = () => {
      const left = Math.max(0, Math.round((expires - Date.now()) / 1000));
      line.textContent = left > 0 ? `Answer within ${left} s` : 'This offer has expired.';
      if (left === 0) {
        clearInterval(ticking);
        section.querySelectorAll('button[data-kind]').forEach((b) => (b.disabled = true));
      }
    };
    tick();
    ticking = setInterval(tick, 1000);
  }

  // A short tone where the browser allows sound (it may need an earlier tap on the page).
  function beep() {
    try {
      const audio = new AudioContext();
      const tone = audio.createOscillator();
      tone.frequency.value = 880;
      tone.connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.3);
      tone.onended = () => audio.close();
    } catch {}
  }

  const el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };

  function drawOffer(d) {
    const section = el('section', {
      class: 'job',
      'aria-labelledby': 'job-title',
      'data-order': d.order_id,
      'data-kind': 'offer',
      'data-stage': '',
      'data-expires': d.expires_at || '',
    });
    // A multi-drop batch lists each drop with its drop-off and item, as the page does.
    const batch = d.drops?.length ? d.drops : null;
    const title = batch ? `New batch offered: ${batch.length} drops` : 'New job offered';
    section.append(el('h2', { id: 'job-title' }, title));
    if (batch) {
      const list = el('ol', { class: 'stops', 'aria-labelledby': 'stops-title' });
      list.append(el('li', { class: 'stop current' }, `Pickup: ${d.pickup}`));
      batch.forEach((s, i) =>
        list.append(
          el('li', { class: 'stop' }, `Drop ${i + 1}: ${s.address} · ${s.customer} · ${s.item}`),
        ),
      );
      section.append(el('h3', { id: 'stops-title' }, 'Stops in order'), list);
    }
    const dl = el('dl', {});
    const rows = batch
      ? [['Pickup', d.pickup]]
      : [
          ['Item', d.item],
          ['Pickup', d.pickup],
          ['Drop-off', d.dropoff],
        ];
    const fee = batch ? `Fees (${batch.length} drops)` : 'Fee';
    if (d.fee_pesewas !== null) rows.push([fee, `GH₵ ${(d.fee_pesewas / 100).toFixed(2)}`]);
    if (d.distance_km !== null) rows.push(['Distance to pickup', `${d.distance_km} km`]);
    for (const [dt, dd] of rows) dl.append(el('dt', {}, dt), el('dd', {}, dd));
    section.append(dl, el('p', { id: 'countdown', class: 'countdown', 'aria-live': 'off' }));
    const actions = el('p', { class: 'actions' });
    for (const [kind, label, cls] of [
      ['accept', 'Accept', 'primary'],
      ['decline', 'Decline', ''],
    ]) {
      const b = el('button', { type: 'button', 'data-kind': kind, class: cls }, label);
      b.addEventListener('click', () =>
        root.dispatchEvent(
          new CustomEvent('courier-queue', {
            detail: [{ kind, payload: { order_id: d.order_id } }],
            cancelable: true,
          }),
        ),
      );
      actions.append(b);
    }
    section.append(actions);
    // The sync line moves with the buttons it reports on.
    const sync = document.querySelector('.sync-box');
    if (sync) section.append(sync);
    const old = document.querySelector('.job') || document.getElementById('no-job');
    if (old) old.replaceWith(section);
    else root.append(section);
    countdown();
    if (navigator.vibrate) navigator.vibrate([300, 100, 300]);
    beep();
  }

  function seen(d) {
    const now = stateOf(d);
    if (now === shown()) return;
    const current = shown();
    if (d.kind === 'offer' && (current === 'none' || current.startsWith('offer|'))) drawOffer(d);
    else root.dispatchEvent(new CustomEvent('courier-job-changed'));
  }

  let polling = null;
  function poll() {
    if (polling) return;
    polling = setInterval(async () => {
      try {
        const res = await fetch('/courier/job', {
          credentials: 'same-origin',
          headers: { accept: 'application/json' },
        });
        if (res.ok) seen(await res.json());
      } catch {}
    }, POLL_MS);
  }

  countdown();
  if (!('EventSource' in window)) return poll();
  const stream = new EventSource('/courier/events');
  stream.addEventListener('job', (e) => seen(JSON.parse(e.data)));
  // EventSource reconnects by itself (with Last-Event-ID); CLOSED means refused for good (signed out, too many tabs).
  stream.addEventListener('error', () => {
    if (stream.readyState === EventSource.CLOSED) poll();
  });
})();
