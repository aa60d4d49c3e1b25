/** One finding. `path` is the JSON path inside `file` ('' = the whole file). */
export interface ValidationProblem {
  readonly severity: 'error' | 'warning';
  readonly file: string;
  readonly path: string;
  readonly message: string;
  readonly expected?: string;
  readonly got?: string;
}
