import { html, type SafeHtml } from './html.js';

export interface Column<T> {
  label: string;
  cell: (item: T) => SafeHtml | string | number;
  /** The cell that names the row (a `th scope="row"`): the card's title on a phone. */
  names?: boolean;
  /** The row's action (undo, run now): never hidden, the card's last line on a phone. */
  action?: boolean;
  className?: string;
}

export interface CardTableOptions<T> {
  /** Read by screen readers (and the table's name for them). */
  caption: string;
  /** Classes of the table (`leavers`, `rows`, …): tests and the stylesheet find tables by them. */
  className: string;
  columns: ReadonlyArray<Column<T>>;
  items: readonly T[];
}

/**
 * Every table of the dashboard: on a wide screen a table that fits its box (long words wrap, nothing is cut and the
 * action column is never pushed out of sight); on a phone each row becomes a card, every cell labelled with its
 * column's header, the row's action last and full width. No table makes the page, or its own box, scroll sideways.
 */
export function cardTable<T>(options: CardTableOptions<T>): SafeHtml {
  const { columns } = options;
  return html`<div class="table-box"><table class="cards ${options.className}">
<caption class="visually-hidden">${options.caption}</caption>
<thead><tr>${columns.map((column) => html`<th scope="col"${column.action === true ? html` class="action-cell"` : ''}>${column.label}</th>`)}</tr></thead>
<tbody>${options.items.map(
    (item) => html`<tr>${columns.map((column) => {
      const content = column.cell(item);
      const classes = [column.className, column.action === true ? 'action-cell' : undefined].filter((name) => name !== undefined).join(' ');
      const attributes = html` data-label="${column.label}"${classes === '' ? '' : html` class="${classes}"`}`;
      return column.names === true ? html`<th scope="row"${attributes}>${content}</th>` : html`<td${attributes}>${content}</td>`;
    })}</tr>`,
  )}</tbody>
</table></div>`;
}
