/* The table screen follows the session through static/live.js, which swaps in the parts that changed. No reload:
   no blank flash on the TV, and the screen's wake lock and full-screen mode stay. When new totals arrive, each
   player's change from the deal is highlighted for a few seconds. */
(function () {
  "use strict";
  document.addEventListener("kunken:live", function (event) {
    var data = event.detail || {};
    if (data.html === undefined && !(data.parts && data.parts["table-totals"])) { return; }
    Array.prototype.forEach.call(document.querySelectorAll(".table-standings .change[data-change]"), function (el) {
      el.classList.add("fresh");
    });
  });
})();
