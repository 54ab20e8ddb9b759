// "Papers to review" on /ops (src/pages/ops-driver-changes.ts): what drivers sent from the app (a
// renewed licence, a changed vehicle, a new phone) beside what is on record, the documents to
// download, and approve or refuse with a reason. Part of the ops script (ops.ts), with its API.
import { $, button, download, el, label, say, sayError, type Api } from './dom.js';
import { isoMinute, recordText } from './format.js';

type Kind = 'licences' | 'vehicle' | 'phone';

interface Change {
  id: string;
  kind: Kind;
  driver_id: string;
  driver_name: string;
  driver_status: string;
  driver_phone: string;
  submitted_at: string;
  details: Record<string, unknown>;
  current: Record<string, unknown>;
  documents: { id: string; kind: string }[];
}

const CHANGE_KIND: Record<Kind, string> = {
  licences: 'Renewed licence',
  vehicle: 'Vehicle change',
  phone: 'New phone number',
};
const CHANGE_FIELDS: Record<string, string> = {
  driverLicenceExpires: 'Driver licence expires',
  vehicleLicenceExpires: 'Vehicle licence expires',
  vehicleRegistration: 'Registration',
  vehicleColour: 'Colour',
  vehicleType: 'Class',
  seats: 'Seats',
  wheelchairAccessible: 'Wheelchair accessible',
  phone: 'Phone',
};

/** Draws and redraws #changes; returns its loader. */
export function opsDriverChanges(api: Api): () => Promise<void> {
  const changeCard = (c: Change): HTMLElement => {
    const card = el('article', undefined, 'card');
    card.dataset.change = c.id;
    card.append(el('h3', `${CHANGE_KIND[c.kind]} from ${c.driver_name} (${c.driver_id})`));
    card.append(
      el('p', `Sent ${isoMinute(c.submitted_at)} UTC; driver ${c.driver_status}, phone ${c.driver_phone}`, 'hint'),
    );
    const table = el('table');
    const head = el('tr');
    for (const h of ['', 'On record', 'Sent']) {
      const th = el('th', h);
      th.scope = 'col';
      head.append(th);
    }
    const thead = el('thead');
    thead.append(head);
    const body = el('tbody');
    for (const k of Object.keys(c.details)) {
      if (c.kind === 'licences' && c.details[k] === null) continue;
      const tr = el('tr');
      const th = el('th', CHANGE_FIELDS[k] || k);
      th.scope = 'row';
      tr.append(th, el('td', recordText(c.current[k])), el('td', recordText(c.details[k])));
      body.append(tr);
    }
    table.append(thead, body);
    card.append(table);
    for (const doc of c.documents) {
      const b = button(`Download ${doc.kind.replace(/_/g, ' ')}`, 'decline');
      b.addEventListener('click', () => {
        api
          .send('GET', `/api/ops/driver-changes/${c.id}/documents/${doc.id}`)
          .then((res) => download(res, `${c.driver_id}-renewed-${doc.kind}`))
          .catch(sayError);
      });
      card.append(b);
    }
    const reasonId = `change-reason-${c.id}`;
    const reason = el('input');
    reason.type = 'text';
    reason.id = reasonId;
    reason.maxLength = 500;
    card.append(label('Reason (required to refuse; the driver is told it)', reasonId), reason);
    const actions = el('div', undefined, 'actions');
    for (const [action, text] of [
      ['approve', 'Approve'],
      ['refuse', 'Refuse'],
    ] as const) {
      const b = button(text, action === 'refuse' ? 'decline' : undefined);
      b.addEventListener('click', () => {
        b.disabled = true;
        api
          .send('POST', `/api/ops/driver-changes/${c.id}/decision`, { action, reason: reason.value.trim() || null })
          .then(async () => {
            const done = action === 'approve' ? 'approved' : 'refused';
            say(`${CHANGE_KIND[c.kind]} from ${c.driver_name}: ${done}, and the driver told.`, true);
            await loadChanges();
          })
          .catch(sayError)
          .finally(() => {
            b.disabled = false;
          });
      });
      actions.append(b);
    }
    card.append(actions);
    card.dataset.sig = JSON.stringify(c);
    return card;
  };

  const loadChanges = async (): Promise<void> => {
    const list = await api.json<{ changes: Change[] }>('GET', '/api/ops/driver-changes');
    const box = $('changes');
    const old = new Map([...box.children].map((x) => [(x as HTMLElement).dataset.change, x]));
    box.replaceChildren(
      ...list.changes.map((c) => {
        const o = old.get(c.id);
        return o && (o as HTMLElement).dataset.sig === JSON.stringify(c) ? o : changeCard(c);
      }),
    );
    $('no-changes').hidden = list.changes.length > 0;
  };
  return loadChanges;
}
