/** Runs `work` over `items`, at most `concurrency` at once; results in the items' order. */
export async function mapConcurrent<T, R>(items: T[], concurrency: number, work: (item: T, position: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const position = next++;
      results[position] = await work(items[position]!, position);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return results;
}
