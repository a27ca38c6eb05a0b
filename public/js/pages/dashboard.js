// @module public/js/pages/dashboard — the entry module of every dashboard
// page. Pages work without it (plain forms and links); it adds conveniences:
// copy buttons, confirmations, adding form rows, local times, the new-key
// form, the usage charts. A section's own behaviour is one more
// module under public/js/dashboard/, enabled here.
import { enableConfirmations } from '../dashboard/confirm.js';
import { enableCopyButtons } from '../dashboard/copy.js';
import { enableKeyForm } from '../dashboard/key-form.js';
import { showLocalTimes } from '../dashboard/local-time.js';
import { enableOnlyFor } from '../dashboard/only-for.js';
import { enableRowAdding } from '../dashboard/rows.js';
import { drawUsageCharts } from '../dashboard/usage-charts.js';

enableCopyButtons();
enableConfirmations();
enableRowAdding();
enableOnlyFor();
showLocalTimes();
enableKeyForm();
// The charts' library is fetched only on the usage page; a failure leaves its tables and summaries.
drawUsageCharts().catch((error) => console.error('usage charts', error));
