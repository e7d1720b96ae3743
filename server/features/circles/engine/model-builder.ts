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

  solve(runtime: Highs, options: SolveModelOptions) {
    const result = this.trySolve(runtime, options);
    if (result.status !== 'optimal') {
      throw new Error(`the solver stopped without an optimum (status ${result.code})`);
    }
    return result.values;
  }

  /**
   * The LP relaxation (every column continuous in 0..1) of the rows and `objective` (the column
   * costs when omitted), minimised by the simplex: the optimum's objective, column values and row
   * duals (reduced costs are `objective - A^T rowDual`), or null when HiGHS stops without an optimum.
   */
  relaxation(
    runtime: Highs,
    objective: readonly number[] = this.costs,
    timeLimitSeconds?: number,
  ): { objective: number; colValue: Float64Array; rowDual: Float64Array } | null {
    const model = runtime.createModel(this.modelData(runtime, objective, false));
    try {
      model.options.set('output_flag', false);
      model.options.set('solver', 'simplex');
      if (timeLimitSeconds) model.options.set('time_limit', timeLimitSeconds);
      model.run();
      if (model.getModelStatus() !== runtime.constants.modelStatus.optimal) return null;
      const solution = model.getSolution();
      return {
        objective: model.getObjectiveValue(),
        colValue: solution.colValue,
        rowDual: solution.rowDual,
      };
    } finally {
      model.dispose();
    }
  }

  /** Like `solve`, but an infeasible model (or a time limit without an incumbent) is a status, not an error. */
  trySolve(
    runtime: Highs,
    options: SolveModelOptions,
  ): { status: 'optimal'; values: Float64Array } | { status: 'infeasible' | 'stopped'; code: number } {
    const anyInteger = this.integer.some(Boolean);
    const model = runtime.createModel(this.modelData(runtime, this.costs, anyInteger));
    try {
      model.options.set('output_flag', false);
      if (!anyInteger) model.options.set('solver', 'simplex');
      if (options.presolve === false) model.options.set('presolve', 'off');
      if (options.timeLimitSeconds) model.options.set('time_limit', options.timeLimitSeconds);
      if (options.cutoff !== undefined) model.options.set('objective_bound', options.cutoff);
      if (options.maxNodes !== undefined) model.options.set('mip_max_nodes', options.maxNodes);
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
        return { status: 'optimal', values: model.getSolution().colValue };
      }
      if (status === runtime.constants.modelStatus.optimal)
        return { status: 'optimal', values: model.getSolution().colValue };
      return {
        status: status === runtime.constants.modelStatus.infeasible ? 'infeasible' : 'stopped',
        code: status,
      };
    } finally {
      model.dispose();
    }
  }

  private modelData(runtime: Highs, objective: readonly number[], withIntegrality: boolean) {
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
    return {
      numCols,
      numRows,
      colCost: Float64Array.from(objective),
      colLower: new Float64Array(numCols),
      colUpper: new Float64Array(numCols).fill(1),
      rowLower: Float64Array.from(this.rows, (row) => row.lower),
      rowUpper: Float64Array.from(this.rows, (row) => row.upper),
      matrix: { format: 'csr', numRows, numCols, starts, indices, values },
      ...(withIntegrality
        ? {
            integrality: Int32Array.from(this.integer, (flag) =>
              flag ? runtime.constants.variableType.integer : 0,
            ),
          }
        : {}),
    } as Parameters<Highs['createModel']>[0];
  }
}

/** How `ModelBuilder.solve` runs HiGHS. */
export interface SolveModelOptions {
  timeLimitSeconds?: number;
  objectives?: Array<{ coefficients: number[]; priority: number }>;
  /** At the time limit, answer the best solution found so far instead of failing. */
  incumbentOnTimeLimit?: boolean;
  /** A feasible solution to start from (a MIP start), one value per column. */
  start?: readonly number[];
  /** False: no presolve (HiGHS's presolve takes seconds on set-packing models of 40,000 columns). */
  presolve?: boolean;
  /** Only solutions whose (first) objective is below this count (HiGHS's objective_bound). */
  cutoff?: number;
  /** Stop after this many branch-and-bound nodes (HiGHS's mip_max_nodes): a 'stopped' status. */
  maxNodes?: number;
}
