// The interactive API docs at /docs: Swagger UI over /openapi.json, from files this server
// serves itself (no CDN: the server may run offline, and the Content-Security-Policy allows
// only its own scripts, so this start-up code is a file, not an inline script).
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  layout: "BaseLayout",
});
