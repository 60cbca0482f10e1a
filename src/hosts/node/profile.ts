export const PROFILES = ['dev', 'prod'] as const;
export type Profile = (typeof PROFILES)[number];

/** The start argument: none means `prod`; anything but one known profile is an error. */
export function parseProfile(args: readonly string[]): Profile | { error: string } {
  if (args.length === 0) return 'prod';
  const [given] = args;
  if (args.length === 1 && PROFILES.includes(given as Profile)) return given as Profile;
  return {
    error: `Unknown start argument "${args.join(' ')}". Choose one profile: ${PROFILES.join(', ')} (default prod).`,
  };
}
