// Starts Scalar's API reference on the docs page (scripts/docs/build.ts copies this file
// beside index.html). A file of its own, not inline script: the page's Content-Security-Policy
// allows scripts from the directory only. The document and the configuration are JSON data
// elements of index.html.
(function () {
  var read = function (id) {
    return JSON.parse(document.getElementById(id).textContent);
  };
  var configuration = read("scalar-configuration");
  configuration.content = read("openapi-document");
  window.Scalar.createApiReference("#app", configuration);
})();
