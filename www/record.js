// "Record a run": the copy buttons of the command lines. Each button copies the text of the
// element its data-copy names; where the Clipboard API is refused (an http:// host that is not
// localhost), the command is selected instead so that Ctrl+C copies it.
for (const button of document.querySelectorAll('#record button.copy')) {
  button.addEventListener('click', async () => {
    const code = document.getElementById(button.dataset.copy);
    if (!code) return;
    try {
      await navigator.clipboard.writeText(code.textContent);
      button.dataset.copied = 'true';
      setTimeout(() => { delete button.dataset.copied; }, 1500);
    } catch {
      const range = document.createRange();
      range.selectNodeContents(code);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
    }
  });
}
