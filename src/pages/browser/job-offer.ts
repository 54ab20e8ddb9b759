// The job card while it is offered (src/pages/job-card-page.ts): the time left to reply, and
// Accept or Decline through POST /api/driver/offers/:offerId/respond with the link's token, which
// decides who gets the job.
import { $, replyJson, type Problem } from './dom.js';
import { minutesAndSeconds, secondsLeft } from './countdown.js';

const job = $('job');
const actions = $('actions');
const state = document.getElementById('offer-state');
const countdown = document.getElementById('countdown');
const outcome = $('outcome');
const buttons = actions.querySelectorAll('button');
const total = Number(job.dataset.secondsLeft);
const start = performance.now();
let timer = 0;

function tick(): void {
  const left = secondsLeft(total, performance.now() - start);
  if (countdown) countdown.textContent = minutesAndSeconds(left);
  if (left === 0) {
    clearInterval(timer);
    // The buttons stay: the service decides, and says whether the job is still there.
    if (state) state.textContent = 'Time is up. The job may have gone to another driver.';
  }
}

function show(kind: 'ok' | 'error', text: string): void {
  outcome.className = `alert ${kind}`;
  outcome.textContent = text;
  outcome.hidden = false;
}

function finish(kind: 'ok' | 'error', text: string): void {
  clearInterval(timer);
  actions.hidden = true;
  if (state) state.hidden = true;
  show(kind, text);
}

if (countdown) {
  tick();
  timer = window.setInterval(tick, 250);
}

async function respond(decision: string): Promise<void> {
  for (const b of buttons) b.disabled = true;
  try {
    const res = await fetch(`/api/driver/offers/${encodeURIComponent(job.dataset.offerId ?? '')}/respond`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ decision, token: job.dataset.token }),
    });
    const reply = await replyJson<Problem & { result?: string }>(res);
    const code = reply?.code;
    if (res.ok) {
      if (reply?.result !== 'accepted') return finish('ok', 'You declined this job.');
      // The page the job is the driver's on: the passenger's name and phone and the trip's
      // buttons, at once (issue 35: until a reload there were none).
      finish('ok', 'Job accepted. It is yours: be at the pickup on time.');
      location.reload();
      return;
    }
    if (res.status === 409 || code === 'job_taken') return finish('error', 'Another driver took this job.');
    if (res.status === 410 || code === 'offer_expired') return finish('error', 'This offer has expired.');
    if (res.status === 403) {
      return finish(
        'error',
        code === 'driver_suspended' ? (reply?.detail ?? 'This job link is not valid.') : 'This job link is not valid.',
      );
    }
    show('error', reply?.detail || 'Something went wrong. Please try again.');
  } catch {
    show('error', 'No connection. Check your signal and try again.');
  }
  for (const b of buttons) b.disabled = false;
}

actions.addEventListener('click', (event) => {
  const button = (event.target as Element).closest<HTMLButtonElement>('button[data-decision]');
  if (button?.dataset.decision) void respond(button.dataset.decision);
});
