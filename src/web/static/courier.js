// The courier app's offline action queue: every action gets its own id, is kept in localStorage, and is
// POSTed in order to /courier/actions; offline, actions wait and are replayed when the connection
// returns. The server applies each id at most once, so a replay is harmless.
(() => {
  const root = document.getElementById('app');
  if (!root) return;
  const KEY = `courier-queue-${root.dataset.courier}`;
  const DUTY_KEY = `courier-duty-${root.dataset.courier}`;
  const csrf = root.dataset.csrf;
  const dutyButton = document.getElementById('duty');
  const dutyHint = document.getElementById('duty-hint');
  const positionLine = document.getElementById('position');
  const syncLine = document.getElementById('sync');
  const POSITION_EVERY_MS = 15000;

  const load = () => {
    try {
      return JSON.parse(localStorage.getItem(KEY) || '[]');
    } catch {
      return [];
    }
  };
  const save = (queue) => localStorage.setItem(KEY, JSON.stringify(queue));

  function uuid() {
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  let note = '';
  function showSync() {
    const waiting = load().length;
    if (note) syncLine.textContent = note;
    else if (waiting === 0) syncLine.textContent = 'All sent.';
    else syncLine.textContent = `${waiting} action${waiting === 1 ? '' : 's'} waiting to be sent${navigator.onLine ? '…' : ' (offline: they will be sent when the connection returns).'}`;
  }

  function enqueue(kind, payload) {
    const queue = load();
    queue.push({ id: uuid(), kind, at: new Date().toISOString(), payload });
    save(queue);
    showSync();
    flush();
  }

  // One queued entry to the server, answered like an action ({ result, reason }); 'signed-out'; or
  // undefined to try again later. A proof (photo or signature, kept here as base64) goes to its upload
  // endpoint with its queue id as the client id, so a replay is stored once.
  async function send(action) {
    if (action.kind !== 'proof') {
      const res = await fetch('/courier/actions', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify(action),
      });
      if (res.status === 401 || res.status === 403) return 'signed-out';
      return res.ok ? res.json() : undefined;
    }
    const p = action.payload;
    const query = new URLSearchParams({ kind: p.kind, client_id: action.id, taken_at: action.at });
    const res = await fetch(`/courier/jobs/${encodeURIComponent(p.order_id)}/proofs?${query}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': p.type, 'x-csrf-token': csrf },
      body: Uint8Array.from(atob(p.data), (c) => c.charCodeAt(0)),
    });
    const body = await res.json().catch(() => ({}));
    if (res.status === 401 || body.code === 'CSRF_FAILED') return 'signed-out';
    if (res.ok) return { result: 'applied' };
    // Refused for good (not an image, too large, not this courier's job); a server fault is retried.
    return res.status < 500 ? { result: 'refused', reason: body.error || 'the picture was not accepted.' } : undefined;
  }

  const JOB_KINDS = new Set(['accept', 'decline', 'arrived_at_pickup', 'picked_up', 'arrived', 'delivered', 'could_not_deliver', 'returned']);
  let jobChanged = false;
  let flushing = false;
  async function flush() {
    if (flushing) return;
    flushing = true;
    try {
      for (;;) {
        const queue = load();
        if (queue.length === 0) break;
        const action = queue[0];
        let answer;
        try {
          answer = await send(action);
        } catch {
          break;
        }
        if (answer === 'signed-out') {
          note = 'You are signed out: sign in again to send what is waiting.';
          break;
        }
        if (!answer) break;
        if (answer.result === 'pending') break;
        if (answer.result === 'refused') note = `Not done: ${answer.reason}`;
        else note = '';
        // A refused photo leaves its delivery unproved: the delivery queued behind it waits for another photo.
        const unproved = answer.result === 'refused' && action.kind === 'proof' && action.payload.kind === 'photo';
        const behind = (a) => unproved && a.kind === 'delivered' && a.payload.order_id === action.payload.order_id && !a.payload.code;
        save(load().filter((a) => a.id !== action.id && !behind(a)));
        // A replay the server had already applied (its first answer was lost) changed the job too.
        if ((answer.result === 'applied' || answer.result === 'already_applied') && JOB_KINDS.has(action.kind)) jobChanged = true;
      }
    } finally {
      flushing = false;
      // Everything sent: the server's duty is the phone's again (an operator may change it).
      if (load().length === 0) localStorage.removeItem(DUTY_KEY);
      showSync();
      // A job action went through: the page shows the job's next step (the reason of a refusal stays on screen).
      if (jobChanged && load().length === 0 && !note) location.reload();
    }
  }

  // Duty: the courier's last choice on this phone wins until the server has it.
  let onDuty = localStorage.getItem(DUTY_KEY) === null ? root.dataset.onDuty === 'true' : localStorage.getItem(DUTY_KEY) === 'true';
  function showDuty() {
    dutyButton.setAttribute('aria-pressed', String(onDuty));
    dutyButton.textContent = onDuty ? 'On duty' : 'Off duty';
    dutyHint.textContent = `Tap to go ${onDuty ? 'off' : 'on'} duty.`;
  }

  let watch = null;
  let lastSent = 0;
  function track() {
    if (onDuty && watch === null && 'geolocation' in navigator) {
      // Going on duty reports the position at once.
      lastSent = 0;
      watch = navigator.geolocation.watchPosition(
        (pos) => {
          const now = Date.now();
          positionLine.textContent = `Position taken at ${new Date(now).toLocaleTimeString()}.`;
          if (now - lastSent < POSITION_EVERY_MS) return;
          lastSent = now;
          enqueue('position', { lat: pos.coords.latitude, lng: pos.coords.longitude });
        },
        () => {
          positionLine.textContent = 'Your position is not available: allow location for this app.';
        },
        { enableHighAccuracy: true, maximumAge: 10000, timeout: 30000 },
      );
    } else if (!onDuty && watch !== null) {
      navigator.geolocation.clearWatch(watch);
      watch = null;
      positionLine.textContent = 'Your position is shared only while you are on duty.';
    }
  }

  dutyButton.addEventListener('click', () => {
    onDuty = !onDuty;
    localStorage.setItem(DUTY_KEY, String(onDuty));
    showDuty();
    enqueue('duty', { on_duty: onDuty });
    track();
  });

  // The job screen: its buttons and forms queue the job's actions like any other.
  const job = document.querySelector('.job');
  if (job) {
    const order = job.dataset.order;
    job.querySelectorAll('button[data-kind]').forEach((b) => {
      b.addEventListener('click', () => enqueue(b.dataset.kind, { order_id: order }));
    });
    job.querySelectorAll('form[data-kind]').forEach((f) => {
      f.addEventListener('submit', (e) => {
        e.preventDefault();
        // Every named field that has a value goes in the payload (a could-not-deliver's reason and note).
        const payload = { order_id: order };
        f.querySelectorAll('input[name], select[name]').forEach((field) => {
          if (field.type !== 'file' && field.value.trim()) payload[field.name] = field.value.trim();
        });
        enqueue(f.dataset.kind, payload);
        f.reset();
      });
    });
    // "Other" needs a note saying what happened.
    const reason = job.querySelector('#reason');
    const why = job.querySelector('#note');
    if (reason && why) reason.addEventListener('change', () => (why.required = reason.value === 'other'));
  }

  // Other scripts of the app (the proof of delivery) queue their entries here, in order, all or none.
  root.addEventListener('courier-queue', (e) => {
    const queue = load();
    for (const { kind, payload } of e.detail) queue.push({ id: uuid(), kind, at: new Date().toISOString(), payload });
    try {
      save(queue);
    } catch {
      note = 'This phone has no room to keep the photo: send what is waiting first, then try again.';
      e.preventDefault();
    }
    showSync();
    flush();
  });

  window.addEventListener('online', () => {
    showSync();
    flush();
  });
  window.addEventListener('offline', showSync);
  setInterval(flush, 10000);
  showDuty();
  track();
  showSync();
  flush();
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('/courier/sw.js', { scope: '/courier/' }).catch(() => {});
})();
