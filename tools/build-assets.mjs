// The files of public/build/ that are not compiled: what the pages load from npm packages,
// copied so the service serves them itself (no page loads anything from another origin), and
// the OpenAPI document, from docs/openapi.yaml, as the JSON the service serves once it has put
// its settings in place of each ${group.key}.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';

const require = createRequire(import.meta.url);
const target = new URL('../public/build/', import.meta.url).pathname;

const swaggerUi = dirname(require.resolve('swagger-ui-dist/package.json'));
const files = {
  'todomvc-app-css/index.css': require.resolve('todomvc-app-css/index.css'),
  'swagger-ui/swagger-ui-bundle.js': join(swaggerUi, 'swagger-ui-bundle.js'),
  'swagger-ui/swagger-ui.css': join(swaggerUi, 'swagger-ui.css'),
};
for (const [name, source] of Object.entries(files)) cpSync(source, join(target, name));

const document = readFileSync(new URL('../docs/openapi.yaml', import.meta.url), 'utf8');
// `merge`: the document shares the parts of its problems with YAML's `<<` merge keys.
writeFileSync(join(target, 'openapi.json'), JSON.stringify(parse(document, { merge: true })));
