/** One line of the benchmark table. */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
  note?: string;
}
