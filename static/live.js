/* Live totals: poll the session's live endpoint every few seconds (ETag/304 while nothing
   changed) and swap in the new scoreboard and deals. The page works without it. */
(function () {
  "use strict";
  var box = document.getElementById("live");
  if (!box || !window.fetch) { return; }
  var url = box.getAttribute("data-live-url");
  var version = box.getAttribute("data-version");
  var EVERY = 3000;
  var timer = null;
  var busy = false;

  function schedule(delay) {
    if (timer) { clearTimeout(timer); }
    timer = setTimeout(poll, delay === undefined ? EVERY : delay);
  }

  /* The control a keyboard user was on inside the swapped part (by its id, or a link by its address), so the
     focus is put back on it instead of falling to the page's start. */
  function focusKey() {
    var el = document.activeElement;
    if (!el || el === box || !box.contains(el)) { return null; }
    if (el.id) { return { id: el.id }; }
    var href = el.getAttribute("href");
    return href ? { href: href } : null;
  }

  function refocus(key) {
    if (!key) { return; }
    var el = key.id ? document.getElementById(key.id) : null;
    if (!el && key.href) {
      el = Array.prototype.filter.call(box.querySelectorAll("a[href]"), function (a) {
        return a.getAttribute("href") === key.href;
      })[0];
    }
    if (el && box.contains(el)) { el.focus({ preventScroll: true }); }
  }

  function apply(data) {
    // a panel the reader opened (the earlier deals) stays open when the deals are swapped in
    var open = Array.prototype.map.call(box.querySelectorAll("details[id][open]"), function (el) { return el.id; });
    var focused = focusKey();
    box.innerHTML = data.html;
    open.forEach(function (id) {
      var el = document.getElementById(id);
      if (el && box.contains(el)) { el.open = true; }
    });
    refocus(focused);
    // a screen reader hears the new totals (and a banner: the target reached, the session ended)
    var said = box.querySelector("[data-announce]");
    var announcer = document.getElementById("announce");
    if (said && announcer) {
      var words = Array.prototype.map.call(box.querySelectorAll(".banner"), function (el) { return el.textContent.trim(); });
      announcer.textContent = words.concat([said.getAttribute("data-announce")]).join(" ");
    }
    version = String(data.version);
    box.setAttribute("data-version", version);
    Array.prototype.forEach.call(document.querySelectorAll("input[data-live-version]"), function (input) {
      input.value = version;
    });
    // the links outside the swapped part that name the next deal ("Enter my part of deal 3") follow it
    if (data.next_deal) {
      Array.prototype.forEach.call(document.querySelectorAll(".next-deal"), function (el) {
        el.textContent = String(data.next_deal);
      });
    }
    if (data.ended) {
      Array.prototype.forEach.call(document.querySelectorAll("#scorer-actions, #end-panel"), function (el) {
        el.classList.add("hidden");
      });
    }
    var event;
    try { event = new CustomEvent("kunken:live", { detail: data }); } catch (e) { event = null; }
    if (event) { document.dispatchEvent(event); }
  }

  function poll() {
    timer = null;
    if (document.hidden || busy) { schedule(); return; }
    busy = true;
    fetch(url, {
      headers: { "If-None-Match": "\"" + version + "\"", "Accept": "application/json" },
      cache: "no-store",
      credentials: "same-origin"
    }).then(function (response) {
      if (response.status === 200) { return response.json().then(apply); }
      return null;
    }).catch(function () { /* offline for a moment: try again later */ }).then(function () {
      busy = false;
      schedule();
    });
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { schedule(0); }
  });
  box.setAttribute("data-live", "on");
  schedule();
})();
