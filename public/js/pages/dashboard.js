// @module public/js/pages/dashboard — the entry module of every dashboard
// page. Pages work without it (plain forms and links); it adds conveniences:
// copy buttons and confirmations. A section's own behaviour is one more
// module under public/js/dashboard/, enabled here.
import { enableConfirmations } from '../dashboard/confirm.js';
import { enableCopyButtons } from '../dashboard/copy.js';

enableCopyButtons();
enableConfirmations();
