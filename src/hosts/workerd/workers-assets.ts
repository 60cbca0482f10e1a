import type { AssetSource } from '../../http/static-files.ts';

/** Any origin will do: the binding looks only at the path. */
const ASSETS_ORIGIN = 'https://assets.invalid';

/**
 * `public/` as Workers static assets, read through the `ASSETS` binding. The handler decides
 * which paths may be served and with which headers, as it does on Node; `html_handling = "none"`
 * in `wrangler.toml` makes the binding answer each file at its own path, without redirects.
 */
export function workersAssets(assets: Fetcher): AssetSource {
  return {
    async read(path) {
      const url = `${ASSETS_ORIGIN}/${path.split('/').map(encodeURIComponent).join('/')}`;
      const response = await assets.fetch(url);
      if (response.status === 404) {
        await response.body?.cancel();
        return undefined;
      }
      if (!response.ok) throw new Error(`Workers assets answered ${response.status} for ${path}`);
      return new Uint8Array(await response.arrayBuffer());
    },
  };
}
