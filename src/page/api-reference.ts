/** Swagger UI's bundle, loaded by docs.html before this module, defines this global. */
declare const SwaggerUIBundle: (
  options: { validatorUrl: null } & Record<string, unknown>,
) => unknown;

SwaggerUIBundle({
  url: '/api/openapi.json',
  dom_id: '#api-reference',
  // Its default sends the document to validator.swagger.io: the page talks to no other origin.
  validatorUrl: null,
  deepLinking: true,
});
