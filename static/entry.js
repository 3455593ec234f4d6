/* Fast deal entry (templates/deal_form.html): one player per screen, live verdicts and scores.

   - Tabs, a swipe, or "Next player" move between the players in seat order; the melds field of
     the player shown takes the keypad at once.
   - Every change is posted as "Check" (the server's own check: no rule lives here) and each
     [data-live] part of the answer replaces the same part of this page; typed text is never touched.
   - "Who went out" follows the one player with an empty hand until the scorer picks by hand.
   - Hands by counts get big − and + steppers; the way hands are entered switches at once.
   - A page that comes back with errors opens on the first of them.
   - A seat's part (templates/part.html, data-autosave) is saved as it is typed instead: one save
     at a time, each carrying the part's revision from the last answer; a refused save (409) shows
     the part as it is now, with the refusal. */
(function () {
  "use strict";
  var form = document.getElementById("deal-form") || document.getElementById("part-form");
  if (!form || !window.fetch || !window.FormData || !window.DOMParser) { return; }
  var autosave = form.hasAttribute("data-autosave");
  var inflight = false;
  var again = false;
  var panels = Array.prototype.slice.call(form.querySelectorAll("fieldset.player"));
  var tabs = Array.prototype.slice.call(form.querySelectorAll(".seat-tab"));
  var prev = document.getElementById("prev-seat");
  var next = document.getElementById("next-seat");
  var wentOut = document.getElementById("went_out");
  var wentOutAuto = document.getElementById("went_out_auto");  // "1" while the page chose who went out
  var wentOutTouched = !!(wentOut && wentOut.value) && !(wentOutAuto && wentOutAuto.value === "1");
  var current = 0;
  var sent = 0;
  var shown = 0;
  var timer = null;

  function keypadFocus(el) {
    if (!el) { return; }
    if (window.kunkenKeypad) { window.kunkenKeypad.focus(el); } else { el.focus(); }
    try { el.setSelectionRange(el.value.length, el.value.length); } catch (e) { /* not a text field */ }
  }

  function show(seat, focusField) {
    current = Math.max(0, Math.min(panels.length - 1, seat));
    panels.forEach(function (panel, i) { panel.classList.toggle("off-screen", i !== current); });
    tabs.forEach(function (tab, i) {
      tab.classList.toggle("current", i === current);
      if (i === current) { tab.setAttribute("aria-current", "step"); } else { tab.removeAttribute("aria-current"); }
    });
    Array.prototype.forEach.call(form.querySelectorAll(".footer-scores .chip"), function (chip) {
      chip.classList.toggle("current", chip.getAttribute("data-seat") === String(current));
    });
    // Vists and swaps go onto other players' melds: the player's own stay out of the list.
    Array.prototype.forEach.call(form.querySelectorAll("#keypad-picks .key.name"), function (pick) {
      pick.classList.toggle("own", pick.getAttribute("data-seat") === String(current));
    });
    if (prev) { prev.hidden = current === 0; }
    if (next) { next.hidden = current === panels.length - 1; }
    if (focusField !== false) {
      keypadFocus(focusField || panels[current].querySelector("textarea[data-keypad-kind=melds]"));
    }
  }

  /* -- live check ------------------------------------------------------------------------ */

  function schedule() {
    if (timer) { window.clearTimeout(timer); }
    form.setAttribute("data-pending", "true");  // a check will follow (tests wait for the page to settle)
    timer = window.setTimeout(check, 350);
  }

  function check() {
    timer = null;
    form.removeAttribute("data-pending");
    if (autosave && inflight) { again = true; return; }  // saved after the answer, with its revision
    var body = new FormData(form);
    body.delete("save");
    body.set(autosave ? "autosave" : "check", "1");
    var number = ++sent;
    var status = 0;
    inflight = true;
    form.setAttribute("data-checking", "true");
    window.fetch(form.getAttribute("action"), { method: "POST", body: body, credentials: "same-origin" })
      .then(function (response) { status = response.status; return response.text(); })
      .then(function (html) {
        if (number < shown) { return; }  // an older answer arriving late
        shown = number;
        apply(new DOMParser().parseFromString(html, "text/html"), status === 409);
      })
      .catch(function () { /* offline for a moment: the next change tries again */ })
      .then(function () {
        inflight = false;
        if (again) { again = false; check(); return; }
        if (number === sent) { form.setAttribute("data-checking", "false"); }
      });
  }

  /* The fields of the player's part as the answer shows them (the part as it is stored now). */
  function takeFields(freshForm) {
    Array.prototype.forEach.call(freshForm.querySelectorAll("textarea, input"), function (fresh) {
      var here = fresh.id && document.getElementById(fresh.id);
      if (!here || here.type === "radio" || here.type === "submit") { return; }
      if (here.value !== fresh.value) { here.value = fresh.value; }
    });
  }

  /* A screen reader hears the one line that sums up an answer (the preview's verdict, "Saved at 20:15")
     from a live region that stays in the page: the swapped parts are new nodes, and a new live region is
     often not read at all. */
  var ANNOUNCED = ["#preview h2", "#saved-state"];
  var announcer = document.getElementById("announce");
  function shownText(selector) {
    var el = document.querySelector(selector);
    return el ? el.textContent.replace(/\s+/g, " ").trim() : "";
  }
  function announce(before) {
    if (!announcer) { return; }
    ANNOUNCED.forEach(function (selector, i) {
      var now = shownText(selector);
      if (now && now !== before[i]) { announcer.textContent = now; }
    });
  }

  /* The element children of ``el``, or null when it holds text of its own (then it is swapped whole). */
  function elements(el) {
    for (var node = el.firstChild; node; node = node.nextSibling) {
      if (node.nodeType === 3 && node.nodeValue.trim()) { return null; }
    }
    return Array.prototype.slice.call(el.children);
  }

  /* Make ``here`` hold what ``fresh`` holds, changing only what differs: a list (the verdicts, the
     errors) item by item, in order, and a part with an id kept where it moves. A field's live region
     then reads out the verdict of a meld added or changed, not the whole list again each time a card
     is typed (a meld put before the others renews the verdicts after it). */
  function update(here, fresh) {
    var mine = elements(here), theirs = elements(fresh);
    if (mine === null || theirs === null) { here.innerHTML = fresh.innerHTML; return; }
    var unnamed = mine.filter(function (el) { return !el.id; }), n = 0;
    function imported(item) {  // a new part, with the space written before it (inline parts stay apart)
      var part = document.importNode(item, true), space = item.previousSibling;
      if (space && space.nodeType === 3) { part.space = space.nodeValue; }
      return part;
    }
    var wanted = theirs.map(function (item) {
      var old = item.id ? mine.filter(function (el) { return el.id === item.id; })[0] : unnamed[n++];
      if (!old || old.tagName !== item.tagName) { return imported(item); }
      if ((old.tagName === "OL" || old.tagName === "UL") &&
          old.cloneNode(false).outerHTML === item.cloneNode(false).outerHTML) {
        update(old, item);  // the same list: its items one by one
        return old;
      }
      return old.outerHTML === item.outerHTML ? old : imported(item);
    });
    mine.forEach(function (el) { if (wanted.indexOf(el) < 0) { here.removeChild(el); } });
    wanted.forEach(function (el, i) {
      if (here.children[i] === el) { return; }
      here.insertBefore(el, here.children[i] || null);
      if (el.space) { here.insertBefore(document.createTextNode(el.space), el); }
    });
  }

  /* Swap in the [data-live] parts of an answer; ``fields``: also take its field values (the part
     was refused, or changed elsewhere). */
  function apply(doc, fields) {
    var said = ANNOUNCED.map(shownText);
    Array.prototype.forEach.call(doc.querySelectorAll("[data-live][id]"), function (fresh) {
      var here = document.getElementById(fresh.id);
      if (!here || here.innerHTML === fresh.innerHTML) { return; }  // unchanged: nothing to announce
      update(here, fresh);
      var wrapper = here.closest(".field, .count");
      if (wrapper) {
        var bad = !!here.querySelector(".errors");
        wrapper.classList.toggle("invalid", bad);
        var input = wrapper.querySelector("input, textarea, select");
        if (input) { if (bad) { input.setAttribute("aria-invalid", "true"); } else { input.removeAttribute("aria-invalid"); } }
      }
    });
    announce(said);
    var freshForm = doc.getElementById(form.id);
    if (freshForm && fields) { takeFields(freshForm); }
    if (freshForm && autosave) {  // a seat taken by another phone, or given back: writable or not
      Array.prototype.forEach.call(freshForm.querySelectorAll("fieldset.player[id], [type=submit][id]"), function (fresh) {
        var here = document.getElementById(fresh.id);
        if (here) { here.disabled = fresh.disabled; }
      });
      var pad = document.getElementById("keypad");
      if (pad && panels[0] && panels[0].disabled) { pad.classList.add("hidden"); }
    }
    if (freshForm) {
      Array.prototype.forEach.call(freshForm.querySelectorAll("[data-live-value][id]"), function (fresh) {
        var here = document.getElementById(fresh.id);
        if (here) { here.value = fresh.value; }
      });
    }
    if (freshForm && !autosave) {
      var suggestion = freshForm.getAttribute("data-went-out-suggestion") || "";
      form.setAttribute("data-went-out-suggestion", suggestion);
      if (wentOut && !wentOutTouched && wentOut.value !== suggestion) {
        wentOut.value = suggestion;
        if (wentOutAuto) { wentOutAuto.value = suggestion ? "1" : ""; }
        schedule();  // the scores depend on who went out (express, cards left in hand)
      }
    }
    show(current, false);
    if (window.kunkenKeypad) { window.kunkenKeypad.refresh(); }
  }

  form.addEventListener("input", function (event) {
    if (event.target === wentOut) { return; }
    schedule();
  });
  form.addEventListener("change", function (event) {
    if (event.target === wentOut) {
      wentOutTouched = true;
      if (wentOutAuto) { wentOutAuto.value = ""; }
    }
    if (event.target.name === "hand_mode") { setHandMode(event.target.value); }
    schedule();
  });

  /* -- the way hands are entered ------------------------------------------------------------- */

  function setHandMode(mode) {
    form.setAttribute("data-hand-mode", mode);
    Array.prototype.forEach.call(form.querySelectorAll(".hand-text"), function (el) { el.hidden = mode === "counts"; });
    Array.prototype.forEach.call(form.querySelectorAll(".hand-counts"), function (el) { el.hidden = mode !== "counts"; });
    Array.prototype.forEach.call(form.querySelectorAll("input[data-keypad-kind=hand]"), function (el) {
      if (mode === "points") { el.setAttribute("data-keypad-points", ""); } else { el.removeAttribute("data-keypad-points"); }
    });
    if (window.kunkenKeypad) { window.kunkenKeypad.refresh(); }
  }

  function stepper(input) {
    var wrap = document.createElement("span");
    wrap.className = "stepper";
    input.parentNode.insertBefore(wrap, input);
    var minus = document.createElement("button");
    var plus = document.createElement("button");
    var label = (form.querySelector('label[for="' + input.id + '"]') || {}).textContent || "";
    minus.type = plus.type = "button";
    minus.className = "button secondary step step-minus";
    plus.className = "button step step-plus";
    minus.textContent = "−";
    plus.textContent = "+";
    minus.setAttribute("aria-label", "− " + label);
    plus.setAttribute("aria-label", "+ " + label);
    wrap.appendChild(minus);
    wrap.appendChild(input);
    wrap.appendChild(plus);
    function step(by) {
      var value = Math.max(0, (parseInt(input.value, 10) || 0) + by);
      var max = parseInt(input.getAttribute("max"), 10);
      if (!isNaN(max)) { value = Math.min(max, value); }
      input.value = String(value);
      schedule();
    }
    minus.addEventListener("click", function () { step(-1); });
    plus.addEventListener("click", function () { step(1); });
  }
  Array.prototype.forEach.call(form.querySelectorAll("input.count-input"), stepper);

  /* -- moving between players ---------------------------------------------------------------- */

  tabs.forEach(function (tab, i) {
    tab.addEventListener("click", function (event) { event.preventDefault(); show(i); });
  });
  if (prev) { prev.addEventListener("click", function () { show(current - 1); }); }
  if (next) { next.addEventListener("click", function () { show(current + 1); }); }
  /* Enter in a player's one-line field (the hand, a count) on the deal form goes on as "Next player" does, and
     from the last player to how the deal ended: the form's first button is Check, and the live check already
     shows what it would, so a reload would only lose the place. */
  if (form.id === "deal-form") {
    form.addEventListener("keydown", function (event) {
      var el = event.target;
      if (event.key !== "Enter" || el.tagName !== "INPUT" || !el.closest("fieldset.player")) { return; }
      event.preventDefault();
      if (current < panels.length - 1) { show(current + 1); return; }
      var end = document.getElementById("went_out");
      if (end) { end.focus(); }
    });
  }
  var startX = null;
  var startY = null;
  form.addEventListener("touchstart", function (event) {
    if (event.target.closest && event.target.closest("#keypad, input, textarea, select")) { startX = null; return; }
    startX = event.touches[0].clientX;
    startY = event.touches[0].clientY;
  }, { passive: true });
  form.addEventListener("touchend", function (event) {
    if (startX === null) { return; }
    var dx = event.changedTouches[0].clientX - startX;
    var dy = event.changedTouches[0].clientY - startY;
    startX = null;
    if (Math.abs(dx) > 60 && Math.abs(dx) > 2 * Math.abs(dy)) { show(current + (dx < 0 ? 1 : -1)); }
  }, { passive: true });

  form.classList.add("paged");
  /* The preview goes under the player's fields: as it grows and shrinks, what is typed stays put. */
  var previewBox = document.getElementById("preview-box");
  if (previewBox) { form.insertBefore(previewBox, document.getElementById("deal-end")); }
  /* A page that came back with errors opens on the first of them (one that is shown); otherwise on
     the first player. */
  var firstError = Array.prototype.filter.call(form.querySelectorAll("fieldset.player .invalid"), function (el) {
    return !el.closest("[hidden]");
  })[0];
  if (firstError) {
    var panel = firstError.closest("fieldset.player");
    show(panels.indexOf(panel), firstError.querySelector("input, textarea") || undefined);
    // The field and its error above the sticky footer (and the keypad in it).
    var footer = document.getElementById("deal-footer");
    var room = window.innerHeight - (footer ? footer.getBoundingClientRect().height : 0);
    var box = firstError.getBoundingClientRect();
    window.scrollBy(0, box.top - Math.max(8, room - box.height - 8));
  } else {
    var general = document.querySelector("#form-errors, #deal-problems, #override-errors, #note-errors, #conflict");
    show(0, general ? false : undefined);
    if (general) { general.scrollIntoView({ block: "center" }); }
  }
  /* static/draft.js brings the page as it is now when the draft changes elsewhere: the part's
     fields are taken only when its revision moved and nothing typed here is waiting to be saved. */
  window.kunkenEntry = {
    busy: function () { return !!timer || inflight; },
    apply: function (doc) {
      var fresh = doc.querySelector("#saved-state");
      var mine = document.querySelector("#saved-state");
      var moved = !!(fresh && mine && fresh.getAttribute("data-revision") !== mine.getAttribute("data-revision"));
      apply(doc, moved && !timer && !inflight);
    }
  };
  form.setAttribute("data-ready", "true");
})();
