// The job card once the job is the driver's (src/pages/job-card-page.ts): the trip's next steps,
// then what the passenger paid. Each button calls the API a driver app does, with the link's
// token; the service decides and the page reloads to show its answer.
import { $, replyJson, type Problem } from './dom.js';

const job = $('job');
const trip = $('trip');
const outcome = $('trip-outcome');
const base = `/api/driver/offers/${encodeURIComponent(job.dataset.offerId ?? '')}`;

function enable(on: boolean): void {
  for (const b of trip.querySelectorAll('button')) b.disabled = !on;
}

async function send(path: string, body: Record<string, unknown>): Promise<void> {
  enable(false);
  try {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...body, token: job.dataset.token }),
    });
    if (res.ok) return location.reload();
    outcome.textContent = (await replyJson<Problem>(res))?.detail || 'Something went wrong. Please try again.';
  } catch {
    outcome.textContent = 'No connection. Check your signal and try again.';
  }
  outcome.hidden = false;
  enable(true);
}

// Giving the job back cannot be undone (the passenger gets another driver), so it asks first.
const confirmDrop = document.getElementById('drop-confirm');

trip.addEventListener('click', (event) => {
  const target = event.target as Element;
  if (target.closest('#drop-no')) {
    if (confirmDrop) confirmDrop.hidden = true;
    return;
  }
  if (target.closest('#drop-yes')) return void send('/trip', { event: 'drop' });
  const button = target.closest<HTMLButtonElement>('button[data-event]');
  if (!button) return;
  if (button.dataset.event === 'drop' && confirmDrop) {
    confirmDrop.hidden = false;
    return;
  }
  void send('/trip', { event: button.dataset.event });
});

const form = document.getElementById('payment');
if (form instanceof HTMLFormElement) {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const field = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement).value;
    const reason = field('reason').trim();
    void send('/payment', { method: field('method'), amount: Number(field('amount')), ...(reason ? { reason } : {}) });
  });
}
