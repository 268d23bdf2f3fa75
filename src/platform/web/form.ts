/**
 * Form bodies (`application/x-www-form-urlencoded`) of the web pages, read from the raw bytes the
 * app keeps for every route (see http/body.ts; the partner API's JSON parsing is untouched).
 * Every problem is a FormProblem with a sentence a person can act on, never an exception that
 * would end as a 5xx.
 */
export class FormProblem extends Error {
  override readonly name = 'FormProblem';
  constructor(
    readonly statusCode: 400 | 415,
    message: string,
  ) {
    super(message);
  }
}

/** The most a web form may send; more is refused (413) before it is read. */
export const FORM_BODY_LIMIT = 32 * 1024;

export interface FieldRule {
  /** Characters (UTF-16 units) accepted. */
  max: number;
  /** Line breaks and tabs allowed (text areas); other control characters never are. */
  multiline?: boolean;
  /** Shown in messages. */
  label?: string;
  /**
   * Declared as a list (checkboxes sharing a name): sent 0 to `maxCount` times, answered as an
   * array, each value checked like a single field. Any field not declared so may be sent once only.
   */
  repeated?: { maxCount: number };
}

/** The answer for a set of rules: a string per field, a string array per repeated field. */
export type FormFields<R extends Record<string, FieldRule>> = {
  [P in keyof R]: R[P] extends { repeated: object } ? string[] : string;
};

/**
 * Whether text holds a C0 control (NUL included), DEL or a C1 control; tab, line feed and carriage
 * return only count when `allowLines` is false.
 */
export function hasControlCharacters(text: string, allowLines = false): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (allowLines && (c === 9 || c === 10 || c === 13)) continue;
    if (c < 32 || (c >= 127 && c <= 159)) return true;
  }
  return false;
}

function isFormMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const [type, ...params] = contentType.split(';').map((p) => p.trim().toLowerCase());
  return (
    type === 'application/x-www-form-urlencoded' &&
    params.every((p) => p === '' || /^charset="?utf-8"?$/.test(p))
  );
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function checkValue(value: string, rule: FieldRule, label: string): void {
  if (value.length > rule.max)
    throw new FormProblem(400, `“${label}” is too long (at most ${rule.max} characters).`);
  if (hasControlCharacters(value, rule.multiline)) {
    throw new FormProblem(
      400,
      `“${label}” contains characters that are not allowed (control characters or line breaks).`,
    );
  }
}

/** The declared fields of a form (missing ones as '', or [] when repeated); undeclared fields are ignored. */
export function parseForm<R extends Record<string, FieldRule>>(
  raw: unknown,
  contentType: string | undefined,
  rules: R,
): FormFields<R> {
  if (!isFormMediaType(contentType))
    throw new FormProblem(415, 'This page accepts forms only (application/x-www-form-urlencoded).');
  let text: string;
  try {
    text = Buffer.isBuffer(raw) ? utf8.decode(raw) : '';
  } catch {
    throw new FormProblem(400, 'The form is not valid UTF-8 text.');
  }
  const params = new URLSearchParams(text);
  const out: Record<string, string | string[]> = {};
  for (const [name, rule] of Object.entries(rules)) {
    const values = params.getAll(name);
    const label = rule.label ?? name;
    if (rule.repeated) {
      if (values.length > rule.repeated.maxCount)
        throw new FormProblem(
          400,
          `“${label}” was sent ${values.length} times; at most ${rule.repeated.maxCount} at once.`,
        );
      for (const value of values) checkValue(value, rule, label);
      out[name] = values;
      continue;
    }
    if (values.length > 1)
      throw new FormProblem(400, `The field “${label}” was sent more than once.`);
    const value = values[0] ?? '';
    checkValue(value, rule, label);
    out[name] = value;
  }
  return out as FormFields<R>;
}
