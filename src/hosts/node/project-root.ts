import { fileURLToPath } from 'node:url';

/** The project root, the same from `src/hosts/node` and from its build in `dist/hosts/node`. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
