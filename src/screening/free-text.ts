// Free text a caller sends (notes, names, agent names) is printed on a driver's job card and may be
// read by an AI agent acting for a driver, partner or passenger. It is screened once, at the edge:
// text that hides characters, carries chat-template markers, tells a model to drop its
// instructions, tries to change the fare or payment, or carries script is refused, so nothing
// downstream has to trust it. The patterns are deliberately specific: a refused genuine note costs
// a passenger a retry, so each rule names the attack's own vocabulary, not everyday words.

export type ScreenResult =
  | { ok: true; value: string }
  | { ok: false; code: 'too_long' | 'suspicious_content' | 'invalid_characters'; message: string };

export interface ScreenOptions {
  /** Longest accepted value in Unicode code points, after whitespace is collapsed. */
  maxLength: number;
  /** Notes and similar fields: line breaks and tabs are allowed (tabs become spaces, blank lines collapse). */
  multiline?: boolean;
}

interface SuspiciousPattern {
  /** 'words': matched on a folded copy with all punctuation turned into single spaces. 'markup': punctuation kept. */
  form: 'words' | 'markup';
  pattern: RegExp;
  /** Completes "<field> looks like ..." in the refusal. */
  looksLike: string;
}

const INSTRUCTION = 'an instruction to an AI system';
const ROLE_MARKER = 'a chat or prompt-template marker';
const TOOL_CALL = 'an attempt to make an AI system call a tool';
const PAYMENT = 'an instruction to change the fare or payment';
const MARKUP = 'HTML or script';

export const SUSPICIOUS_PATTERNS: readonly SuspiciousPattern[] = [
  // "ignore all previous instructions" and its variants; the object must be about prompts, so
  // "ignore the doorbell" and "ignore the previous address" pass.
  {
    form: 'words',
    looksLike: INSTRUCTION,
    pattern:
      /\b(?:ignore|disregard|forget|skip|bypass|override)\s+(?:(?:all|any|every|each|the|of|your|these|those|this|that)\s+){0,3}(?:previous|prior|above|earlier|preceding|foregoing|former|initial|original|system|developer|existing)\s+(?:instructions?|prompts?|messages?|directions|directives?|rules|commands?|guidelines|context)\b/,
  },
  // "disregard ... instructions" with a few words between; 'ignore' is left to the rule above, as
  // "ignore the satnav instructions" is an ordinary note.
  {
    form: 'words',
    looksLike: INSTRUCTION,
    pattern:
      /\b(?:disregard|forget|bypass)\s+(?:\w+\s+){0,4}?(?:instructions|prompts?|guidelines|guardrails|programming|safety\s+rules)\b/,
  },
  // "ignore your instructions/rules/programming": a model's own instructions, never a driver's.
  {
    form: 'words',
    looksLike: INSTRUCTION,
    pattern:
      /\b(?:ignore|override)\s+(?:all\s+(?:of\s+)?)?(?:your|its)\s+(?:instructions|rules|programming|guidelines|training|prompt|restrictions|safeguards|guardrails)\b/,
  },
  // Persona switches: "you are now DAN", "you are now an unrestricted assistant".
  {
    form: 'words',
    looksLike: INSTRUCTION,
    pattern:
      /\byou\s+are\s+now\s+(?:a|an|the|my|no\s+longer|free|unrestricted|jailbroken|dan|acting|operating|in\s+\w+\s+mode|allowed|authori[sz]ed|permitted)\b/,
  },
  // "act as a/an/the/if": only the persona form; "act fast" and "act as quickly as" pass.
  { form: 'words', looksLike: INSTRUCTION, pattern: /\b(?:act|behave)\s+as\s+(?:a|an|the|if|though|my)\b/ },
  {
    form: 'words',
    looksLike: INSTRUCTION,
    pattern: /\b(?:pretend\s+(?:to\s+be|you\s+are|that\s+you)|role\s*play\s+as)\b/,
  },
  // Talk of a model's hidden configuration.
  { form: 'words', looksLike: INSTRUCTION, pattern: /\bsystem\s+(?:prompts?|messages?|instructions?|override)\b/ },
  { form: 'words', looksLike: INSTRUCTION, pattern: /\b(?:developer|dev|god|debug|sudo)\s+mode\b/ },
  { form: 'words', looksLike: INSTRUCTION, pattern: /\b(?:jail\s*break(?:s|ing|en|ed)?|do\s+anything\s+now)\b/ },
  {
    form: 'words',
    looksLike: INSTRUCTION,
    pattern:
      /\b(?:reveal|print|repeat|output|leak|dump|show\s+me|tell\s+me)\s+(?:your\s+(?:(?:initial|hidden|secret|system|original|full)\s+)?(?:instructions|prompt|rules|guidelines)|the\s+(?:(?:initial|hidden|secret|original|full)\s+)?(?:system\s+prompt|prompt))\b/,
  },
  // Indirect injection addressed to whatever model reads the booking.
  {
    form: 'words',
    looksLike: INSTRUCTION,
    pattern: /\bif\s+you\s+are\s+an?\s+(?:ai|llm|language\s+model|assistant|chatbot|bot|agent)\b/,
  },
  // Fare and payment: a note can never change either, so asking is an attack on whoever reads it.
  {
    form: 'words',
    looksLike: PAYMENT,
    pattern: /\boverride\s+(?:the\s+|this\s+|my\s+)?(?:price|fare|pricing|tariff|quote|meter)\b/,
  },
  {
    form: 'words',
    looksLike: PAYMENT,
    pattern:
      /\b(?:set|change|update|adjust|make|reduce|lower)\s+(?:the\s+|this\s+|my\s+)?(?:fare|price|cost|quote)\s+(?:to|at|as)\b/,
  },
  {
    form: 'words',
    looksLike: PAYMENT,
    pattern: /\b(?:fare|price|cost)\s+(?:is\s+now|should\s+be|must\s+be)\s+(?:set\s+to\s+)?(?:zero|free|nothing|0)\b/,
  },
  {
    form: 'words',
    looksLike: PAYMENT,
    pattern:
      /\bmark\s+(?:(?:this|the|my|it|that)\s+)?(?:(?:booking|ride|trip|journey|job|fare|order|invoice)\s+)?(?:as\s+)?(?:paid|pre\s*paid|settled|refunded)\b/,
  },
  // Tool invocation in prose ("call the cancel_booking tool") and in tool-call JSON keys.
  {
    form: 'words',
    looksLike: TOOL_CALL,
    pattern: /\b(?:call|invoke|execute|trigger)\s+(?:the\s+|a\s+|your\s+)?(?:\w+\s+){0,2}?tools?\b/,
  },
  {
    form: 'markup',
    looksLike: TOOL_CALL,
    pattern: /\b(?:function_call|tool_calls?|tool_use|tool_choice|tool_result)\b/,
  },
  // Chat-template special tokens: <|im_start|>, <|system|>, <|eot_id|> ...
  { form: 'markup', looksLike: ROLE_MARKER, pattern: /<\s*\|[^|>\n]{1,30}\|\s*>/ },
  // Llama-style [INST] / [/INST] / <<SYS>>.
  {
    form: 'markup',
    looksLike: ROLE_MARKER,
    pattern: /\[\s*\/?\s*(?:inst|sys|system|assistant)\s*\]|<<\s*\/?\s*sys\s*>>/,
  },
  // Markdown headings that open a prompt section: "### System", "## Instructions".
  { form: 'markup', looksLike: ROLE_MARKER, pattern: /#{2,}\s*(?:system|instructions?|assistant|developer|prompt)\b/ },
  // A turn label starting a line or sentence: "assistant: ...", "SYSTEM: ...".
  { form: 'markup', looksLike: ROLE_MARKER, pattern: /(?:^|[\n.!?]\s*)(?:system|assistant|developer)\s*:/ },
  // Role and tool tags: <system>, </assistant>, <tool_call>, <function_calls>.
  {
    form: 'markup',
    looksLike: ROLE_MARKER,
    pattern:
      /<\s*\/?\s*(?:system|assistant|user|developer|tool|tools|tool_calls?|tool_use|tool_result|function_calls?|function_results?|functions|invoke|instructions?|prompt|im_start|im_end)\s*(?=[\s>/])/,
  },
  // Script and HTML that would run if a job card or dashboard ever rendered the text unescaped.
  {
    form: 'markup',
    looksLike: MARKUP,
    pattern: /<\s*(?:script|iframe|object|embed|svg|img|style|link|meta|base|form|body|html)\b/,
  },
  { form: 'markup', looksLike: MARKUP, pattern: /\b(?:javascript|vbscript)\s*:|\bdata\s*:\s*text\/html/ },
  { form: 'markup', looksLike: MARKUP, pattern: /\bon[a-z]{4,}\s*=/ },
  // Markdown images fetch their URL when rendered: the classic way to exfiltrate data from a model.
  { form: 'markup', looksLike: MARKUP, pattern: /!\[[^\]\n]*\]\(\s*[a-z][a-z0-9+.-]*:/ },
];

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// C0 and C1 controls and DEL; tab and line feed are handled separately.
// eslint-disable-next-line no-control-regex -- finding control characters is this pattern's job
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/u;
// Invisible format characters: zero-width spaces and joiners, bidi embeddings and overrides
// (the "Trojan Source" characters), the BOM, word joiners, and Unicode tag characters, which
// can spell out whole instructions no reader sees. Two or more variation selectors in a row are
// invisible payload too ("emoji smuggling"); one after a character is ordinary emoji styling.
const INVISIBLE = /\p{Cf}|\p{Variation_Selector}{2,}/u;
// Legitimate uses of those characters, removed before the check above: emoji ZWJ sequences
// (U+1F9D1 ZWJ U+1F9BD is "person in manual wheelchair"), subdivision flags (Scotland's is
// U+1F3F4, the tag letters "gbsct", then a cancel tag), and joiners inside words of scripts that
// need them (Persian, the Indic scripts).
const ALLOWED_INVISIBLE = [
  /(?<=\p{Extended_Pictographic}(?:\p{Emoji_Modifier}|\uFE0F)?)\u200D(?=\p{Extended_Pictographic})/gu,
  /(?<=\u{1F3F4})[\u{E0020}-\u{E007E}]{1,8}\u{E007F}/gu,
  /(?<=[\p{L}\p{M}])(?<!\p{Script=Latin})[\u200C\u200D](?=\p{L})(?!\p{Script=Latin})/gu,
];

// Letters from other scripts that look like Latin ones, so "іgnоrе" (Cyrillic і, о, е) still reads
// as "ignore" to the patterns. Only the detection copy is folded; the value is returned as typed.
const LOOKALIKES: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  һ: 'h',
  ӏ: 'l',
  ԛ: 'q',
  ԝ: 'w',
  ѵ: 'v',
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ɡ: 'g',
  ı: 'i',
  ȷ: 'j',
};
const LOOKALIKE_CHARS = new RegExp(`[${Object.keys(LOOKALIKES).join('')}]`, 'gu');

export function screenFreeText(field: string, value: string, opts: ScreenOptions): ScreenResult {
  const tooLong: ScreenResult = {
    ok: false,
    code: 'too_long',
    message: `${field} is longer than ${opts.maxLength} characters`,
  };
  // Bounds the work below; generous enough for text that only shrinks once whitespace collapses.
  if (value.length > opts.maxLength * 4 + 64) return tooLong;

  if (LONE_SURROGATE.test(value)) return invalidCharacters(field, 'a broken (unpaired surrogate) character');
  const text = value.normalize('NFC').replace(/\r\n?|[\u0085\u2028\u2029]/g, '\n');

  const control = CONTROL.exec(text) ?? (opts.multiline ? null : /[\t\n]/.exec(text));
  if (control) return invalidCharacters(field, `a control character (${codePoint(control[0])})`);
  const invisible = INVISIBLE.exec(ALLOWED_INVISIBLE.reduce((t, allowed) => t.replace(allowed, ''), text));
  if (invisible) return invalidCharacters(field, `an invisible formatting character (${codePoint(invisible[0])})`);

  const cleaned = collapseWhitespace(text, opts.multiline ?? false);
  if ([...cleaned].length > opts.maxLength) return tooLong;

  const markup = foldForMatching(cleaned);
  const words = markup.replace(/[^\p{L}\p{N}]+/gu, ' ');
  for (const rule of SUSPICIOUS_PATTERNS) {
    if (rule.pattern.test(rule.form === 'words' ? words : markup)) {
      return {
        ok: false,
        code: 'suspicious_content',
        message: `${field} looks like ${rule.looksLike}; please rephrase it`,
      };
    }
  }
  return { ok: true, value: cleaned };
}

/**
 * Optional text whose absence costs nothing (a cancel's reason): the screened value, or null when
 * there is none or it fails the screen, so the request it came with is never refused for it.
 */
export function screenedOrDropped(field: string, value: string | null | undefined, opts: ScreenOptions): string | null {
  if (!value || value.trim() === '') return null;
  const r = screenFreeText(field, value, opts);
  return r.ok ? r.value : null;
}

/** Single spaces; for multi-line text, trimmed lines joined by single line breaks (blank lines dropped). */
function collapseWhitespace(text: string, multiline: boolean): string {
  if (!multiline) return text.replace(/\s+/g, ' ').trim();
  return text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

/** Compatibility forms (fullwidth, ligatures) and accents folded away, lower case, lookalikes mapped. */
function foldForMatching(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\p{M}\p{Cf}]/gu, '')
    .toLowerCase()
    .replace(LOOKALIKE_CHARS, (c) => LOOKALIKES[c] ?? c);
}

function invalidCharacters(field: string, what: string): ScreenResult {
  return { ok: false, code: 'invalid_characters', message: `${field} contains ${what}` };
}

function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}
