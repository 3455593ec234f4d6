/* The table screen follows the session (and the room screen a club night, templates/night_room.html): the live
   endpoint answers 304 until it changes, then the screen fetches itself again (passing the version it showed,
   so the new deal is highlighted) and swaps the new scoreboard in place. No reload: no blank flash on the TV, and the screen's wake
   lock and full-screen mode stay. */
(function () {
  "use strict";
  var box = document.getElementById("table-live") || document.getElementById("night-live");
  if (!box || !window.fetch || !window.DOMParser) { return; }
  var url = box.getAttribute("data-live-url");
  var version = box.getAttribute("data-version");
  var EVERY = 3000;

  function swapIn(html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    var fresh = page.getElementById(box.id);
    if (!fresh) { throw new Error("no live screen in the answer"); }
    box.innerHTML = fresh.innerHTML;
    version = fresh.getAttribute("data-version");
    box.setAttribute("data-version", version);
    document.title = page.title;
  }

  function refresh() {
    var target = box.getAttribute("data-reload-url") + "?since=" + encodeURIComponent(version);
    return fetch(target, { cache: "no-store", credentials: "same-origin" }).then(function (response) {
      if (!response.ok) { throw new Error("status " + response.status); }
      return response.text();
    }).then(swapIn);
  }

  function poll() {
    fetch(url, { headers: { "If-None-Match": "\"" + version + "\"" }, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        return response.status === 200 ? refresh() : null;
      })
      .then(function () { setTimeout(poll, EVERY); })
      .catch(function () { setTimeout(poll, 5000); });  /* offline for a moment: try again later */
  }
  setTimeout(poll, EVERY);
})();
