// Offer notifications (Web Push): a courier turns them on once per phone; the browser subscribes
// with the server's VAPID key and the subscription is saved for this session, so that a new offer
// rings the phone while the app is in the background or the screen is locked (the service
// worker's push handler shows it). Signing out forgets it on the server; signing in again sends it
// again from here.
(() => {
  const root = document.getElementById('app');
  const key = root?.dataset.pushKey;
  const button = document.getElementById('push');
  const status = document.getElementById('push-status');
  if (!key || !button || !status) return;
  if (
    !('serviceWorker' in navigator) ||
    !('PushManager' in window) ||
    !('Notification' in window)
  ) {
    status.textContent =
      'This browser cannot show offer notifications: keep the app open to see offers.';
    return;
  }
  button.hidden = false;

  const b64url = (bytes) =>
    btoa(String.fromCharCode(...new Uint8Array(bytes)))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  const bytesOf = (text) =>
    Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  const send = (method, body) =>
    fetch('/courier/push-subscription', {
      method,
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', 'x-csrf-token': root.dataset.csrf },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  function show(on) {
    button.setAttribute('aria-pressed', on ? 'true' : 'false');
    button.textContent = on ? 'Offer notifications: on' : 'Offer notifications: off';
    status.textContent = on
      ? 'New offers ring this phone even with the app in the background. Tap to turn off.'
      : 'Tap to hear of new offers with the screen locked.';
  }

  async function save(subscription) {
    const answer = await send('POST', subscription.toJSON());
    if (answer.ok) return show(true);
    const body = await answer.json().catch(() => ({}));
    status.textContent = body.error || 'Could not turn offer notifications on: try again.';
  }

  async function turnOn() {
    if ((await Notification.requestPermission()) !== 'granted') {
      status.textContent =
        'Notifications are blocked for this app: allow them in the browser’s site settings, then tap again.';
      return;
    }
    const registration = await navigator.serviceWorker.ready;
    let subscription = await registration.pushManager.getSubscription();
    // One made with another key (the server's keys changed) is refused by the push service.
    const madeWith = subscription?.options.applicationServerKey;
    if (subscription && (!madeWith || b64url(madeWith) !== key)) {
      await subscription.unsubscribe();
      subscription = null;
    }
    subscription ??= await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: bytesOf(key),
    });
    await save(subscription);
  }

  async function turnOff() {
    const registration = await navigator.serviceWorker.ready;
    await send('DELETE');
    await (await registration.pushManager.getSubscription())?.unsubscribe();
    show(false);
  }

  button.addEventListener('click', () => {
    const on = button.getAttribute('aria-pressed') === 'true';
    (on ? turnOff() : turnOn()).catch(() => {
      status.textContent =
        'Could not change offer notifications (is the phone online?): try again.';
    });
  });

  // A subscription this browser already has is sent again: this may be a new session.
  show(false);
  if (Notification.permission === 'granted')
    navigator.serviceWorker.ready
      .then((r) => r.pushManager.getSubscription())
      .then((s) => s && save(s))
      .catch(() => {});
})();
