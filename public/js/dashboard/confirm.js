// @module public/js/dashboard/confirm — forms that destroy something ask
// first: <form data-confirm="Revoke this key?">. The server does not rely on
// it: a form sent without the question is still checked like any other.

export function enableConfirmations(root = document) {
  for (const form of root.querySelectorAll('form[data-confirm]')) {
    form.addEventListener('submit', (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  }
}
