// Pages are built with the `html` tag below, which escapes every interpolated value unless it is
// already SafeHtml. Markup can then only come from template literals in this codebase, never from a
// quote, booking or driver record, so a place name or note cannot inject script or markup.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** `false`, null and undefined render nothing, so `${cond && html`...`}` reads naturally. */
export type HtmlValue = SafeHtml | string | number | null | undefined | false | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((v, i) => {
    out += render(v) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** For text this codebase wrote itself (the inline stylesheet); never for stored or request data. */
export function trustedHtml(text: string): SafeHtml {
  return new SafeHtml(text);
}
