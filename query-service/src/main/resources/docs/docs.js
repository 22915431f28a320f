// Swagger UI over this deployment's own /openapi.json. A file, not an inline script, so the
// page's Content-Security-Policy can stay at script-src 'self'.
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  tryItOutEnabled: false,
  // The key travels in the Authorization header, never in the URL, and is forgotten on reload.
  persistAuthorization: false,
  validatorUrl: null
});
