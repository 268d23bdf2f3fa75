// Progressive enhancement only: every page works without this file.
// Copy buttons: <button data-copy="ELEMENT_ID" hidden> copies that element's text.
document.querySelectorAll('button[data-copy]').forEach((button) => {
  if (!navigator.clipboard) return;
  button.hidden = false;
  button.addEventListener('click', async () => {
    const source = document.getElementById(button.dataset.copy);
    if (!source) return;
    try {
      await navigator.clipboard.writeText(source.textContent.trim());
      button.textContent = 'Copied';
    } catch {
      button.textContent = 'Copy failed: select the text';
    }
  });
});

// CSV upload: <input type=file data-read-into="TEXTAREA_ID" data-max-chars="N"> inside a hidden
// [data-csv-file] block is shown, and the chosen file's text is put into the text area (the form
// itself sends text, so without this script the CSV is pasted instead).
document.querySelectorAll('input[type=file][data-read-into]').forEach((input) => {
  const target = document.getElementById(input.dataset.readInto);
  const block = input.closest('[data-csv-file]');
  if (!target || !block || !window.FileReader) return;
  block.hidden = false;
  const note = document.createElement('p');
  note.setAttribute('role', 'status');
  note.className = 'hint';
  block.append(note);
  input.addEventListener('change', async () => {
    const file = input.files?.[0];
    if (!file) return;
    const max = Number(input.dataset.maxChars);
    if (file.size > max * 4) {
      note.textContent = `${file.name} is too large to upload: split it into files of at most 100 orders.`;
      return;
    }
    target.value = await file.text();
    note.textContent =
      target.value.length > max
        ? `${file.name} is too large to upload: split it into files of at most 100 orders.`
        : `${file.name} read: check the text below, then upload.`;
  });
});

// A choice that decides which fieldset applies shows only that one (without script, both show).
document.querySelectorAll('select[data-shows-fieldset]').forEach((select) => {
  const sets = select.form.querySelectorAll('fieldset[data-for]');
  const show = () =>
    sets.forEach((set) => {
      set.hidden = set.dataset.for !== select.value;
    });
  select.addEventListener('change', show);
  show();
});

// A page that follows work done in the background: <section data-progress-url="URL"> asks URL (JSON)
// every second and puts each answered field into its [data-field=NAME] element (and a <progress
// data-field=NAME> gets it as value), until the answer's status is "done". Without script, reload.
document.querySelectorAll('[data-progress-url]').forEach((section) => {
  const put = (body) => {
    section.querySelectorAll('[data-field]').forEach((el) => {
      const value = body[el.dataset.field];
      if (value === undefined) return;
      if (el.tagName === 'PROGRESS') el.value = Number(value);
      else el.textContent = String(value);
    });
    if (body.max !== undefined)
      section.querySelectorAll('progress').forEach((bar) => {
        bar.max = Math.max(1, Number(body.max));
      });
  };
  const poll = async () => {
    try {
      const res = await fetch(section.dataset.progressUrl, {
        headers: { accept: 'application/json' },
        credentials: 'same-origin',
      });
      if (!res.ok) return setTimeout(poll, 5000);
      const body = await res.json();
      put(body);
      if (body.status !== 'done') setTimeout(poll, 1000);
    } catch {
      setTimeout(poll, 5000);
    }
  };
  setTimeout(poll, 1000);
});
