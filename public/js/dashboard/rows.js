// @module public/js/dashboard/rows — "Add a row" for lists of rows in a
// form (a meeting's query parameters): <div data-rows> holds the rows,
// <template data-row-template> one empty row whose "{n}" becomes the
// row's number, <button data-add-row hidden> appears once this runs.
// Without JavaScript the server's empty rows are there to fill.

export function enableRowAdding(root = document) {
  for (const button of root.querySelectorAll('button[data-add-row]')) {
    const group = button.closest('fieldset, form');
    const rows = group?.querySelector('[data-rows]');
    const template = group?.querySelector('template[data-row-template]');
    if (!rows || !template) continue;
    button.hidden = false;
    button.addEventListener('click', () => {
      const n = String(rows.children.length + 1);
      const row = template.content.firstElementChild?.cloneNode(true);
      if (!row) return;
      for (const element of [row, ...row.querySelectorAll('*')]) {
        for (const attribute of ['id', 'for', 'aria-describedby']) {
          const value = element.getAttribute(attribute);
          if (value) element.setAttribute(attribute, value.replaceAll('{n}', n));
        }
        if (element.childElementCount === 0 && element.textContent.includes('{n}')) element.textContent = element.textContent.replaceAll('{n}', n);
      }
      rows.append(row);
      row.querySelector('input')?.focus();
    });
  }
}
