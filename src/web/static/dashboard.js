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
