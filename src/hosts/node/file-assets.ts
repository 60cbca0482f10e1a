import { readFile } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AssetSource } from '../../api/site.ts';

/** The project root, the same from `src/hosts/node` and from its build in `dist/hosts/node`. */
export const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const MISSING = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

/** Reads `public/` from disk; a path that resolves outside `root` is never opened. */
export function fileAssets(root: string): AssetSource {
  const base = resolve(root);
  return {
    async read(path) {
      const file = resolve(base, path);
      if (!file.startsWith(base + sep)) return undefined;
      try {
        return await readFile(file);
      } catch (error) {
        if (MISSING.has((error as NodeJS.ErrnoException).code ?? '')) return undefined;
        throw error;
      }
    },
  };
}
