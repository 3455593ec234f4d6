/* The draft of the next deal, live (templates/draft.html and part.html): poll the draft's tag
   (ETag, 304 while nothing changed) and, when it moves, fetch the page as it is now and swap in
   its [data-live] parts. A seat's page reloads when the deal it was for has been recorded; on
   the scorer's page a change of how the deal ended is saved at once ("Check").
   The pages work without it. */
(function () {
  "use strict";
  var root = document.querySelector("[data-draft-live]");
  if (!root || !window.fetch || !window.DOMParser) { return; }
  var url = root.getAttribute("data-draft-live");
  var tag = root.getAttribute("data-tag");
  var deal = root.getAttribute("data-deal");
  var partPage = root.id === "part-form";
  var endForm = document.getElementById("draft-form");
  var EVERY = 2000;
  var timer = null;
  var busy = false;

  function schedule(delay) {
    if (timer) { clearTimeout(timer); }
    timer = setTimeout(poll, delay === undefined ? EVERY : delay);
  }

  function swap(doc) {
    if (window.kunkenEntry) { window.kunkenEntry.apply(doc); return; }
    var focused = document.activeElement;
    var announcer = document.getElementById("announce");
    Array.prototype.forEach.call(doc.querySelectorAll("[data-live][id]"), function (fresh) {
      var here = document.getElementById(fresh.id);
      if (!here) { return; }
      var words = fresh.getAttribute("data-announce");  // "Parts in: 2 of 3." said when it changes
      if (words && words !== here.getAttribute("data-announce")) {
        here.setAttribute("data-announce", words);
        if (announcer) { announcer.textContent = words; }
      }
      if (here.innerHTML === fresh.innerHTML) { return; }
      if (focused && focused !== document.body && here.contains(focused)) { return; }  // being used
      here.innerHTML = fresh.innerHTML;
    });
    Array.prototype.forEach.call(doc.querySelectorAll("[data-live-value][id]"), function (fresh) {
      var here = document.getElementById(fresh.id);
      if (here) { here.value = fresh.value; }
    });
  }

  function refresh() {
    return fetch(window.location.pathname, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.text(); })
      .then(function (html) { swap(new DOMParser().parseFromString(html, "text/html")); });
  }

  function poll() {
    timer = null;
    if (document.hidden || busy || (window.kunkenEntry && window.kunkenEntry.busy())) { schedule(); return; }
    busy = true;
    root.setAttribute("data-polling", "true");
    fetch(url, { headers: { "If-None-Match": "\"" + tag + "\"", "Accept": "application/json" },
                 cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status !== 200) { return null; }
        return response.json().then(function (data) {
          tag = String(data.tag);
          if (partPage && String(data.deal) !== deal) {
            window.location.reload();  // that deal is recorded: this phone goes on to the next one
            return null;
          }
          return refresh();
        });
      })
      .catch(function () { /* offline for a moment: try again later */ })
      .then(function () {
        busy = false;
        root.setAttribute("data-polling", "false");
        root.setAttribute("data-tag", tag);
        schedule();
      });
  }

  if (endForm) {
    endForm.addEventListener("change", function (event) {
      if (!event.target.closest("#draft-end")) { return; }
      var body = new FormData(endForm);
      body.delete("record");
      body.set("check", "1");
      busy = true;
      fetch(endForm.getAttribute("action"), { method: "POST", body: body, credentials: "same-origin" })
        .then(function (response) { return response.text(); })
        .then(function (html) { swap(new DOMParser().parseFromString(html, "text/html")); })
        .catch(function () { /* the scorer's Record sends the end again */ })
        .then(function () { busy = false; schedule(0); });
    });
  }
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { schedule(0); } });
  root.setAttribute("data-live-on", "true");
  schedule();
})();
