/** A whole number from `low` to `high`, both included. */
export const between = (low: number, high: number) =>
  low + Math.floor(Math.random() * (high - low + 1));

/** One of `choices`, each as likely as its weight. */
export function weighted<T>(choices: readonly (readonly [T, number])[]): T {
  const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
  let roll = Math.random() * total;
  for (const [choice, weight] of choices) {
    roll -= weight;
    if (roll < 0) return choice;
  }
  return choices[choices.length - 1]![0];
}
