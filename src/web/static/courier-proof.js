// Proof of delivery without the code: a photo (downscaled here, so that a patchy connection carries
// little) and an optional signature drawn on a canvas. Both go to courier.js's queue ahead of the
// 'delivered' action, so offline they wait on the phone and are sent first when the connection returns.
(() => {
  const root = document.getElementById('app');
  const form = document.getElementById('proof-form');
  if (!root || !form) return;
  const order = form.closest('.job').dataset.order;
  const photoInput = document.getElementById('proof-photo');
  const preview = document.getElementById('proof-preview');
  const status = document.getElementById('proof-status');
  const pad = document.getElementById('signature');
  const clear = document.getElementById('signature-clear');
  const TYPES = new Set(['image/jpeg', 'image/png', 'image/webp']);
  const LONGEST_SIDE = 1600;
  const MAX_BYTES = Number(form.dataset.maxBytes);
  let photo = null; // { type, data } once a picture is taken
  let signed = false;

  const base64 = async (blob) => {
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000)
      s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(s);
  };
  const toBlob = (canvas, type, quality) =>
    new Promise((resolve) => canvas.toBlob(resolve, type, quality));

  // The picture redrawn at most 1600 px on its longest side as a JPEG; shown in the preview canvas.
  async function downscale(file) {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, LONGEST_SIDE / Math.max(bitmap.width, bitmap.height));
    preview.width = Math.round(bitmap.width * scale);
    preview.height = Math.round(bitmap.height * scale);
    preview.getContext('2d').drawImage(bitmap, 0, 0, preview.width, preview.height);
    bitmap.close();
    preview.hidden = false;
    return toBlob(preview, 'image/jpeg', 0.8);
  }

  photoInput.addEventListener('change', async () => {
    photo = null;
    // Another photo after a refused one may be sent again.
    form.querySelector('button[type=submit]').disabled = false;
    preview.hidden = true;
    const file = photoInput.files[0];
    if (!file) return;
    if (!TYPES.has(file.type)) {
      status.textContent = 'Take a JPEG, PNG or WebP picture.';
      return;
    }
    status.textContent = 'Preparing the photo…';
    try {
      const blob = (await downscale(file).catch(() => null)) || file;
      if (blob.size > MAX_BYTES) throw new Error('too large');
      photo = { type: blob.type, data: await base64(blob) };
      status.textContent = `Photo ready (${Math.ceil(blob.size / 1024)} KB).`;
    } catch {
      status.textContent = 'This picture cannot be used: take another one.';
    }
  });

  // The signature pad: pointer events (finger, pen or mouse), drawn in the canvas's own pixels.
  const ink = pad.getContext('2d');
  ink.lineWidth = 3;
  ink.lineCap = 'round';
  ink.lineJoin = 'round';
  let drawing = false;
  const at = (e) => {
    const r = pad.getBoundingClientRect();
    return [
      ((e.clientX - r.left) * pad.width) / r.width,
      ((e.clientY - r.top) * pad.height) / r.height,
    ];
  };
  pad.addEventListener('pointerdown', (e) => {
    drawing = true;
    pad.setPointerCapture(e.pointerId);
    ink.beginPath();
    ink.moveTo(...at(e));
    e.preventDefault();
  });
  pad.addEventListener('pointermove', (e) => {
    if (!drawing) return;
    ink.lineTo(...at(e));
    ink.stroke();
    signed = true;
  });
  const stop = () => {
    drawing = false;
  };
  pad.addEventListener('pointerup', stop);
  pad.addEventListener('pointercancel', stop);
  clear.addEventListener('click', () => {
    ink.clearRect(0, 0, pad.width, pad.height);
    signed = false;
  });

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!photo) {
      status.textContent = 'Take a photo of the delivery first.';
      photoInput.focus();
      return;
    }
    const entries = [{ kind: 'proof', payload: { order_id: order, kind: 'photo', ...photo } }];
    if (signed)
      entries.push({
        kind: 'proof',
        payload: {
          order_id: order,
          kind: 'signature',
          type: 'image/png',
          data: await base64(await toBlob(pad, 'image/png')),
        },
      });
    entries.push({ kind: 'delivered', payload: { order_id: order } });
    // courier.js keeps them (or cancels the event when the phone has no room for them).
    if (
      !root.dispatchEvent(new CustomEvent('courier-queue', { detail: entries, cancelable: true }))
    )
      return;
    form.querySelector('button[type=submit]').disabled = true;
    status.textContent = 'Proof kept: it is sent before the delivery.';
  });
})();
