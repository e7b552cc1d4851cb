/** One printed table: a figure group's numbers, with the notes that qualify them. */
export interface Table {
  title: string;
  header: string[];
  rows: string[][];
  notes: string[];
}

/** The table as aligned plain text, for the terminal; the first column left-aligned, the rest right. */
export function tableText(table: Table): string {
  const all = [table.header, ...table.rows];
  const widths = table.header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [
    `== ${table.title}`,
    line(table.header),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...table.rows.map(line),
    ...table.notes.map((note) => `  ${note}`),
  ].join("\n");
}

/** The table as Markdown under a `###` heading, notes as a list. */
export function tableMarkdown(table: Table): string {
  const cells = (r: string[]): string => `| ${r.map((c) => c.replace(/\|/g, "\\|")).join(" | ")} |`;
  return [
    `### ${table.title}`,
    "",
    cells(table.header),
    cells(table.header.map((_, i) => (i === 0 ? "---" : "---:"))),
    ...table.rows.map(cells),
    ...(table.notes.length ? ["", ...table.notes.map((n) => `- ${n}`)] : []),
    "",
  ].join("\n");
}
