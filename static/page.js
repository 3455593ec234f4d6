// What every page does. A message a save, an undo or a seat left (p.flash) takes the focus as the page
// opens, so a screen reader reads it at once (a live region already in the page when it loads is not read).
(function () {
  "use strict";
  var flash = document.querySelector("main > p.flash");
  if (flash && (!document.activeElement || document.activeElement === document.body)) {
    flash.setAttribute("tabindex", "-1");
    flash.focus({ preventScroll: true });
  }
}());

// Keep the screen awake while a page marked data-wake-lock is open (Screen Wake Lock API, where the browser has it).
(function () {
  "use strict";
  if (!document.body || !document.body.hasAttribute("data-wake-lock") || !("wakeLock" in navigator)) {
    return;
  }
  var lock = null;
  function acquire() {
    if (document.visibilityState !== "visible" || lock) {
      return;
    }
    navigator.wakeLock.request("screen").then(function (sentinel) {
      lock = sentinel;
      document.body.setAttribute("data-wake-lock", "on");
      sentinel.addEventListener("release", function () {
        lock = null;
        document.body.setAttribute("data-wake-lock", "off");
      });
    }).catch(function () {
      document.body.setAttribute("data-wake-lock", "unavailable");
    });
  }
  document.addEventListener("visibilitychange", acquire);
  acquire();
}());

// A container query done here: an element marked data-narrow="N" has the class "narrow" while its content box is
// narrower than N rem (the screen's width, or the text's size, changed it), for style.css to lay its insides out
// for a large text. Not CSS's container queries: Chromium now and then left a control inside a size container
// without a box ("Who went out" not drawn, and skipped by Tab) until something redrew the page.
(function () {
  "use strict";
  if (!window.ResizeObserver) { return; }
  var observer = new window.ResizeObserver(function (entries) {
    var rem = parseFloat(window.getComputedStyle(document.documentElement).fontSize);
    entries.forEach(function (entry) {
      var el = entry.target;
      // a box not drawn (the keypad while hidden) has no width to go by: it keeps its class, or it would open
      // narrow and then widen in the next frame, its keys jumping (issue 48: layout shift)
      if (!entry.contentRect.width) { return; }
      el.classList.toggle("narrow", entry.contentRect.width < parseFloat(el.getAttribute("data-narrow")) * rem);
    });
  });
  Array.prototype.forEach.call(document.querySelectorAll("[data-narrow]"), function (el) { observer.observe(el); });
}());
