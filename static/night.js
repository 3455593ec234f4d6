/* The night's page (templates/night.html) follows the night by itself: its live address answers 304 until a table
   changes, a round starts or is undone, or the night ends; the page then fetches itself again and swaps the new
   content of #night-live in. Panels the reader opened (a scorer link's QR code) stay open, and the focus stays on
   the control it was on. Without scripts the page is the same, reloaded by hand. */
(function () {
  "use strict";
  var box = document.getElementById("night-live");
  if (!box || !window.fetch || !window.DOMParser) { return; }
  var version = box.getAttribute("data-version");
  var EVERY = 3000;

  function swapIn(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    var next = fresh.getElementById(box.id);
    if (!next) { throw new Error("no night in the answer"); }
    var open = Array.prototype.map.call(box.querySelectorAll("details[id][open]"), function (el) { return el.id; });
    var focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.id : null;
    box.innerHTML = next.innerHTML;
    version = next.getAttribute("data-version");
    box.setAttribute("data-version", version);
    document.title = fresh.title;
    open.forEach(function (id) {
      var el = document.getElementById(id);
      if (el && box.contains(el)) { el.open = true; }
    });
    var again = focused ? document.getElementById(focused) : null;
    if (again && box.contains(again)) { again.focus({ preventScroll: true }); }
  }

  function poll() {
    fetch(box.getAttribute("data-live-url"), {
      headers: { "If-None-Match": "\"" + version + "\"" }, cache: "no-store", credentials: "same-origin"
    }).then(function (response) {
      if (response.status !== 200) { return null; }
      return fetch(window.location.pathname, { cache: "no-store", credentials: "same-origin" }).then(function (page) {
        if (!page.ok) { throw new Error("status " + page.status); }
        return page.text();
      }).then(swapIn);
    }).then(function () { setTimeout(poll, EVERY); })
      .catch(function () { setTimeout(poll, 5000); });  /* offline for a moment: try again later */
  }

  setTimeout(poll, EVERY);
}());
