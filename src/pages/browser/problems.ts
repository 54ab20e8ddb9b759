// A refusal's field errors in a form's words (book.ts, apply.ts): the API names a field as its
// body path ("body.passenger_phone_whatsapp"), the form by its input's name, and each message is
// said beside the field in a sentence that starts with the field's label.

/** The form field an API error names: "body.x" is "x"; every document problem is "documents". */
export function formField(apiField: string): string {
  return apiField.replace(/^body\./, '').replace(/^documents(\..*)?$/, 'documents');
}

/** "Name" and "is required" make "Name is required"; anything else is said as it is, capitalised. */
export function bookingSentence(label: string, message: string): string {
  return /^(is|must) /.test(message) ? `${label} ${message}` : message.charAt(0).toUpperCase() + message.slice(1);
}

/** The application form's: "Email" and "must be …" make "Email must be …"; else "Email: invalid …". */
export function applicationSentence(label: string, message: string): string {
  return /^(is|must|may) /.test(message)
    ? `${label} ${message}`
    : `${label}: ${message.charAt(0).toLowerCase()}${message.slice(1)}`;
}

// The driver app's papers (driver-papers.ts) name each field it sends in its own words.
const PAPER_FIELDS: Record<string, string> = {
  'driver_licence.expires': 'Driver licence expiry date',
  'driver_licence.document': 'Driver licence photo or scan',
  'vehicle_licence.expires': 'Vehicle licence expiry date',
  'vehicle_licence.document': 'Vehicle licence photo or scan',
  vehicle_registration: 'Registration',
  vehicle_colour: 'Colour',
  vehicle_type: 'Vehicle class',
  seats: 'Seats',
  wheelchair_accessible: 'Wheelchair access',
  phone: 'New phone number',
  code: 'Code',
};

/** The field a problem names, in the words of the form: "body.driver_licence.expires" is "Driver licence expiry date". */
export function paperLabel(field: string): string {
  const f = field.replace(/^body\./, '');
  const k = Object.keys(PAPER_FIELDS).find((x) => f === x || f.startsWith(`${x}.`));
  return k ? PAPER_FIELDS[k]! : f.replace(/_/g, ' ');
}
