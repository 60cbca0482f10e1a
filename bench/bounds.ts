/** Thrown when a phase overruns its time limit; the runner stops everything and says which. */
class PhaseTimeout extends Error {
  override readonly name = 'PhaseTimeout';
}

/** Runs one phase of the benchmark, or rejects once `seconds` have passed. */
export async function withinSeconds<T>(
  label: string,
  seconds: number,
  phase: () => Promise<T>,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const overrun = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new PhaseTimeout(`${label} did not finish within ${seconds} s; stopping.`)),
      seconds * 1000,
    );
  });
  try {
    return await Promise.race([phase(), overrun]);
  } finally {
    clearTimeout(timer);
  }
}
