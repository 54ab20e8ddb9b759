import { domainToASCII } from 'node:url';
import mailchecker from 'mailchecker';

// A passenger email receives the booking's confirmation link, so it must be a mailbox one person
// reads and will still read tomorrow. Disposable and role addresses are refused (docs/interface.md:
// "Disposable and role email addresses are rejected").

export type EmailCheck =
  | { ok: true; email: string }
  | { ok: false; code: 'invalid_email' | 'disposable_email' | 'role_email'; reason: string };

const MAX_LENGTH = 254; // RFC 5321 path limit less the angle brackets
const MAX_LOCAL_LENGTH = 64;
// RFC 5322 dot-atom. Quoted local parts and SMTPUTF8 are left out: no mainstream provider issues
// them, and they are awkward to carry safely into mail headers.
const LOCAL_PART = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TOP_LEVEL_LABEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

// Role mailboxes (RFC 2142 "Mailbox Names for Common Services, Roles and Functions" names abuse,
// postmaster, hostmaster, webmaster, info, sales, support and more) reach a shared inbox or a
// list, not the passenger: nobody there can confirm the booking or will recognise it, and a
// confirmation sent there leaks the journey to whoever reads the inbox. Compared after dropping a
// +tag and the separators . - _, so no-reply, no.reply and noreply+x are one entry.
export const ROLE_LOCAL_PARTS: ReadonlySet<string> = new Set([
  'abuse',
  'accounts',
  'admin',
  'administrator',
  'all',
  'billing',
  'booking',
  'bookings',
  'careers',
  'compliance',
  'contact',
  'contactus',
  'customercare',
  'customerservice',
  'customerservices',
  'donotreply',
  'enquiries',
  'enquiry',
  'everyone',
  'feedback',
  'finance',
  'frontdesk',
  'help',
  'helpdesk',
  'hello',
  'hostmaster',
  'hr',
  'info',
  'information',
  'inquiries',
  'inquiry',
  'jobs',
  'legal',
  'mailerdaemon',
  'marketing',
  'media',
  'newsletter',
  'noc',
  'nobody',
  'noreply',
  'office',
  'orders',
  'postmaster',
  'press',
  'privacy',
  'reception',
  'reservations',
  'root',
  'sales',
  'security',
  'service',
  'support',
  'team',
  'webmaster',
]);

export function checkPassengerEmail(input: string): EmailCheck {
  const text = input.trim().toLowerCase();
  if (text.length === 0) return invalid('email address is empty');
  if (text.length > MAX_LENGTH) return invalid(`email address is longer than ${MAX_LENGTH} characters`);

  const at = text.lastIndexOf('@');
  if (at <= 0 || at === text.length - 1) return invalid('email address must look like name@example.com');
  const local = text.slice(0, at);
  if (local.length > MAX_LOCAL_LENGTH)
    return invalid(`the part before @ is longer than ${MAX_LOCAL_LENGTH} characters`);
  if (!LOCAL_PART.test(local)) return invalid('the part before @ contains characters an email address cannot use');

  // Internationalised domains are checked and stored in their ASCII (punycode) form, as SMTP sends them.
  const domain = domainToASCII(text.slice(at + 1));
  const labels = domain.split('.');
  if (
    domain === '' ||
    domain.length > 253 ||
    labels.length < 2 ||
    !labels.every((label) => DOMAIN_LABEL.test(label)) ||
    !TOP_LEVEL_LABEL.test(labels[labels.length - 1] ?? '')
  ) {
    return invalid('the part after @ is not a valid domain name');
  }
  const email = `${local}@${domain}`;
  if (email.length > MAX_LENGTH) return invalid(`email address is longer than ${MAX_LENGTH} characters`);

  if (isDisposableDomain(domain)) {
    return {
      ok: false,
      code: 'disposable_email',
      reason: `${domain} gives out disposable addresses; use an address you will keep`,
    };
  }
  if (ROLE_LOCAL_PARTS.has(compactLocalPart(local))) {
    return {
      ok: false,
      code: 'role_email',
      reason: `${local}@ is a shared or role mailbox; use the passenger's own address`,
    };
  }
  return { ok: true, email };
}

/**
 * True when the domain, or any domain it is a subdomain of, is on mailchecker's list (a set of
 * ~56k domains bundled in the package and updated with each release).
 */
export function isDisposableDomain(domain: string): boolean {
  const list = mailchecker.blacklist();
  const labels = domain.toLowerCase().split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    if (list.has(labels.slice(i).join('.'))) return true;
  }
  return false;
}

function compactLocalPart(local: string): string {
  return local.split('+')[0]!.replace(/[._-]/g, '');
}

function invalid(reason: string): EmailCheck {
  return { ok: false, code: 'invalid_email', reason };
}

/** Providers known to ignore dots in the local part and to treat googlemail.com as gmail.com. */
const DOTLESS_DOMAINS: Record<string, string> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * The mailbox an address delivers to, for counting: lower-cased, without a +tag, and for Gmail
 * without dots and with googlemail.com read as gmail.com. Only for limits: the address the
 * passenger typed is the one we write to.
 */
export function mailboxKey(email: string): string {
  const text = email.trim().toLowerCase();
  const at = text.lastIndexOf('@');
  if (at <= 0) return text;
  let local = text.slice(0, at).split('+')[0] ?? '';
  let domain = text.slice(at + 1);
  const canonical = DOTLESS_DOMAINS[domain];
  if (canonical) {
    domain = canonical;
    local = local.replace(/\./g, '');
  }
  return `${local}@${domain}`;
}
