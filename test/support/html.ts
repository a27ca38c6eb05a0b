/**
 * @module test/support/html
 * Reading the dashboard's server-rendered pages in tests, as plainly as a
 * screen reader would: a field's value, whether a box is ticked, the error
 * beside a field, a table's rows. The pages escape text as numeric
 * character references, which `decode` turns back.
 */

export function decode(html: string): string {
  return html
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"');
}

/** The visible text of a piece of markup, spaces collapsed. */
export function textOf(html: string): string {
  return decode(html.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();
}

/** The opening tag of the element with this id, or undefined. */
export function tagById(html: string, id: string): string | undefined {
  return new RegExp(`<[a-z]+\\b[^>]*\\bid="${id}"[^>]*>`).exec(html)?.[0];
}

/** The value of the input with this id ('' when it has none); a textarea's text. */
export function valueOf(html: string, id: string): string | undefined {
  const textarea = new RegExp(`<textarea\\b[^>]*\\bid="${id}"[^>]*>([\\s\\S]*?)</textarea>`).exec(html);
  if (textarea) return decode(textarea[1]!);
  const tag = tagById(html, id);
  if (!tag) return undefined;
  return decode(/\bvalue="([^"]*)"/.exec(tag)?.[1] ?? '');
}

export function isChecked(html: string, id: string): boolean {
  const tag = tagById(html, id);
  if (!tag) throw new Error(`no element #${id}`);
  return /\schecked\b/.test(tag);
}

/** The option of a select that is selected. */
export function selectedOption(html: string, id: string): string | undefined {
  const select = new RegExp(`<select\\b[^>]*\\bid="${id}"[^>]*>([\\s\\S]*?)</select>`).exec(html)?.[1] ?? '';
  return /<option value="([^"]*)"[^>]*\sselected\b/.exec(select)?.[1];
}

/** The error shown beside the field with this id, or undefined; asserts the field points at it. */
export function errorBeside(html: string, id: string): string | undefined {
  const error = new RegExp(`<p class="field-error" id="${id}-error">([\\s\\S]*?)</p>`).exec(html);
  return error ? textOf(error[1]!) : undefined;
}

/** The text of the element with this id (its whole content, markup removed). */
export function textById(html: string, id: string): string | undefined {
  const match = new RegExp(`<([a-z]+)\\b[^>]*\\bid="${id}"[^>]*>([\\s\\S]*?)</\\1>`).exec(html);
  return match ? textOf(match[2]!) : undefined;
}

/** The rows (<tr> in <tbody>) of the table with this id, as their opening tag and text. */
export function tableRows(html: string, id: string): Array<{ tag: string; html: string; text: string }> {
  const table = new RegExp(`<table\\b[^>]*\\bid="${id}"[^>]*>([\\s\\S]*?)</table>`).exec(html)?.[1];
  if (!table) return [];
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(table)?.[1] ?? '';
  return [...body.matchAll(/(<tr\b[^>]*>)([\s\S]*?)<\/tr>/g)].map((m) => ({ tag: m[1]!, html: m[2]!, text: textOf(m[2]!) }));
}
