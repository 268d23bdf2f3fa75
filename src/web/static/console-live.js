// The console boards' live updates, and the courier app's earnings screen's (progressive
// enhancement: every such page works without this file). A page's region, marked
// data-live="<its event stream>", is fetched again from data-page when the stream says it may have
// changed, unless the operator is using a control in it (then once they leave it). The dispatch
// stream's snapshot is passed to console-map.js as `dispatch:snapshot`; a rise in late orders
// raises an alert, with a short tone where the browser allows sound.
(() => {
  const region = document.querySelector('[data-live]');
  if (!region?.dataset.live || typeof EventSource === 'undefined') return;
  const page = region.dataset.page || location.pathname + location.search;
  const say = (text) => {
    const line = region.querySelector('[data-live-status]');
    if (line) line.textContent = text;
  };
  const clock = () => new Date().toISOString().slice(11, 19);

  const ago = (ms) => {
    const s = Math.max(0, Math.round(ms / 1000));
    if (s < 60) return `${s} s ago`;
    if (s < 3600) return `${Math.floor(s / 60)} min ago`;
    return `${Math.floor(s / 3600)} h ago`;
  };
  function tick() {
    const now = Date.now();
    for (const t of document.querySelectorAll('time[data-age]'))
      t.textContent = ago(now - Date.parse(t.dateTime));
    for (const t of document.querySelectorAll('time[data-countdown]')) {
      const left = Math.round((Date.parse(t.dateTime) - now) / 1000);
      t.textContent =
        left > 0
          ? `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')} left`
          : 'expired';
    }
  }
  tick();
  setInterval(tick, 1000);

  let fetching = false;
  let again = false;
  let waiting = false;
  const busy = () =>
    region.contains(document.activeElement) &&
    /^(SELECT|INPUT|TEXTAREA)$/.test(document.activeElement.tagName);
  async function reload() {
    if (busy()) return void (waiting = true);
    if (fetching) return void (again = true);
    fetching = true;
    try {
      const res = await fetch(page, {
        credentials: 'same-origin',
        headers: { accept: 'text/html' },
      });
      if (!res.ok || res.redirected) return say('Live updates stopped: reload the page.');
      const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
      const fresh = doc.querySelector('[data-live]');
      if (!fresh) return;
      if (busy()) return void (waiting = true);
      region.replaceChildren(...fresh.childNodes);
      tick();
      say(`Live: updated ${clock()} UTC.`);
      document.dispatchEvent(new CustomEvent('console:board'));
    } catch {
      say('Could not update: trying again on the next change.');
    } finally {
      fetching = false;
      if (again) {
        again = false;
        void reload();
      }
    }
  }
  region.addEventListener('focusout', () =>
    setTimeout(() => {
      if (waiting && !busy()) {
        waiting = false;
        void reload();
      }
    }, 0),
  );

  // Sound needs an earlier gesture in most browsers: the first click or key on the page unlocks it.
  let audio;
  const unlock = () => {
    try {
      audio ??= new AudioContext();
      void audio.resume();
    } catch {}
  };
  document.addEventListener('pointerdown', unlock, { once: true });
  document.addEventListener('keydown', unlock, { once: true });
  function beep() {
    try {
      audio ??= new AudioContext();
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.frequency.value = 880;
      gain.gain.value = 0.2;
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.35);
    } catch {}
  }
  let toast;
  function alertLate(count) {
    if (!toast) {
      toast = document.createElement('div');
      toast.className = 'toast';
      toast.setAttribute('role', 'alert');
      const close = document.createElement('button');
      close.type = 'button';
      close.className = 'secondary';
      close.textContent = 'Dismiss';
      close.addEventListener('click', () => (toast.hidden = true));
      toast.append(document.createElement('span'), close);
      document.body.append(toast);
    }
    toast.firstChild.textContent = `${count} order${count === 1 ? '' : 's'} late: assign a courier by hand.`;
    toast.hidden = false;
    beep();
  }

  let late = Number(region.dataset.late || 0);
  const source = new EventSource(region.dataset.live);
  source.addEventListener('open', () => say(`Live: connected ${clock()} UTC.`));
  source.addEventListener('error', () =>
    say(
      source.readyState === EventSource.CLOSED
        ? 'Live updates stopped: reload the page.'
        : 'Reconnecting…',
    ),
  );
  // The first event at connection may already differ from the page (a change while it loaded): it fetches too.
  source.addEventListener('board', () => void reload());
  // Positions move every few seconds: they only update the map and the ages; anything else the lists show fetches them.
  let listed = null;
  const ages = (data) =>
    data.couriers.every((c) => {
      const t = region.querySelector(`tr[data-courier="${c.id}"] time[data-age]`);
      if (t && c.position_at) t.dateTime = c.position_at;
      return Boolean(t) === Boolean(c.position_at);
    });
  source.addEventListener('dispatch', (event) => {
    const data = JSON.parse(event.data);
    const key = JSON.stringify([
      data.late,
      data.orders,
      data.couriers.map((c) => [c.id, c.name, c.vehicle, c.busy]),
    ]);
    const same = key === listed;
    listed = key;
    document.dispatchEvent(new CustomEvent('dispatch:snapshot', { detail: data }));
    if (data.late > late) alertLate(data.late);
    else if (data.late === 0 && toast) toast.hidden = true;
    late = data.late;
    document.title = `${late ? `(${late} late) ` : ''}${document.title.replace(/^\(\d+ late\) /, '')}`;
    if (same && ages(data)) return void tick();
    void reload();
  });
})();
