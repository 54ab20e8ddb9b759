// "This price has expired" (src/pages/book-page.ts): a new price for the same journey, one press.
import { $, $button } from './dom.js';
import { quoteAgain } from './quote-again.js';

const button = $button('requote');
const error = $('requote-error');

async function requote(): Promise<void> {
  const d = button.dataset;
  button.disabled = true;
  error.hidden = true;
  try {
    const { priced, reply } = await quoteAgain(d, d.pickup ?? '');
    if (priced) return;
    error.textContent = reply?.detail || 'Could not get a new price. Please try again.';
  } catch {
    error.textContent = 'Could not reach Direct Taxi. Check your connection and try again.';
  }
  error.hidden = false;
  button.disabled = false;
}

button.addEventListener('click', () => void requote());
