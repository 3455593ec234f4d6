/* The draft of the next deal, live (templates/draft.html and part.html): poll the draft's tag
   (ETag, 304 while nothing changed) and, when it moves, fetch the page as it is now and swap in
   its [data-live] parts. A seat's page reloads when the deal it was for has been recorded (at once when
   idle, after a few seconds at most while typing or a choice is under way); on the scorer's page a change of
   how the deal ended is saved at once ("Check"), and a seat's opened phone actions stay open.
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
  var moved = 0;  // polls that found this part page's deal recorded while the entry was busy

  function schedule(delay) {
    if (timer) { clearTimeout(timer); }
    timer = setTimeout(poll, delay === undefined ? EVERY : delay);
  }

  function swap(doc, askedAt) {
    if (partPage && doc.title) { document.title = doc.title; }  // "Deal 2 · Anna" once a refused save moved it on
    if (window.kunkenEntry) { window.kunkenEntry.apply(doc, askedAt); return; }
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
      // a seat's phone actions the scorer opened stay open
      var open = Array.prototype.map.call(here.querySelectorAll("details[id][open]"), function (el) { return el.id; });
      here.innerHTML = fresh.innerHTML;
      open.forEach(function (id) { var el = document.getElementById(id); if (el) { el.open = true; } });
    });
    Array.prototype.forEach.call(doc.querySelectorAll("[data-live-value][id]"), function (fresh) {
      var here = document.getElementById(fresh.id);
      if (here) { here.value = fresh.value; }
    });
  }

  function refresh() {
    var askedAt = window.performance.now();  // a part page leaves an answer older than its own last save
    return fetch(window.location.pathname, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.text(); })
      .then(function (html) { swap(new DOMParser().parseFromString(html, "text/html"), askedAt); });
  }

  function entryBusy() { return !!(window.kunkenEntry && window.kunkenEntry.busy()); }

  /* The deal this part page is for now: its deal field (a refused save's answer moves it on), else the page's. */
  function shownDeal() {
    var field = root.querySelector("input[name=deal]");
    return (field && field.value) || deal;
  }

  function poll() {
    timer = null;
    // a part page asks even while its entry is busy: a recorded deal must not wait for a choice to be made
    if (document.hidden || busy || (!partPage && entryBusy())) { schedule(); return; }
    busy = true;
    root.setAttribute("data-polling", "true");
    fetch(url, { headers: { "If-None-Match": "\"" + tag + "\"", "Accept": "application/json" },
                 cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status !== 200) { return null; }
        return response.json().then(function (data) {
          if (partPage && String(data.deal) !== shownDeal()) {
            // that deal is recorded: this phone goes on to the next one. Typing or a save under way gets its
            // answer first (the deal was recorded) unless that takes long; what was typed is kept on the phone
            // and offered again after the reload.
            moved += 1;
            if (!entryBusy() || moved > 2) { window.location.reload(); }
            return null;
          }
          moved = 0;
          if (entryBusy()) { return null; }  // its own answer brings the page; this change is fetched after
          tag = String(data.tag);
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
