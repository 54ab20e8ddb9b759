import { z } from 'zod';

// How a driver takes payment, shown to their passenger on the pay-the-driver page. The passenger
// pays the driver directly; the service never handles the money. Cash is always accepted.

export const DriverPaymentOptionsSchema = z
  .object({
    /** The driver's own payment link (their provider's checkout page). */
    paymentLink: z
      .url({ protocol: /^https$/ })
      .max(500)
      .optional(),
    /** A card reader in the car. */
    cardReader: z.boolean().optional(),
    bankTransfer: z
      .object({
        accountName: z.string().min(1).max(70),
        sortCode: z.string().regex(/^\d{2}-?\d{2}-?\d{2}$/),
        accountNumber: z.string().regex(/^\d{8}$/),
      })
      .optional(),
    /** Account customers (businesses) the driver invoices. */
    account: z.boolean().optional(),
  })
  .strict();
export type DriverPaymentOptions = z.infer<typeof DriverPaymentOptionsSchema>;

export interface PayOption {
  kind: 'cash' | 'card' | 'payment_link' | 'bank_transfer' | 'account';
  label: string;
  detail: string;
  href: string | null;
}

/** The options a passenger sees, in the order most people pay; unreadable stored options show cash only. */
export function payOptions(stored: unknown, ref: string): PayOption[] {
  const parsed = DriverPaymentOptionsSchema.safeParse(stored ?? {});
  const o: DriverPaymentOptions = parsed.success ? parsed.data : {};
  const out: PayOption[] = [
    { kind: 'cash', label: 'Cash', detail: 'Pay the driver in cash at the end of the journey.', href: null },
  ];
  if (o.cardReader)
    out.push({ kind: 'card', label: 'Card', detail: "Pay by card on the driver's card reader.", href: null });
  if (o.paymentLink)
    out.push({
      kind: 'payment_link',
      label: 'Pay online',
      detail: "The driver's own payment page.",
      href: o.paymentLink,
    });
  if (o.bankTransfer) {
    const b = o.bankTransfer;
    out.push({
      kind: 'bank_transfer',
      label: 'Bank transfer',
      detail: `${b.accountName}, sort code ${b.sortCode}, account ${b.accountNumber}, reference ${ref}`,
      href: null,
    });
  }
  if (o.account)
    out.push({ kind: 'account', label: 'Account', detail: 'The driver invoices your account.', href: null });
  return out;
}
