/**
 * A submitted value as error descriptions may quote it (the reference names the scope or URI
 * it refuses): short printable values only, so an error never carries a large or odd input
 * back (STYLE.md, Errors).
 */
export function quoted(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.length <= 100 && !/[\u0000-\u001f\u007f]/.test(value) ? value : "(value omitted)";
}
