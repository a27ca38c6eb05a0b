// @module public/js/app — the meeting page's entry under the address its
// shell has always loaded (and the page tests ask for); the page itself
// is pages/meeting.js.
import './pages/meeting.js';
