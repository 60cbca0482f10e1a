import { execFileSync } from 'node:child_process';

/** The entry-point tests start the built service, as `npm start` does: build it once first. */
export default function build(): void {
  execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
}
