/* Live updates for the session page's scoreboard and deals, the table screen and the room screen: every second the
   screen asks what changed since the version it shows. The answer is a 304 while nothing did, else the parts that
   changed and the splices of any list whose parts came or went (kunken_scorer/web/deltas.py), or the whole live part
   when the server no longer has the screen's version. Then a "kunken:live" event tells the page's own script
   (table.js, room.js). The page works without it. */
(function () {
  "use strict";
  var box = document.querySelector("[data-live-url]");
  if (!box || !window.fetch) { return; }
  var url = box.getAttribute("data-live-url");
  var version = box.getAttribute("data-version");
  var EVERY = 1000;  /* docs/decisions.md, "Live updates": a 304 costs the server about a health check */
  var timer = null;
  var busy = false;

  function schedule(delay) {
    if (timer) { clearTimeout(timer); }
    timer = setTimeout(poll, delay === undefined ? EVERY : delay);
  }

  /* The control a keyboard user was on inside the live part (by its id, or a link by its address), so the
     focus is put back on it instead of falling to the page's start. */
  function focusKey() {
    var el = document.activeElement;
    if (!el || el === box || !box.contains(el)) { return null; }
    if (el.id) { return { id: el.id }; }
    var href = el.getAttribute("href");
    return href ? { href: href } : null;
  }

  function refocus(key) {
    if (!key || box.contains(document.activeElement)) { return; }
    var el = key.id ? document.getElementById(key.id) : null;
    if (!el && key.href) {
      el = Array.prototype.filter.call(box.querySelectorAll("a[href]"), function (a) {
        return a.getAttribute("href") === key.href;
      })[0];
    }
    if (el && box.contains(el)) { el.focus({ preventScroll: true }); }
  }

  function element(html) {
    var holder = document.createElement("template");
    holder.innerHTML = html;
    return holder.content.firstElementChild;
  }

  /* A list's parts in the order given, the new and changed ones put in place (a part may come from another list:
     a deal folding into the earlier deals). */
  function order(list, ids, fresh) {
    var cursor = list.querySelector(":scope > [data-item]") || list.querySelector(":scope > [data-list-end]");
    ids.forEach(function (id) {
      var el = fresh[id];
      var old = document.getElementById(id);
      if (el) {
        delete fresh[id];
        if (old) {
          if (old === cursor) { cursor = old.nextElementSibling; }
          old.remove();
        }
      } else {
        el = old;
      }
      if (!el) { return; }
      if (el === cursor) { cursor = el.nextElementSibling; } else { list.insertBefore(el, cursor); }
    });
  }

  function patch(data) {
    var fresh = {};
    Object.keys(data.parts).forEach(function (id) { fresh[id] = element(data.parts[id]); });
    // each list's new ids: the server's splices ([at, removed, ...added], last first) applied to the ids shown
    var lists = {}, wanted = {};
    Object.keys(data.lists).forEach(function (id) {
      var list = document.getElementById(id);
      if (!list) { return; }
      var ids = Array.prototype.map.call(list.querySelectorAll(":scope > [data-item]"), function (el) { return el.id; });
      data.lists[id].slice().reverse().forEach(function (step) { ids.splice.apply(ids, step); });
      lists[id] = ids;
      ids.forEach(function (part) { wanted[part] = true; });
    });
    Object.keys(lists).forEach(function (id) {  // the parts that went (a deal deleted) leave first
      Array.prototype.forEach.call(document.getElementById(id).querySelectorAll(":scope > [data-item]"), function (el) {
        if (!wanted[el.id]) { el.remove(); }
      });
    });
    Object.keys(lists).forEach(function (id) { order(document.getElementById(id), lists[id], fresh); });
    Object.keys(fresh).forEach(function (id) {
      var old = document.getElementById(id);
      if (old) { old.replaceWith(fresh[id]); }
    });
  }

  function apply(data) {
    // a panel the reader opened (the earlier deals) stays open when the whole part is swapped in
    var open = Array.prototype.map.call(box.querySelectorAll("details[id][open]"), function (el) { return el.id; });
    var focused = focusKey();
    if (data.html !== undefined) {
      box.innerHTML = data.html;
      open.forEach(function (id) {
        var el = document.getElementById(id);
        if (el && box.contains(el)) { el.open = true; }
      });
    } else {
      patch(data);
    }
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
    // the links outside the live part that name the next deal ("Enter my part of deal 3") follow it
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
    var asked = version;
    fetch(url + (url.indexOf("?") < 0 ? "?" : "&") + "since=" + encodeURIComponent(asked), {
      headers: { "If-None-Match": "\"" + asked + "\"", "Accept": "application/json" },
      cache: "no-store",
      credentials: "same-origin"
    }).then(function (response) {
      if (response.status === 200) {
        return response.json().then(function (data) {
          // a delta is from the version asked about: applied only while the screen still shows it
          if (data.html !== undefined || asked === version) { apply(data); }
        });
      }
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
