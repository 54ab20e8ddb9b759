// "Your papers" in the driver app (src/pages/driver-papers.ts): a renewed licence, a changed
// vehicle or a new phone, sent for staff to review, and what was sent with where it stands. Part
// of the driver app's script (driver-app.ts), with its session.
import { $, $form, $input, $select, el, fileBase64, replyJson, say, sayError, type Api, type Problem } from './dom.js';
import { londonTime } from './format.js';
import { paperLabel } from './problems.js';

const PAPER_KIND: Record<string, string> = {
  licences: 'Renewed licence',
  vehicle: 'Vehicle change',
  phone: 'New phone number',
};
const PAPER_STATUS: Record<string, string> = {
  pending: 'Waiting for review',
  approved: 'Approved',
  refused: 'Not approved',
};

interface Change {
  kind: string;
  status: string;
  summary: string;
  reason: string | null;
  submitted_at: string;
}

interface Upload {
  content_type: string;
  data_base64: string;
}

export interface PapersSession {
  api: Api;
  token: () => string | null;
  signedOut: () => void;
}

function paperErrors(lines: string[]): void {
  const box = $('papers-errors');
  box.replaceChildren(...lines.map((t) => el('li', t)));
  box.hidden = lines.length === 0;
  if (lines.length) box.focus();
}

async function readUpload(file: File): Promise<Upload> {
  return { content_type: file.type, data_base64: await fileBase64(file, 'That file could not be read.') };
}

/** Wires the papers' forms; returns the loader of what was sent. */
export function driverPapers(session: PapersSession): () => Promise<void> {
  // Its own calls, to show every field's problem (the app's api keeps only the summary).
  const papersSend = async <T>(path: string, body: unknown): Promise<T> => {
    const res = await fetch(path, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        authorization: `Bearer ${session.token() ?? ''}`,
      },
      body: JSON.stringify(body),
    });
    if (res.status === 401) {
      session.signedOut();
      throw new Error('Your session has ended. Sign in again.');
    }
    const reply = await replyJson<T & Problem>(res);
    if (res.ok) {
      paperErrors([]);
      return reply as T;
    }
    paperErrors((reply?.errors ?? []).map((e) => `${paperLabel(e.field)} ${e.message}`));
    throw new Error(reply?.detail || 'Something went wrong. Please try again.');
  };

  const refreshPapers = async (): Promise<void> => {
    const [me, mine] = await Promise.all([
      session.api.json<{ licence_notice: string | null }>('GET', '/api/driver/me'),
      session.api.json<{ changes: Change[] }>('GET', '/api/driver/changes'),
    ]);
    $('licence-notice').textContent = me.licence_notice || '';
    $('licence-notice').hidden = !me.licence_notice;
    $('papers-changes').replaceChildren(
      ...mine.changes.map((c) => {
        const item = el('div', undefined, 'paper-change');
        item.dataset.status = c.status;
        item.append(el('h3', `${PAPER_KIND[c.kind]}: ${PAPER_STATUS[c.status] || c.status}`), el('p', c.summary));
        if (c.status === 'refused' && c.reason) item.append(el('p', `Why: ${c.reason}`));
        item.append(el('p', `Sent ${londonTime(c.submitted_at)}`, 'hint'));
        return item;
      }),
    );
    $('no-papers-changes').hidden = mine.changes.length > 0;
  };

  const papersSubmit = (form: HTMLFormElement, send: () => Promise<{ message: string }>) =>
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const submit = form.querySelector<HTMLButtonElement>('button[type=submit]')!;
      submit.disabled = true;
      send()
        .then(async (r) => {
          say(r.message, true);
          form.reset();
          await refreshPapers();
        })
        .catch(sayError)
        .finally(() => {
          submit.disabled = false;
        });
    });

  papersSubmit($form('licence-change-form'), async () => {
    const body: Partial<Record<'driver_licence' | 'vehicle_licence', { expires: string; document: Upload }>> = {};
    const missing: string[] = [];
    for (const [key, prefix, words] of [
      ['driver_licence', 'dl', 'Driver licence'],
      ['vehicle_licence', 'vl', 'Vehicle licence'],
    ] as const) {
      const expires = $input(`${prefix}-expires`).value;
      const file = $input(`${prefix}-file`).files?.[0];
      if (!expires && !file) continue;
      if (!expires || !file) {
        missing.push(`${words}: give both the new expiry date and a photo or scan of it.`);
        continue;
      }
      body[key] = { expires, document: await readUpload(file) };
    }
    if (!missing.length && !body.driver_licence && !body.vehicle_licence) {
      missing.push('Give the new expiry date and a photo or scan of the driver licence, the vehicle licence, or both.');
    }
    if (missing.length) {
      paperErrors(missing);
      throw new Error('Please check the renewed licence.');
    }
    return papersSend('/api/driver/changes/licences', body);
  });
  papersSubmit($form('vehicle-change-form'), () =>
    papersSend('/api/driver/changes/vehicle', {
      vehicle_registration: $input('vc-registration').value,
      vehicle_colour: $input('vc-colour').value.trim() || null,
      vehicle_type: $select('vc-type').value,
      seats: Number($input('vc-seats').value),
      wheelchair_accessible: $input('vc-wheelchair').checked,
    }),
  );
  let newPhone = '';
  papersSubmit($form('phone-change-form'), async () => {
    newPhone = $input('pc-phone').value;
    const r = await papersSend<{ phone: string }>('/api/driver/changes/phone/code', { phone: newPhone });
    $('phone-code-form').hidden = false;
    $input('pc-code').focus();
    return { message: `We have texted a code to ${r.phone}. Enter it below.` };
  });
  papersSubmit($form('phone-code-form'), async () => {
    const r = await papersSend<{ message: string }>('/api/driver/changes/phone', {
      phone: newPhone,
      code: $input('pc-code').value,
    });
    $('phone-code-form').hidden = true;
    return r;
  });
  setInterval(() => {
    if (session.token() && !document.hidden) refreshPapers().catch(() => undefined);
  }, 30000);
  return refreshPapers;
}
