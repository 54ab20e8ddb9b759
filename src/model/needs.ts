// What a passenger may ask of the ride beyond its vehicle class (docs/accessibility.md), in the
// driver's words: the law's duties said plainly, the same on the SMS job card, the job page and the
// driver app (src/pages/browser/words.ts re-exports it for the pages' scripts). Pure, no imports.

export const NEEDS_WORDS = {
  assistanceDog: { label: 'Assistance dog', text: 'the passenger travels with one; carry it, at no extra charge' },
  helpFindingVehicle: {
    label: 'Help finding the vehicle',
    text: 'the passenger asked you to help them find the car; look out for them and call when you arrive',
  },
} as const;

/** The needs a job carries, each as a label and what it asks of the driver; none for most jobs. */
export function passengerNeeds(b: {
  assistance_dog?: boolean;
  help_finding_vehicle?: boolean;
}): Array<{ label: string; text: string }> {
  return [
    ...(b.assistance_dog ? [NEEDS_WORDS.assistanceDog] : []),
    ...(b.help_finding_vehicle ? [NEEDS_WORDS.helpFindingVehicle] : []),
  ];
}
