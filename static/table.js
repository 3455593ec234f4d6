/* The table screen reloads itself when the session changes (the live endpoint answers 304 until then),
   passing the version it showed so the new page can highlight the deal that just arrived. */
(function () {
  "use strict";
  var box = document.getElementById("table-live");
  if (!box || !window.fetch) { return; }
  var url = box.getAttribute("data-live-url");
  var version = box.getAttribute("data-version");
  function poll() {
    fetch(url, { headers: { "If-None-Match": "\"" + version + "\"" }, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 200) {
          window.location.replace(box.getAttribute("data-reload-url") + "?since=" + encodeURIComponent(version));
          return;
        }
        setTimeout(poll, 3000);
      })
      .catch(function () { setTimeout(poll, 5000); });
  }
  setTimeout(poll, 3000);
})();
