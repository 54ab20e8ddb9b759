import type { FastifyRequest } from 'fastify';
import { bearerToken } from '../auth/secrets.js';
import { verifyStaffKey, type StaffMember, type StaffRole } from '../auth/staff.js';
import { driverForToken } from '../drivers/sign-in.js';
import type { Services } from '../services.js';
import { ProblemError } from './problem.js';

// Who is behind a driver-app or ops request. Both send `Authorization: Bearer <token>`; neither
// says which part of a refused credential was wrong.

export async function signedInDriver(s: Pick<Services, 'sql'>, request: FastifyRequest): Promise<{ driverId: string; tokenHash: string }> {
  const session = await driverForToken(s, bearerToken(request.headers.authorization));
  if (!session) {
    throw new ProblemError(401, 'not_signed_in', 'Sign in again: this session is not valid.', { headers: { 'www-authenticate': 'Bearer' } });
  }
  return session;
}

export async function staffMember(s: Pick<Services, 'sql'>, request: FastifyRequest, role: StaffRole = 'operator'): Promise<StaffMember> {
  const token = bearerToken(request.headers.authorization);
  const staff = token ? await verifyStaffKey(s.sql, token) : null;
  if (!staff) throw new ProblemError(401, 'not_staff', 'A valid staff key is required.', { headers: { 'www-authenticate': 'Bearer' } });
  if (role === 'admin' && staff.role !== 'admin') throw new ProblemError(403, 'admin_only', 'Only an administrator can do this.');
  return staff;
}
