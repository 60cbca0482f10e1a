/**
 * The length of `text` in Unicode code points, as limits on names and titles count it: an
 * emoji outside the Basic Multilingual Plane is one character, not two UTF-16 units.
 */
export function countCodePoints(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
