/** Does nothing: the baseline the benchmarks compare real workflows against. */
export async function noopWorkflow(): Promise<void> {}
