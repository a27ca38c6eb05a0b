// @module public/js/dashboard/copy — "Copy" buttons: <button data-copy="ID">
// copies the text of the element with that id (a link, a key's secret) and
// says so on the button for a moment. Without the Clipboard API the text is
// selected instead, for the member to copy themselves.

export function enableCopyButtons(root = document) {
  for (const button of root.querySelectorAll('button[data-copy]')) {
    button.addEventListener('click', async () => {
      const source = document.getElementById(button.dataset.copy);
      if (!source) return;
      const text = (source.value ?? source.textContent ?? '').trim();
      const label = button.textContent;
      try {
        await navigator.clipboard.writeText(text);
        button.textContent = button.dataset.copied || label;
        setTimeout(() => (button.textContent = label), 1500);
      } catch {
        const range = document.createRange();
        range.selectNodeContents(source);
        const selection = window.getSelection();
        selection?.removeAllRanges();
        selection?.addRange(range);
      }
    });
  }
}
