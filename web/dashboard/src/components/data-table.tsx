import type { ReactNode } from 'react';

interface DataTableProps {
  /** Said to screen readers: what the rows are. */
  caption: string;
  columns: readonly string[];
  /** A last column of buttons for each row (its heading is only for screen readers). */
  actions?: boolean;
  /** `stack` turns rows into labelled cards on narrow screens (each cell carries its `data-label`). */
  layout?: 'stack' | 'compact';
  /** The rows. */
  children: ReactNode;
}

/** A table of records, scrolling sideways inside its box when it is wider than the page. */
export function DataTable({ caption, columns, actions = false, layout = 'stack', children }: DataTableProps) {
  return (
    <div className="table-wrap">
      <table className={`table table-${layout}`}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
            {actions && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
