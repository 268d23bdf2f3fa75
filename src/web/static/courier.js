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
  const outcomeLine = document.getElementById('outcome');
  const OUTCOME_KEY = `courier-outcome-${root.dataset.courier}`;
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

  const JOB_KINDS = new Set([
    'accept',
    'decline',
    'arrived_at_pickup',
    'picked_up',
    'arrived',
    'delivered',
    'could_not_deliver',
    'returned',
  ]);
  let note = '';
  function showSync() {
    const waiting = load().length;
    if (note) syncLine.textContent = note;
    else if (waiting === 0) syncLine.textContent = 'All sent.';
    else
      syncLine.textContent = `${waiting} action${waiting === 1 ? '' : 's'} waiting to be sent${navigator.onLine ? '…' : ' (offline: they will be sent when the connection returns).'}`;
  }

  // What became of the courier's last job action: kept for this tab (sessionStorage), so the reload
  // that shows the job's next step does not wipe it, and a later position report does not either.
  function setOutcome(text, refused) {
    if (text) sessionStorage.setItem(OUTCOME_KEY, JSON.stringify({ text, refused }));
    else sessionStorage.removeItem(OUTCOME_KEY);
    showOutcome();
  }
  function showOutcome() {
    let o = null;
    try {
      o = JSON.parse(sessionStorage.getItem(OUTCOME_KEY) || 'null');
    } catch {}
    outcomeLine.textContent = o ? o.text : '';
    outcomeLine.hidden = !o;
    outcomeLine.classList.toggle('refused', Boolean(o?.refused));
  }

  const DONE = {
    accept: 'Job accepted.',
    decline: 'Offer declined.',
    arrived_at_pickup: 'At the pickup: recorded.',
    picked_up: 'Picked up: recorded.',
    arrived: 'At the drop-off: recorded.',
    delivered: 'Delivered: recorded.',
    returned: 'Returned to the pickup: recorded. The job is over.',
  };
  // A could-not-deliver's outcome depends on the attempts left: the courier is told which one it was.
  function appliedText(kind, stage) {
    if (kind !== 'could_not_deliver') return DONE[kind];
    if (stage === 'picked_up')
      return 'Could not deliver: recorded as a failed attempt. The order goes out again: tap "I am at the drop-off" when you are back at the door.';
    if (stage === 'returning')
      return 'Could not deliver: recorded. No attempt is left: take the goods back to the pickup.';
    // A replay carries the first answer's stage, but one recorded before migration 055 may have none:
    // the reloaded page shows where the job is.
    return stage ? 'Could not deliver: recorded. The job is over.' : 'Could not deliver: recorded.';
  }

  function enqueue(kind, payload) {
    // A new tap on the job replaces what was said of the last one.
    if (JOB_KINDS.has(kind)) setOutcome('');
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
    return res.status < 500
      ? { result: 'refused', reason: body.error || 'the picture was not accepted.' }
      : undefined;
  }

  // What to do after a refusal. A photo or signature refused for the courier's distance or position
  // already says what to do (go to the drop-off, let the location through): nothing is added.
  const SAYS_WHAT_TO_DO = new Set(['TOO_FAR_FROM_DROPOFF', 'POSITION_NOT_FRESH']);
  function nextStep(action, code) {
    if (SAYS_WHAT_TO_DO.has(code)) return '';
    return action.kind === 'proof'
      ? 'Take another picture, or enter the code.'
      : 'The screen shows the job as it is now: check it, then try again or call operations.';
  }

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
        note = '';
        // A refusal stays on screen, with what to do, until the courier acts on the job again: a later
        // position report or duty change going through does not clear it (it used to, leaving "All sent.").
        if (answer.result === 'refused')
          setOutcome(`Not done: ${answer.reason} ${nextStep(action, answer.code)}`.trim(), true);
        else if (JOB_KINDS.has(action.kind))
          setOutcome(appliedText(action.kind, answer.stage), false);
        // A refused photo leaves its delivery unproved: the delivery queued behind it waits for another photo.
        const unproved =
          answer.result === 'refused' && action.kind === 'proof' && action.payload.kind === 'photo';
        const behind = (a) =>
          unproved &&
          a.kind === 'delivered' &&
          a.payload.order_id === action.payload.order_id &&
          !a.payload.code;
        save(load().filter((a) => a.id !== action.id && !behind(a)));
        // Any answer to a job action (a replay the server had already applied included) means the
        // screen may be out of date: it is reloaded once the queue is empty.
        if (JOB_KINDS.has(action.kind)) jobChanged = true;
      }
    } finally {
      flushing = false;
      // Everything sent: the server's duty is the phone's again (an operator may change it).
      if (load().length === 0) localStorage.removeItem(DUTY_KEY);
      showSync();
      // A job action was answered: the page shows the job as it is now (the outcome line survives the reload).
      if (jobChanged && load().length === 0 && !note) reloadWhenFree();
    }
  }

  // Never reload under the courier's fingers: a reload while they fill in a job form (a reason chosen,
  // a code typed) threw their input away and their next tap landed on an empty form, so nothing was
  // queued (issue 28's lost "Could not deliver"). The reload waits until the form is sent or left empty.
  let reloadTimer = null;
  function busyInForm() {
    const fields = document.querySelectorAll('.job form select, .job form input:not([type=file])');
    return [...fields].some((f) => f.value.trim() !== '' || f === document.activeElement);
  }
  function reloadWhenFree() {
    clearTimeout(reloadTimer);
    if (busyInForm()) reloadTimer = setTimeout(reloadWhenFree, 1000);
    // A form sent meanwhile is in the queue: the reload waits for its answer (flush calls again).
    else if (load().length > 0) jobChanged = true;
    else location.reload();
  }

  // Duty: the courier's last choice on this phone wins until the server has it.
  let onDuty =
    localStorage.getItem(DUTY_KEY) === null
      ? root.dataset.onDuty === 'true'
      : localStorage.getItem(DUTY_KEY) === 'true';
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
      // A batch's pickup steps name each of its orders: one action each, in the route's order.
      b.addEventListener('click', () => {
        for (const id of (b.dataset.orders || order).split(' '))
          enqueue(b.dataset.kind, { order_id: id });
      });
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
    if (reason && why) {
      const needNote = () => (why.required = reason.value === 'other');
      reason.addEventListener('change', needNote);
      needNote(); // a reason kept from before a reload (courier-draft.js)
    }
  }

  // Other scripts of the app (the proof of delivery) queue their entries here, in order, all or none.
  root.addEventListener('courier-queue', (e) => {
    const queue = load();
    for (const { kind, payload } of e.detail)
      queue.push({ id: uuid(), kind, at: new Date().toISOString(), payload });
    try {
      save(queue);
    } catch {
      note =
        'This phone has no room to keep the photo: send what is waiting first, then try again.';
      e.preventDefault();
    }
    showSync();
    flush();
  });

  // courier-live.js saw the job change elsewhere (an offer lapsed, an operator assigned one): the page
  // shows it now, or once what is waiting has been sent.
  root.addEventListener('courier-job-changed', () => {
    if (load().length === 0) reloadWhenFree();
    else jobChanged = true;
  });

  window.addEventListener('online', () => {
    showSync();
    flush();
  });
  window.addEventListener('offline', showSync);
  setInterval(flush, 10000);
  showDuty();
  track();
  showOutcome();
  showSync();
  flush();
  if ('serviceWorker' in navigator)
    navigator.serviceWorker.register('/courier/sw.js', { scope: '/courier/' }).catch(() => {});
})();
