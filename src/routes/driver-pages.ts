import type { FastifyInstance } from 'fastify';
import { homeAreas } from '../drivers/home-areas.js';
import { renderApplyPage } from '../pages/apply-page.js';
import { renderDriverAppPage } from '../pages/driver-app-page.js';
import { renderOpsBookingsPage } from '../pages/ops-bookings-page.js';
import { renderOpsPage } from '../pages/ops-page.js';
import { sendPage } from '../pages/send-page.js';

// The pages of the driver's and the operator's side: applying, the driver app, the ops console.
// Each is a shell whose script talks to the API; no data is rendered into them, so they need no
// authentication themselves (the API calls they make do). Each side is on its own allowance
// (src/plugins/rate-limits.ts): staff loading /ops never spend the public's tracking-page budget.

export async function driverPageRoutes(app: FastifyInstance): Promise<void> {
  const driverSide = { schema: { hide: true }, config: { rateLimit: app.rateLimits.driver } };
  const staffSide = { schema: { hide: true }, config: { rateLimit: app.rateLimits.staff } };
  app.get('/driver', { ...driverSide, handler: async (_request, reply) => sendPage(reply, renderDriverAppPage()) });
  app.get('/drivers/apply', {
    ...driverSide,
    handler: async (_request, reply) => sendPage(reply, renderApplyPage(homeAreas())),
  });
  app.get('/ops', { ...staffSide, handler: async (_request, reply) => sendPage(reply, renderOpsPage()) });
  app.get('/ops/bookings', {
    ...staffSide,
    handler: async (_request, reply) => sendPage(reply, renderOpsBookingsPage()),
  });
}
