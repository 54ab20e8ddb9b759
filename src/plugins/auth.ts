import type { FastifyRequest } from 'fastify';
import { bearerToken } from '../auth/secrets.js';
import { verifyStaffKey, type StaffMember, type StaffRole } from '../auth/staff.js';
import { driverForToken } from '../drivers/sign-in.js';
import type { Services } from '../services.js';
import { ProblemError } from '../http/problem.js';

// Who is behind a driver-app or ops request. Both send `Authorization: Bearer <token>`; neither
// says which part of a refused credential was wrong. It lives with the plugins, not in src/http,
// because it reads staff keys (src/auth) and driver sessions (src/drivers): src/http imports no area.

type DriverSession = { driverId: string; tokenHash: string };

/** Driver sessions already checked for a request (by the driver rate limit, src/plugins/rate-limits.ts): checked once. */
const checkedDrivers = new WeakMap<FastifyRequest, Promise<DriverSession | null>>();

/** The driver whose session the request carries, or null; the session is looked up once per request. */
export function verifiedDriverOf(sql: Services['sql'], request: FastifyRequest): Promise<DriverSession | null> {
  let found = checkedDrivers.get(request);
  if (!found) {
    found = driverForToken({ sql }, bearerToken(request.headers.authorization));
    checkedDrivers.set(request, found);
  }
  return found;
}

export async function signedInDriver(s: Pick<Services, 'sql'>, request: FastifyRequest): Promise<DriverSession> {
  const session = await verifiedDriverOf(s.sql, request);
  if (!session) {
    throw new ProblemError(401, 'not_signed_in', 'Sign in again: this session is not valid.', {
      headers: { 'www-authenticate': 'Bearer' },
    });
  }
  return session;
}

/** Staff keys already checked for a request (by the staff rate limit, src/plugins/rate-limits.ts): checked once. */
const checkedStaff = new WeakMap<FastifyRequest, Promise<StaffMember | null>>();

/** The staff member whose key the request carries, or null; the key is looked up once per request. */
export function verifiedStaffOf(sql: Services['sql'], request: FastifyRequest): Promise<StaffMember | null> {
  let found = checkedStaff.get(request);
  if (!found) {
    const token = bearerToken(request.headers.authorization);
    found = token ? verifyStaffKey(sql, token) : Promise.resolve(null);
    checkedStaff.set(request, found);
  }
  return found;
}

export async function staffMember(
  s: Pick<Services, 'sql'>,
  request: FastifyRequest,
  role: StaffRole = 'operator',
): Promise<StaffMember> {
  const staff = await verifiedStaffOf(s.sql, request);
  if (!staff)
    throw new ProblemError(401, 'not_staff', 'A valid staff key is required.', {
      headers: { 'www-authenticate': 'Bearer' },
    });
  if (role === 'admin' && staff.role !== 'admin')
    throw new ProblemError(403, 'admin_only', 'Only an administrator can do this.');
  return staff;
}
