// Applying to drive (src/pages/apply-page.ts): licensing details and documents, sent to
// POST /api/drivers/applications with the documents read in the browser. Every problem is shown at
// once, each beside its field in plain words and listed at the top with links.
import { $, $form, fileBase64, replyJson, say as sayOnPage, type Problem } from './dom.js';
import { applicationSentence, formField } from './problems.js';

const form = $form('apply');
const summary = $('form-error');
const maxBytes = Number(form.dataset.maxBytes);
const maxMb = form.dataset.maxMb ?? '';

interface FieldProblem {
  field: string;
  message: string;
}

const say = (text: string, ok = false) => sayOnPage(text, ok, { focus: true });

function clearErrors(): void {
  summary.hidden = true;
  summary.replaceChildren();
  for (const e of form.querySelectorAll('[data-error-for]')) e.textContent = '';
  for (const e of form.querySelectorAll('[aria-invalid]')) e.removeAttribute('aria-invalid');
}

function showProblems(problems: FieldProblem[], detail: string): void {
  const p = document.createElement('p');
  p.textContent = detail;
  summary.append(p);
  const ul = document.createElement('ul');
  for (const e of problems) {
    const name = formField(String(e.field));
    const slot = form.querySelector<HTMLElement>(`[data-error-for="${CSS.escape(name)}"]`);
    const text = slot ? applicationSentence(slot.dataset.label ?? '', String(e.message)) : String(e.message);
    if (slot) slot.textContent = text;
    const input = form.querySelector<HTMLElement>(`[name="${CSS.escape(name)}"]`);
    input?.setAttribute('aria-invalid', 'true');
    const li = document.createElement('li');
    if (input) {
      const a = document.createElement('a');
      a.href = `#${input.id}`;
      a.textContent = text;
      li.append(a);
    } else {
      li.textContent = text;
    }
    ul.append(li);
  }
  if (problems.length > 0) summary.append(ul);
  summary.hidden = false;
  summary.focus();
}

type Control = HTMLInputElement | HTMLSelectElement;

/** What the browser can tell before sending: every required field left empty, all at once. */
function missing(): FieldProblem[] {
  const isFile = (e: Control): e is HTMLInputElement => e instanceof HTMLInputElement && e.type === 'file';
  return [...form.querySelectorAll<Control>('[required]')]
    .filter((e) => (isFile(e) ? !e.files?.length : !e.value.trim()))
    .map((e) => ({
      field: e.name,
      message: isFile(e)
        ? 'is needed: choose a PDF, JPEG or PNG'
        : e.tagName === 'SELECT'
          ? 'is needed: choose one'
          : 'is needed',
    }));
}

const value = (name: string) => (form.elements.namedItem(name) as Control).value;
const checked = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).checked;
const fileOf = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).files?.[0];

async function documents(): Promise<{ kind: string; content_type: string; data_base64: string }[]> {
  const out = [];
  for (const kind of ['driver_licence', 'vehicle_licence', 'insurance']) {
    const file = fileOf(`${kind}_file`);
    if (!file) continue;
    if (file.size > maxBytes) {
      throw new Error(`${file.name} is larger than ${maxMb} MB: take a smaller photo or scan, and try again.`);
    }
    out.push({ kind, content_type: file.type, data_base64: await fileBase64(file, `Could not read ${file.name}`) });
  }
  return out;
}

async function apply(submit: HTMLButtonElement): Promise<void> {
  submit.disabled = true;
  try {
    const body = {
      name: value('name'),
      phone: value('phone'),
      email: value('email'),
      licensing_authority: value('licensing_authority'),
      driver_licence_number: value('driver_licence_number'),
      driver_licence_expires: value('driver_licence_expires'),
      vehicle_licence_number: value('vehicle_licence_number'),
      vehicle_licence_expires: value('vehicle_licence_expires'),
      vehicle_make: value('vehicle_make'),
      vehicle_model: value('vehicle_model'),
      vehicle_registration: value('vehicle_registration'),
      vehicle_colour: value('vehicle_colour').trim() || null,
      vehicle_type: value('vehicle_type'),
      seats: Number(value('seats')),
      wheelchair_accessible: checked('wheelchair_accessible'),
      home_area: value('home_area'),
      tier: value('tier'),
      documents: await documents(),
    };
    const send = () =>
      fetch('/api/drivers/applications', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      });
    let res = await send();
    // Busy with other uploads (503): wait as told and send again, a few times.
    for (let tries = 0; res.status === 503 && tries < 5; tries++) {
      const wait = 1000 * Math.min(30, Number(res.headers.get('retry-after')) || 5);
      await new Promise((r) => setTimeout(r, wait));
      res = await send();
    }
    const reply = await replyJson<Problem & { driver_id?: string }>(res);
    if (res.ok) {
      form.hidden = true;
      say(
        `Thank you. Your application ${reply?.driver_id} is with our operators; we will text you when it is decided.`,
        true,
      );
      return;
    }
    if (Array.isArray(reply?.errors) && reply.errors.length > 0) {
      showProblems(reply.errors, 'Please correct these and apply again:');
    } else {
      say(reply?.detail || 'Something went wrong. Please try again.');
    }
  } catch (e) {
    say((e instanceof Error && e.message) || 'No connection. Check your signal and try again.');
  }
  submit.disabled = false;
}

form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  clearErrors();
  const empty = missing();
  if (empty.length > 0) {
    showProblems(empty, empty.length === 1 ? 'One thing is missing:' : `${empty.length} things are missing:`);
    return;
  }
  void apply(form.querySelector<HTMLButtonElement>('button[type=submit]')!);
});
