// Copies the files the pages load from npm packages into public/build/, so the service serves
// them itself: no page loads anything from another origin.
import { cpSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const target = new URL('../public/build/', import.meta.url).pathname;

const swaggerUi = dirname(require.resolve('swagger-ui-dist/package.json'));
const files = {
  'todomvc-app-css/index.css': require.resolve('todomvc-app-css/index.css'),
  'swagger-ui/swagger-ui-bundle.js': join(swaggerUi, 'swagger-ui-bundle.js'),
  'swagger-ui/swagger-ui.css': join(swaggerUi, 'swagger-ui.css'),
};
for (const [name, source] of Object.entries(files)) cpSync(source, join(target, name));
