import ExcelJS from 'exceljs';
import type { CellValue, Worksheet } from 'exceljs';
import type { DocumentSection } from '../document.js';
import type { ParsedContent } from './document-parser.js';
import { readOfficeFile } from './office-file.js';
import type { ParseLimits } from './parse-limits.js';
import { renderRows } from './render-rows.js';
import { readingAs, tooManyCells, tooManyColumns, tooManyPages } from './unreadable.js';

/** One section per sheet (page number = position in the workbook, heading = sheet name), rows as lines. */
export async function parseXlsx(filePath: string, limits: ParseLimits): Promise<ParsedContent> {
  const bytes = await readOfficeFile(filePath, 'xlsx', limits);
  return readingAs('XLSX', async () => {
    const workbook = new ExcelJS.Workbook();
    // exceljs types its input as an ArrayBuffer; a copy gives it one of exactly the file's length.
    await workbook.xlsx.load(new Uint8Array(bytes).buffer);
    const sheets = workbook.worksheets.length;
    if (sheets > limits.pages) throw tooManyPages(sheets, 'sheets', limits.pages);
    checkCells(workbook.worksheets, limits);
    const sections: DocumentSection[] = workbook.worksheets.map((sheet, i) => ({
      text: renderRows(sheetRows(sheet)),
      pageNumber: i + 1,
      headings: [sheet.name],
    }));
    return { sections, totalPages: sheets, title: workbook.title || undefined };
  });
}

// Rendering visits every cell up to a row's last one: a row holding only A1 and XFD1 costs 16,384 cells, not two.
function checkCells(sheets: readonly Worksheet[], limits: ParseLimits): void {
  let cells = 0;
  for (const sheet of sheets) {
    sheet.eachRow((row) => {
      if (row.cellCount > limits.tableColumns) throw tooManyColumns(row.cellCount, limits.tableColumns);
      cells += row.cellCount;
    });
  }
  if (cells > limits.tableCells) throw tooManyCells(limits.tableCells);
}

function sheetRows(sheet: Worksheet): string[][] {
  const rows: string[][] = [];
  sheet.eachRow((row) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      // A merged range reports its value in every cell; only the top-left one should say it.
      cells[column - 1] = cell.isMerged && cell.master.address !== cell.address ? '' : cellText(cell.value);
    });
    rows.push(Array.from(cells, (cell) => cell ?? ''));
  });
  return rows;
}

function cellText(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return dateText(value);
  if (typeof value !== 'object') return String(value);
  if ('richText' in value) return value.richText.map((run) => run.text).join('');
  if ('hyperlink' in value) return typeof value.text === 'string' ? value.text : cellText(value.text);
  if ('formula' in value || 'sharedFormula' in value) return cellText(value.result ?? null);
  return 'error' in value ? value.error : '';
}

// Excel dates have no zone; exceljs reads them as UTC.
function dateText(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19).replace('T', ' ');
}
