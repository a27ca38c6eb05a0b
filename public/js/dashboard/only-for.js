// @module public/js/dashboard/only-for — a control that applies to one
// choice of a radio group only (a meeting's "never closes" is for type
// MEETING): <input data-only-for-type="MEETING"> is disabled and cleared
// when another type is chosen. A page that comes back refused keeps the
// box as it was sent, beside its error, until the type changes. The
// server refuses the combination anyway.

export function enableOnlyFor(root = document) {
  for (const control of root.querySelectorAll('[data-only-for-type]')) {
    const form = control.form;
    if (!form) continue;
    const radios = [...form.querySelectorAll('input[type="radio"][name="type"]')];
    const update = (changed) => {
      const chosen = radios.find((r) => r.checked)?.value;
      const applies = chosen === undefined || chosen === control.dataset.onlyForType;
      if (!changed && !applies && control.checked) return;
      control.disabled = !applies;
      if (!applies) control.checked = false;
    };
    for (const radio of radios) radio.addEventListener('change', () => update(true));
    update(false);
  }
}
