/* The room screen follows the whole club night: the night's live address answers 304 until a table records,
   changes or undoes a deal (or a round starts), then the screen fetches itself again and swaps the new
   standings in place. No reload: no blank flash on the TV, and the screen's wake lock and full screen stay. */
(function () {
  "use strict";
  var box = document.getElementById("night-live");
  if (!box || !window.fetch || !window.DOMParser) { return; }
  var url = box.getAttribute("data-live-url");
  var version = box.getAttribute("data-version");
  var EVERY = 3000;

  function swapIn(html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var fresh = page.getElementById("night-live");
    if (!fresh) { throw new Error("no room screen in the answer"); }
    box.innerHTML = fresh.innerHTML;
    version = fresh.getAttribute("data-version");
    box.setAttribute("data-version", version);
    document.title = page.title;
  }

  function refresh() {
    return fetch(box.getAttribute("data-reload-url"), { cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error("status " + response.status); }
        return response.text();
      }).then(swapIn);
  }

  function poll() {
    fetch(url, { headers: { "If-None-Match": "W/\"" + version + "\"" }, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        return response.status === 200 ? refresh() : null;
      })
      .then(function () { setTimeout(poll, EVERY); })
      .catch(function () { setTimeout(poll, 5000); });  /* offline for a moment: try again later */
  }
  setTimeout(poll, EVERY);
})();
