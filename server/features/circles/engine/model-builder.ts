import type { Highs } from 'highs';

/** HiGHS's primal_solution_status for a feasible solution (kSolutionStatusFeasible). */
const FEASIBLE_SOLUTION = 2;

/** A sparse model of 0..1 columns built row by row, for HiGHS's structured API. */
export class ModelBuilder {
  readonly costs: number[] = [];
  readonly integer: boolean[] = [];
  /** Rows as lists of column indices (all coefficients 1 unless given). */
  readonly rows: Array<{ cols: number[]; coefs?: number[]; lower: number; upper: number }> = [];

  column(cost: number, integer = false): number {
    this.costs.push(cost);
    this.integer.push(integer);
    return this.costs.length - 1;
  }

  row(cols: number[], lower: number, upper: number, coefs?: number[]): void {
    this.rows.push({ cols, coefs, lower, upper });
  }

  solve(
    runtime: Highs,
    options: {
      timeLimitSeconds?: number;
      objectives?: Array<{ coefficients: number[]; priority: number }>;
      /** At the time limit, answer the best solution found so far instead of failing. */
      incumbentOnTimeLimit?: boolean;
      /** A feasible solution to start from (a MIP start), one value per column. */
      start?: readonly number[];
    },
  ) {
    const numCols = this.costs.length;
    const numRows = this.rows.length;
    const starts = new Int32Array(numRows + 1);
    let nnz = 0;
    for (let r = 0; r < numRows; r++) nnz += this.rows[r]?.cols.length ?? 0;
    const indices = new Int32Array(nnz);
    const values = new Float64Array(nnz);
    let k = 0;
    for (let r = 0; r < numRows; r++) {
      starts[r] = k;
      const row = this.rows[r];
      if (!row) continue;
      for (let j = 0; j < row.cols.length; j++) {
        indices[k] = row.cols[j] as number;
        values[k] = row.coefs?.[j] ?? 1;
        k++;
      }
    }
    starts[numRows] = k;
    const anyInteger = this.integer.some(Boolean);
    const model = runtime.createModel({
      numCols,
      numRows,
      colCost: Float64Array.from(this.costs),
      colLower: new Float64Array(numCols),
      colUpper: new Float64Array(numCols).fill(1),
      rowLower: Float64Array.from(this.rows, (row) => row.lower),
      rowUpper: Float64Array.from(this.rows, (row) => row.upper),
      matrix: { format: 'csr', numRows, numCols, starts, indices, values },
      ...(anyInteger
        ? {
            integrality: Int32Array.from(this.integer, (flag) =>
              flag ? runtime.constants.variableType.integer : 0,
            ),
          }
        : {}),
    } as Parameters<Highs['createModel']>[0]);
    try {
      model.options.set('output_flag', false);
      if (!anyInteger) model.options.set('solver', 'simplex');
      if (options.timeLimitSeconds) model.options.set('time_limit', options.timeLimitSeconds);
      if (options.objectives) {
        // Lexicographic, not a weighted blend: the first objective's optimum is kept exactly.
        model.options.set('blend_multi_objectives', false);
        model.passLinearObjectives(
          options.objectives.map((objective) => ({
            weight: 1,
            offset: 0,
            coefficients: Float64Array.from(objective.coefficients),
            absoluteTolerance: 0.5,
            relativeTolerance: 0,
            priority: objective.priority,
          })),
        );
      }
      if (options.start) model.setSolution({ colValue: Float64Array.from(options.start) });
      model.run();
      const status = model.getModelStatus();
      // Out of time with a feasible incumbent: the best found so far, when the caller takes it.
      if (
        options.incumbentOnTimeLimit &&
        status === runtime.constants.modelStatus.timeLimit &&
        Number(model.info.get('primal_solution_status')) === FEASIBLE_SOLUTION
      ) {
        return model.getSolution().colValue;
      }
      if (status !== runtime.constants.modelStatus.optimal) {
        throw new Error(`the solver stopped without an optimum (status ${status})`);
      }
      return model.getSolution().colValue;
    } finally {
      model.dispose();
    }
  }
}
