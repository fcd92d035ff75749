// /api/v1/docs (views/api_docs.py): Swagger UI, vendored in static/js/swagger-ui/, draws the API's
// OpenAPI document; "Try it out" sends to this same server (the document's server is /api/v1),
// with the bearer token given under "Authorize". In a file of its own: the app's
// Content-Security-Policy runs no inline script. Dark mode is Swagger UI's own (.dark-mode).
(function () {
  "use strict";
  var root = document.getElementById("swagger-ui");
  if (window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches) {
    document.documentElement.classList.add("dark-mode");
  }
  window.SwaggerUIBundle({
    url: root.getAttribute("data-document"),
    domNode: root,
    deepLinking: true,
    validatorUrl: null, // no request to swagger.io: the page asks this server only
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
})();
