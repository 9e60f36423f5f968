import type { Action } from './action.js';
import type { LocalFile } from './local-file.js';

/** One valid data row of a manifest. `row` counts data rows from 1 (the header is not a row); `line` is the source line. */
export interface ManifestRow {
  row: number;
  line: number;
  action: Action;
  /** The file the row uploads (image, file), as checked when the manifest was read. */
  upload?: LocalFile;
}

/** Why a row (or the whole file, row 0) was refused, in words a person acts on. */
export interface RowProblem {
  /** 1-based data row; 0 for a problem of the whole file (no header, empty file, too many rows). */
  row: number;
  /** 1-based source line where the row starts; 0 when unknown. */
  line: number;
  /** The manifest field at fault, in the manifest's canonical spelling (`email`, `transferTo`, `sheetId`…). */
  field?: string;
  message: string;
}
