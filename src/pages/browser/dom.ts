// What every page script uses, written once: finding the page's elements, making new ones, the
// message line, and calls to this service's JSON API.

/** The element with this id: a page whose markup lacks it is a bug, said at once. */
export function $(id: string): HTMLElement {
  const found = document.getElementById(id);
  if (!found) throw new Error(`#${id} is not on this page`);
  return found;
}

function typed<T extends HTMLElement>(id: string, kind: { new (): T; prototype: T }): T {
  const found = $(id);
  if (!(found instanceof kind)) throw new Error(`#${id} is a <${found.tagName.toLowerCase()}>`);
  return found;
}

// Looked up by kind when called (the classes exist only in a browser; tests import these modules).
export const $input = (id: string) => typed(id, HTMLInputElement);
export const $select = (id: string) => typed(id, HTMLSelectElement);
export const $button = (id: string) => typed(id, HTMLButtonElement);
export const $form = (id: string) => typed(id, HTMLFormElement);

/** An element holding `text` (none for null or undefined), with a class when given. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text?: string | number | null,
  cls?: string,
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

/** A `<button type="button">`. */
export function button(text: string, cls?: string): HTMLButtonElement {
  const b = el('button', text, cls);
  b.type = 'button';
  return b;
}

/** An `<input>` of a type with an id (for its label). */
export function input(type: string, id: string): HTMLInputElement {
  const i = el('input');
  i.type = type;
  i.id = id;
  return i;
}

/** A `<label for>`. */
export function label(text: string, forId: string, cls?: string): HTMLLabelElement {
  const l = el('label', text, cls);
  l.htmlFor = forId;
  return l;
}

/** What a failure says: its message, for anything thrown. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * The page's message line (#message): `ok` in green, else red, hidden when empty. `focus` moves
 * the reader to it (a form that is gone once sent) and shows it even when empty.
 */
export function say(text: string, ok = false, opts: { focus?: boolean } = {}): void {
  const m = $('message');
  m.textContent = text;
  m.className = `alert ${ok ? 'ok' : 'error'}`;
  m.hidden = opts.focus ? false : !text;
  if (opts.focus) m.focus();
}

/** A failure on the message line. */
export function sayError(e: unknown): void {
  say(errorText(e));
}

/** An RFC 9457 problem as this service writes it, as far as the pages read it. */
export interface Problem {
  code?: string;
  detail?: string;
  errors?: { field: string; message: string }[];
  [extension: string]: unknown;
}

/** The reply's JSON, or null when it has none (or it is not JSON). */
export async function replyJson<T>(res: Response): Promise<T | null> {
  return res.json().then(
    (body) => body as T,
    () => null,
  );
}

export interface ApiOptions {
  /** The bearer credential, read on every call; null sends none. */
  credential: () => string | null;
  /** A 401 to a call that carried a credential: sign out here, and return what to tell the user. */
  onUnauthorized: () => string;
  /** Said when a refusal gives no detail. */
  fallback: string;
}

export interface Api {
  /** The response, once it is a success; a refusal is thrown as an Error with its detail. */
  send(method: string, path: string, body?: unknown): Promise<Response>;
  /** The same, read as JSON (null for 204 No Content). */
  json<T>(method: string, path: string, body?: unknown): Promise<T>;
}

/** Calls to this service's JSON API, with a bearer credential, failing with the service's reason. */
export function jsonApi(o: ApiOptions): Api {
  const send = async (method: string, path: string, body?: unknown): Promise<Response> => {
    const credential = o.credential();
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (credential) headers.authorization = `Bearer ${credential}`;
    const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (res.status === 401 && credential) throw new Error(o.onUnauthorized());
    if (!res.ok) throw new Error((await replyJson<Problem>(res))?.detail || o.fallback);
    return res;
  };
  return {
    send,
    json: async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const res = await send(method, path, body);
      return (res.status === 204 ? null : await replyJson<T>(res)) as T;
    },
  };
}

/** Saves what a response holds as a file named `name` (a document staff download). */
export async function download(res: Response, name: string): Promise<void> {
  const a = el('a');
  a.href = URL.createObjectURL(await res.blob());
  a.download = name;
  a.click();
}

/** A file's content in base64 (an upload in a JSON body); `failure` is said when it cannot be read. */
export function fileBase64(file: File, failure: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(typeof r.result === 'string' ? r.result.replace(/^data:[^,]*,/, '') : '');
    r.onerror = () => reject(new Error(failure));
    r.readAsDataURL(file);
  });
}

/**
 * A console signed in with a key kept for this browser tab only (sessionStorage): the staff
 * consoles and the operator dashboard. #sign-in holds #key-form and #key; `consoleId` is what the
 * key opens. A key the API refuses (401) signs the tab out.
 */
export function keyConsole(o: { storageKey: string; consoleId: string; invalid: string }) {
  let key = sessionStorage.getItem(o.storageKey);
  const signOut = () => {
    sessionStorage.removeItem(o.storageKey);
    key = null;
    $(o.consoleId).hidden = true;
    $('sign-in').hidden = false;
  };
  const api = jsonApi({
    credential: () => key,
    onUnauthorized: () => {
      signOut();
      return o.invalid;
    },
    fallback: 'Something went wrong.',
  });
  return {
    api,
    signedIn: (): boolean => key !== null,
    /**
     * Opens the console with `load` (at once when the tab has a key), and signs in with the form:
     * a key is kept only once `load` has worked with it. Call it last, once the page is wired.
     */
    start(load: () => Promise<void>): void {
      const open = async () => {
        $('sign-in').hidden = true;
        $(o.consoleId).hidden = false;
        await load();
      };
      $form('key-form').addEventListener('submit', (ev) => {
        ev.preventDefault();
        key = $input('key').value.trim();
        open().then(() => {
          if (key) sessionStorage.setItem(o.storageKey, key);
          say('', true);
        }, sayError);
      });
      if (key) open().catch(sayError);
    },
  };
}

/** Runs `look` every `ms` while the tab is shown, and at once when it is shown again. */
export function whileShown(ms: number, look: () => void): void {
  setInterval(look, ms);
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) look();
  });
}

/**
 * Only the latest look is drawn: `latest(fetch)` resolves to null when another look began while
 * this one waited, so an earlier answer arriving late (a page turned twice) is dropped.
 */
export function latestOnly(): <T>(fetch: () => Promise<T>) => Promise<T | null> {
  let looks = 0;
  return async (fetch) => {
    const look = ++looks;
    const answer = await fetch();
    return look === looks ? answer : null;
  };
}

/** Whether the focus is on a form control of `kind` (e.g. 'INPUT') inside `box`. */
export function typingIn(box: HTMLElement, kind: string): boolean {
  const active = document.activeElement;
  return active !== null && active.tagName === kind && box.contains(active);
}

/** Where a console's list stands: its status filter, search text and page offset (in its address). */
export interface ListView {
  status: string;
  q: string;
  offset: number;
}

/**
 * A console list's status select and search form: either change starts the list again at its first
 * page; a search also clears the message line once the list has loaded.
 */
export function bindListFilters(
  view: ListView,
  ids: { status: string; form: string; query: string },
  load: () => Promise<void>,
): void {
  $select(ids.status).addEventListener('change', () => {
    view.status = $select(ids.status).value;
    view.offset = 0;
    load().catch(sayError);
  });
  $(ids.form).addEventListener('submit', (ev) => {
    ev.preventDefault();
    view.status = $select(ids.status).value;
    view.q = $input(ids.query).value.trim();
    view.offset = 0;
    load()
      .then(() => say('', true))
      .catch(sayError);
  });
}
