/** A form rule validator's result: resolve when there is no problem, else reject with the message. */
export function check(problem: string | null | undefined): Promise<void> {
  return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
}
