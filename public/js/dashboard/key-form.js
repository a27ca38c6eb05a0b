// @module public/js/dashboard/key-form — the new-key form. The date field
// shows only when "on a date" is chosen. The form is sent once: a second
// click while the first send is under way would ask for a second key, and
// the page answering it would show that key's secret rather than the
// first's (the server also refuses a form id it has seen, see
// routes/keys.ts). Coming back to the page with the browser's Back button
// allows sending again.

export function enableKeyForm(root = document) {
  const forms = [...root.querySelectorAll('form[data-submit-once]')];
  for (const form of forms) {
    form.addEventListener('submit', (event) => {
      if (event.defaultPrevented) return;
      if (form.dataset.sent) event.preventDefault();
      else form.dataset.sent = 'true';
    });
  }
  if (forms.length) window.addEventListener('pageshow', () => forms.forEach((form) => delete form.dataset.sent));

  for (const field of root.querySelectorAll('[data-only-for-expires]')) {
    const form = field.closest('form');
    if (!form) continue;
    const radios = [...form.querySelectorAll('input[type="radio"][name="expires"]')];
    const input = field.querySelector('input');
    const update = () => {
      field.hidden = radios.find((r) => r.checked)?.value !== field.dataset.onlyForExpires;
    };
    for (const radio of radios) {
      radio.addEventListener('change', () => {
        update();
        if (!field.hidden) input?.focus();
      });
    }
    update();
  }
}
