/* What a phone is typing is kept on the phone until the table's server has it (every page loads this).

   - kunkenKeep.put/get/drop: a form's fields in localStorage under "kunken:<key>", with the time; a copy
     outlives a reload, a trip to another page, a closed tab and a restarted browser. It goes only when the
     server has stored what it holds, or the deal was recorded or the person discarded it.
   - kunkenKeep.status(el, state, time): the one honest line a form shows (#keep-state): "stored" on the
     table's server (with the time), "local" (kept on this phone only, sent when the connection is back),
     "sending", or "refused" (not accepted, with the reason). The words come from the page (data-words-*),
     in its language; the line is a polite live region.
   - The outbox: a Save that could not reach the server ("kunken:outbox:<key>") is sent again by itself
     when the connection is back (the online event, then retries 1, 2, 4, 8 s apart), from any page of
     the app. A new deal carries its form key (the server's idempotency key), so it is recorded once however
     often it is sent; an edit carries the deal's revision, so a repeat meets it already changed.
   - Where the browser allows a service worker (https, or the server's own machine) /sw.js keeps the
     pages and files for a reload without the Wi-Fi; on a phone over plain http on the LAN the copies above
     are what keeps the typing. */
(function () {
  "use strict";
  var PREFIX = "kunken:";
  var OUTBOX = "outbox:";

  function read(key) {
    try {
      var text = window.localStorage.getItem(PREFIX + key);
      return text ? JSON.parse(text) : null;
    } catch (e) { return null; }
  }

  /* A fetch that gives up after ``ms`` (a half-dead Wi-Fi otherwise keeps "sending" for minutes). */
  function timed(url, options, ms) {
    if (!window.AbortController) { return window.fetch(url, options); }
    var control = new AbortController();
    var timer = window.setTimeout(function () { control.abort(); }, ms || 10000);
    options.signal = control.signal;
    return window.fetch(url, options).then(function (response) {
      window.clearTimeout(timer);
      return response;
    }, function (error) {
      window.clearTimeout(timer);
      throw error;
    });
  }

  function write(key, value) {
    try { window.localStorage.setItem(PREFIX + key, JSON.stringify(value)); return true; } catch (e) { return false; }
  }

  function drop(key) {
    try { window.localStorage.removeItem(PREFIX + key); } catch (e) { /* private mode: nothing kept */ }
  }

  function keys(start) {
    var found = [];
    try {
      for (var i = 0; i < window.localStorage.length; i++) {
        var k = window.localStorage.key(i);
        if (k && k.indexOf(PREFIX + start) === 0) { found.push(k.slice(PREFIX.length)); }
      }
    } catch (e) { /* no storage */ }
    return found;
  }

  /* A form's fields as {name: value}: a box is "y" when ticked, a radio group its checked value; the CSRF
     token is the page's own, never kept. Buttons are left out (the one pressed is added when sending). */
  function fields(form) {
    var out = {};
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.name === "csrf_token" || el.disabled) { return; }
      if (el.type === "submit" || el.type === "button") { return; }
      if (el.type === "checkbox") { out[el.name] = el.checked ? (el.value || "y") : ""; return; }
      if (el.type === "radio") { if (el.checked) { out[el.name] = el.value; } return; }
      out[el.name] = el.value;
    });
    return out;
  }

  /* Put kept fields back into a form; the names listed in ``skip`` keep the page's value. Returns the
     elements whose value changed (a change event follows on each, so the page's own scripts follow). */
  function fill(form, values, skip) {
    var changed = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || !Object.prototype.hasOwnProperty.call(values, el.name)) { return; }
      if (skip && skip.indexOf(el.name) >= 0) { return; }
      if (el.name === "csrf_token" || el.type === "submit" || el.type === "button") { return; }
      var value = values[el.name];
      if (el.type === "checkbox") {
        var on = !!value;
        if (el.checked !== on) { el.checked = on; changed.push(el); }
      } else if (el.type === "radio") {
        var pick = el.value === value;
        if (el.checked !== pick) { el.checked = pick; if (pick) { changed.push(el); } }
      } else if (el.value !== value) {
        el.value = value;
        changed.push(el);
      }
    });
    changed.forEach(function (el) { el.dispatchEvent(new Event("change", { bubbles: true })); });
    return changed;
  }

  function tidy(value) { return String(value || "").replace(/\s+/g, " ").trim(); }

  /* Two sets of fields hold the same entry (white space aside), leaving out ``skip``. */
  function same(a, b, skip) {
    var names = {};
    Object.keys(a || {}).concat(Object.keys(b || {})).forEach(function (n) { names[n] = true; });
    return Object.keys(names).every(function (n) {
      return (skip && skip.indexOf(n) >= 0) || tidy((a || {})[n]) === tidy((b || {})[n]);
    });
  }

  function clock(stamp) {
    var d = new Date(stamp);
    return isNaN(d.getTime()) ? "" : ("0" + d.getHours()).slice(-2) + ":" + ("0" + d.getMinutes()).slice(-2);
  }

  /* The one line saying where what is typed is: state "stored", "local", "sending" or "refused". */
  function status(el, state, detail) {
    if (!el) { return; }
    var words = el.getAttribute("data-words-" + state) || "";
    words = words.replace("%(time)s", detail && detail.time ? detail.time : "")
      .replace("%(reason)s", detail && detail.reason ? detail.reason : "")
      .replace("%(deal)s", detail && detail.deal ? detail.deal : "");
    var text = (state === "stored" || state === "sent" ? "✓ " : state === "refused" ? "✗ " : "") + words;
    el.setAttribute("data-state", state);
    if (el.textContent !== text) { el.textContent = text; }
  }

  /* -- the outbox: Saves the server has not answered yet ---------------------------------------- */

  var attempt = 0;
  var retry = null;
  var flushing = false;
  var listeners = [];

  function delay() { return Math.min(8000, 1000 * Math.pow(2, attempt)); }

  function later() {
    if (retry) { window.clearTimeout(retry); }
    retry = window.setTimeout(flush, delay());
    attempt = Math.min(attempt + 1, 5);
  }

  function tell(key, outcome, detail) {
    listeners.forEach(function (listener) { listener(key, outcome, detail); });
  }

  function body(entry) {
    var data = new FormData();
    Object.keys(entry.fields).forEach(function (name) { data.append(name, entry.fields[name]); });
    data.set("csrf_token", entry.csrf || "");
    data.set(entry.button || "save", "1");
    return data;
  }

  /* A fresh CSRF token from the form's own page (a kept one may be from before the server's secret changed). */
  function freshToken(entry) {
    return window.fetch(entry.page || entry.url, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var input = doc.querySelector('input[name="csrf_token"]');
        entry.csrf = input ? input.value : entry.csrf;
      });
  }

  /* Send one kept Save: done when the server answers by going on to another page (recorded, recorded
     already, or the session has ended meanwhile), refused when it answers with a page of its own (problems,
     a conflict). */
  function send(key, entry, tokenRenewed) {
    // The redirect is not followed here: the page it leads to shows the server's message ("Deal 3 saved")
    // once, so the phone itself goes there next. The header asks for a refusal as a page, not a redirect.
    return timed(entry.url, {
      method: "POST", body: body(entry), credentials: "same-origin", redirect: "manual",
      headers: { "X-Kunken-Keep": "1" }
    })
      .then(function (response) {
        if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
          drop(OUTBOX + key);
          var copy = read(key);  // typed after this Save left: kept, and offered again
          if (!copy || same(copy.fields, entry.fields)) { drop(key); }
          tell(key, "stored", { url: entry.next });
          return "stored";
        }
        if (response.status === 400 && !tokenRenewed) {  // the CSRF token: take a fresh one, once
          return freshToken(entry).then(function () { return send(key, entry, true); });
        }
        if (response.status === 503 || response.status === 502 || response.status === 504) {
          throw new Error("unavailable");  // the server is there but cannot store now: try again
        }
        drop(OUTBOX + key);  // refused: the form's copy stays, and the page shows why
        return response.text().then(function (html) {
          tell(key, "refused", { html: html, status: response.status });
          return "refused";
        });
      });
  }

  function flush() {
    retry = null;
    if (flushing) { return; }
    var waiting = keys(OUTBOX);
    if (!waiting.length) { attempt = 0; return; }
    flushing = true;
    var chain = Promise.resolve();
    var failed = false;
    waiting.forEach(function (outboxKey) {
      var key = outboxKey.slice(OUTBOX.length);
      chain = chain.then(function () {
        var entry = read(outboxKey);
        if (!entry || failed) { return null; }
        tell(key, "sending", {});
        return send(key, entry, false).catch(function () {
          failed = true;
          tell(key, "local", { time: clock(entry.at) });
        });
      });
    });
    chain.then(function () {
      flushing = false;
      if (failed) { later(); return; }
      attempt = 0;
      if (keys(OUTBOX).length) { window.setTimeout(flush, 0); }  // a Save kept while this round ran
    });
  }

  /* Keep a Save and send it now (and again until the server answers); false when the phone cannot keep it
     (no storage): the page then sends it as a plain form. */
  function save(key, entry) {
    entry.at = entry.at || new Date().toISOString();
    if (!write(OUTBOX + key, entry)) { return false; }
    attempt = 0;
    if (retry) { window.clearTimeout(retry); retry = null; }
    flush();
    return true;
  }

  /* What is typed after a Save that waits for the connection goes with it. */
  function amend(key, fields) {
    var entry = read(OUTBOX + key);
    if (entry) { entry.fields = fields; write(OUTBOX + key, entry); }
  }

  window.addEventListener("online", function () { attempt = 0; flush(); });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { flush(); } });

  window.kunkenKeep = {
    get: read,
    put: function (key, value) { value.at = new Date().toISOString(); return write(key, value); },
    drop: drop,
    fields: fields,
    fill: fill,
    same: same,
    clock: clock,
    status: status,
    save: save,
    amend: amend,
    fetch: timed,
    waiting: function (key) { return !!read(OUTBOX + key); },
    backoff: function (n) { return Math.min(8000, 1000 * Math.pow(2, n)); },
    listen: function (listener) { listeners.push(listener); }
  };

  /* A Save kept on this phone is sent from whatever page of the app is open; the session page reloads
     to show the deal it recorded. */
  window.kunkenKeep.listen(function (key, outcome) {
    if (outcome === "stored" && !document.getElementById("deal-form") && document.getElementById("totals")) {
      window.location.reload();
    }
  });
  flush();

  if (window.isSecureContext && navigator.serviceWorker && document.documentElement.getAttribute("data-sw")) {
    navigator.serviceWorker.register(document.documentElement.getAttribute("data-sw"), { scope: "/" })
      .then(function () { document.documentElement.setAttribute("data-sw-ready", "true"); })
      .catch(function () { /* pages still work, only not offline */ });
  }
})();
