import { html } from './escape-html.js';

// The ops console's "Papers to review" (issue 24, item 5): what drivers sent from the app (a
// renewed licence, a changed vehicle, a new phone) beside what is on record, the documents to
// download, and approve or refuse with a reason. Its script is part of the ops page's
// (src/pages/browser/ops-driver-changes.ts).

export const opsChangesSection = html`<section aria-labelledby="changes-title">
<h2 id="changes-title">Papers to review</h2>
<p class="hint">Renewed licences, changed vehicles and new phone numbers drivers sent from the app, oldest first.</p>
<p class="hint" id="no-changes">Nothing to review.</p>
<div id="changes" class="cards"></div>
</section>`;
