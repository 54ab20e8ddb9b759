import { describe, expect, it } from 'vitest';
import { checkPassengerEmail, isDisposableDomain } from '../../../src/passengers/email.js';

describe('checkPassengerEmail', () => {
  it.each([
    ['jane.doe@example.co.uk', 'jane.doe@example.co.uk'],
    ['  Jane.Doe+taxi@GMail.com ', 'jane.doe+taxi@gmail.com'],
    ["o'brien@btinternet.com", "o'brien@btinternet.com"],
    ['dev@example.com', 'dev@example.com'],
    ['jose@exämple.de', 'jose@xn--exmple-cua.de'],
  ])('accepts %j as %s', (input, email) => {
    expect(checkPassengerEmail(input)).toEqual({ ok: true, email });
  });

  it.each([
    '',
    'plainaddress',
    '@example.com',
    'jane@',
    'jane@localhost',
    'jane@example',
    'jane@exa_mple.com',
    'jane@-example.com',
    'jane@example.c',
    'jane@123.123.123.123',
    'jane@[127.0.0.1]',
    'jane..doe@example.com',
    '.jane@example.com',
    'jane doe@example.com',
    '"jane"@example.com',
    'jané@example.com',
    'jane@example.com\r\nBcc: x@example.com',
    `${'a'.repeat(65)}@example.com`,
    `a@${'b'.repeat(250)}.com`,
  ])('rejects %j as invalid', (input) => {
    expect(checkPassengerEmail(input)).toMatchObject({ ok: false, code: 'invalid_email' });
  });

  it.each(['someone@mailinator.com', 'SomeOne@YopMail.com', 'x@guerrillamail.com', 'x@inbox.mailinator.com'])(
    'rejects the disposable address %j',
    (input) => {
      expect(checkPassengerEmail(input)).toMatchObject({ ok: false, code: 'disposable_email' });
    },
  );

  it.each([
    'info@example.co.uk',
    'No-Reply@example.com',
    'no.reply@example.com',
    'support+taxi@example.com',
    'postmaster@example.org',
    'bookings@hotel.example',
    'enquiries@example.com',
  ])('rejects the role address %j', (input) => {
    const result = checkPassengerEmail(input);
    expect(result).toMatchObject({ ok: false, code: 'role_email' });
    expect(!result.ok && result.reason).toMatch(/role mailbox/);
  });

  it('reports a disposable role address as disposable', () => {
    expect(checkPassengerEmail('info@mailinator.com')).toMatchObject({ code: 'disposable_email' });
  });
});

describe('isDisposableDomain', () => {
  it('matches listed domains and their subdomains but not mainstream providers', () => {
    expect(isDisposableDomain('mailinator.com')).toBe(true);
    expect(isDisposableDomain('a.b.mailinator.com')).toBe(true);
    for (const domain of [
      'gmail.com',
      'outlook.com',
      'hotmail.co.uk',
      'yahoo.co.uk',
      'btinternet.com',
      'icloud.com',
      'sky.com',
      'nhs.net',
      'proton.me',
    ]) {
      expect(isDisposableDomain(domain)).toBe(false);
    }
  });
});
