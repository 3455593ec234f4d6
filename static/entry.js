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
  var keep = window.kunkenKeep;
  var keepKey = keep && form.getAttribute("data-keep");
  var keepState = document.getElementById("keep-state");
  var revisionInput = form.querySelector("input[name=revision]");
  var failures = 0;      // saves of the part in a row that did not reach the server
  var retry = null;      // the next try of a part kept on this phone
  var choosing = false;  // both versions shown: nothing is sent until the person chooses
  var native = false;    // the deal form's Save goes as a plain POST (to show the server's answer)
  var SERVER_FIELDS = ["deal", "draft", "revision", "expected", "form_key", "went_out_auto"];
  var lastSent = null;   // the part's fields in the last save sent (its answer may never have come)
  var answeredAt = -1;   // when the last save of the part was answered (performance.now())
  var edit = form.hasAttribute("data-edit");
  var discard = document.getElementById("keep-discard");

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
    // Vists and swaps go onto other players' melds: the player's own stay out of the list (the seat of the panel
    // shown: a player's part has one panel, its own seat's)
    var ownSeat = panels[current] ? panels[current].getAttribute("data-seat") : String(current);
    Array.prototype.forEach.call(form.querySelectorAll("#keypad-picks .key.name"), function (pick) {
      pick.classList.toggle("own", pick.getAttribute("data-seat") === ownSeat);
    });
    if (prev) { prev.hidden = current === 0; }
    if (next) { next.hidden = current === panels.length - 1; }
    oneSave();
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
    if (retry) { window.clearTimeout(retry); retry = null; }
    form.removeAttribute("data-pending");
    if (autosave && choosing) { return; }
    if (autosave && inflight) { again = true; return; }  // saved after the answer, with its revision
    var body = new FormData(form);
    body.delete("save");
    body.set(autosave ? "autosave" : "check", "1");
    var number = ++sent;
    var status = 0;
    var mine = autosave && keeping() ? keepLocal() : null;  // a part's save (a deal form's Check stores nothing)
    if (mine) { say("sending"); lastSent = mine.fields; }
    inflight = true;
    form.setAttribute("data-checking", "true");
    var post = keep ? keep.fetch : function (url, options) { return window.fetch(url, options); };
    post(form.getAttribute("action"), { method: "POST", body: body, credentials: "same-origin" })
      .then(function (response) { status = response.status; return response.text(); })
      .then(function (html) {
        if (status >= 502 && status <= 504) { throw new Error("unavailable"); }  // a proxy with no server
        if (number < shown) { return; }  // an older answer arriving late
        shown = number;
        var doc = new DOMParser().parseFromString(html, "text/html");
        if (mine) { failures = 0; }
        if (mine && status === 409) { conflict(doc, mine.fields); return; }
        apply(doc, status === 409);
        if (mine) { answered(status, doc, mine.fields); answeredAt = window.performance.now(); }
      })
      .catch(function () {
        if (!mine) { return; }  // a check: the next change tries again
        say("local", { time: keep.clock(mine.at) });
        if (!retry) { retry = window.setTimeout(check, keep.backoff(failures++)); }
      })
      .then(function () {
        inflight = false;
        if (again) { again = false; check(); return; }
        if (number === sent) { form.setAttribute("data-checking", "false"); }
      });
  }

  /* -- kept on this phone (static/keep.js) ------------------------------------------------------ */

  function keeping() { return !!(keepKey && !form.querySelector("fieldset.player[disabled]")); }

  /* Keep the form as it is now; a part remembers the revision and the draft it was typed on. */
  function keepLocal() {
    var entry = { fields: keep.fields(form) };
    if (choosing) { return entry; }  // both versions shown: this phone's stays as it was until the choice
    if (autosave) {
      entry.deal = entry.fields.deal;
      entry.draft = entry.fields.draft;
      entry.base = entry.fields.revision;
    }
    keep.put(keepKey, entry);
    return entry;
  }

  var announced = null;
  function say(state, detail) {
    if (!keepState) { return; }
    keep.status(keepState, state, detail);
    // what the server's own line (#saved-state, in the same place) says already stays in its words: the line
    // changes only when this phone has something else to say (sending, kept here, refused), so nothing moves
    var serverSays = autosave && (state === "stored" || state === "empty") && !!document.getElementById("saved-state");
    keepState.hidden = serverSays;
    document.documentElement.classList.toggle("keeping", !serverSays);
    if (state === "local-save" || state === "choose") { keepState.scrollIntoView({ block: "center" }); }
    if (discard) { discard.hidden = !(state === "local" || state === "refused" || state === "local-save"); }
    // a screen reader hears where the entry is when that changes, not each "sending"
    if (state !== "sending" && state !== announced && announcer) {
      if (announced !== null) { announcer.textContent = keepState.textContent; }
      announced = state;
    }
  }

  function storedTime(doc) {
    var el = (doc || document).querySelector("#saved-state");
    return el ? el.getAttribute("data-time") || "" : "";
  }

  /* What the server holds of the part: stored at a time, or nothing yet. */
  function sayStored() { var time = storedTime(); say(time ? "stored" : "empty", { time: time }); }

  /* The server answered a save of the part: stored (the copy goes once nothing newer is typed), or not. */
  function answered(status, doc, sentFields) {
    if (status === 200) {
      var now = keep.fields(form);
      if (!timer && !again && keep.same(now, sentFields, SERVER_FIELDS)) {
        keep.drop(keepKey);
        sayStored();
      } else {
        keepLocal();  // newer typing waits for its own save, on the new revision
      }
      return;
    }
    var errors = doc.querySelectorAll("#form-errors li, .field .errors li, #seat-lost .flash");
    var reason = errors.length ? spoken(errors[0]) : String(status);
    if (status === 503) {  // the server could not store it now: kept here, tried again
      say("local", { time: keep.clock(new Date().toISOString()) });
      if (!retry) { retry = window.setTimeout(check, keep.backoff(failures++)); }
      return;
    }
    say("refused", { reason: reason });
  }

  /* Both versions, and the person chooses: ``mine`` (kept on this phone) or the server's (in the form). */
  var choice = document.getElementById("keep-choice");
  function differences(mine) {
    var list = [];
    Array.prototype.forEach.call(form.querySelectorAll("textarea, input[type=text], input[type=number], select"), function (el) {
      if (!el.name || SERVER_FIELDS.indexOf(el.name) >= 0 || el.closest("[hidden]")) { return; }
      var theirs = el.value, ours = mine[el.name] === undefined ? "" : mine[el.name];
      if (tidy(theirs) === tidy(ours)) { return; }
      var label = form.querySelector('label[for="' + el.id + '"]');
      var player = el.closest("fieldset.player");
      var name = (player && player.getAttribute("data-player") ? player.getAttribute("data-player") + " · " : "") +
        (label ? spoken(label) : el.name);
      list.push({ name: name, mine: ours, theirs: theirs });
    });
    return list;
  }

  /* The panel's buttons: keep one version (``recorded`` false), or, for a deal recorded since, send what this
     phone kept as a correction of it or let it go. */
  function choiceButtons(recorded) {
    choice.classList.toggle("recorded", recorded);
    ["mine", "theirs"].forEach(function (k) { choice.querySelector("[data-keep=" + k + "]").hidden = recorded; });
    ["correct", "drop"].forEach(function (k) { choice.querySelector("[data-keep=" + k + "]").hidden = !recorded; });
  }

  function showChoice(mine, why) {
    if (!choice) { return; }
    var rows = differences(mine);
    if (!rows.length) { keep.drop(keepKey); return; }
    choiceButtons(false);
    choosing = true;
    choice.hidden = false;
    choice.querySelector(".keep-why").textContent = why || choice.getAttribute("data-words-why");
    var table = choice.querySelector("tbody");
    table.textContent = "";
    var empty = choice.getAttribute("data-words-empty");
    rows.forEach(function (row) {
      var tr = document.createElement("tr");
      [row.name, row.mine || empty, row.theirs || empty].forEach(function (text, i) {
        var cell = document.createElement(i ? "td" : "th");
        if (!i) { cell.setAttribute("scope", "row"); }
        cell.textContent = String(text).replace(/\n/g, " / ");
        tr.appendChild(cell);
      });
      table.appendChild(tr);
    });
    say("choose");
    choice.querySelector("[data-keep=mine]").onclick = function () {
      choosing = false;
      choice.hidden = true;
      keep.fill(form, mine, SERVER_FIELDS);
      keepLocal();
      if (autosave) { check(); } else { say("local"); schedule(); }
    };
    choice.querySelector("[data-keep=theirs]").onclick = function () {
      choosing = false;
      choice.hidden = true;
      keep.drop(keepKey);
      if (autosave) { sayStored(); } else { say(edit ? "edit" : "new"); }
    };
    var title = document.getElementById("keep-choice-title");
    var pad = document.getElementById("keypad");
    if (pad) { pad.classList.add("hidden"); }  // the two versions and their buttons, not the keypad over them
    choice.scrollIntoView({ block: "center" });
    if (title) { title.focus({ preventScroll: true }); }
  }

  /* What this phone kept for a deal recorded since: never put into this deal's part. The person sends it to the
     scorer as a proposed correction of that deal (the scorer sees both versions and decides), or lets it go. */
  function keptRows(mine) {
    var list = [];
    var inputs = form.querySelectorAll("textarea, input[type=text], input[type=number], input[type=checkbox]");
    Array.prototype.forEach.call(inputs, function (el) {
      var value = mine[el.name];
      if (!el.name || SERVER_FIELDS.indexOf(el.name) >= 0 || !value || value === "0" || el.closest("[hidden]")) { return; }
      var label = form.querySelector('label[for="' + el.id + '"]');
      list.push({ name: label ? spoken(label) : el.name, mine: el.type === "checkbox" ? "✓" : value });
    });
    return list;
  }

  function showRecorded(kept) {
    if (!choice) { return; }
    var mine = kept.fields || {};
    var deal = kept.deal || mine.deal || "";
    var rows = keptRows(mine);
    if (!rows.length) { keep.drop(keepKey); sayStored(); return; }
    choosing = true;
    choice.hidden = false;
    choiceButtons(true);
    choice.querySelector(".keep-why").textContent = (choice.getAttribute("data-words-recorded") || "").split("%(deal)s").join(deal);
    var table = choice.querySelector("tbody");
    table.textContent = "";
    rows.forEach(function (row) {
      var tr = document.createElement("tr");
      [row.name, row.mine, ""].forEach(function (text, i) {
        var cell = document.createElement(i ? "td" : "th");
        if (!i) { cell.setAttribute("scope", "row"); }
        cell.textContent = String(text).replace(/\n/g, " / ");
        tr.appendChild(cell);
      });
      table.appendChild(tr);
    });
    say("choose");
    function done(state, detail) {
      choosing = false;
      choice.hidden = true;
      choiceButtons(false);
      keep.drop(keepKey);
      say(state, detail);
    }
    choice.querySelector("[data-keep=correct]").onclick = function () {
      var body = new FormData();
      Object.keys(mine).forEach(function (name) { if (name !== "autosave") { body.set(name, mine[name]); } });
      var csrf = form.querySelector("input[name=csrf_token]");
      if (csrf) { body.set("csrf_token", csrf.value); }
      say("sending");
      window.fetch(form.getAttribute("action") + "/correction", { method: "POST", body: body, credentials: "same-origin" })
        .then(function (response) {
          if (response.status >= 502 && response.status <= 504) { throw new Error("unavailable"); }
          return response.text().then(function (html) {
            var doc = new DOMParser().parseFromString(html, "text/html");
            var bad = doc.querySelector("p.flash.error, #form-errors li, .field .errors li");
            if (response.ok && !bad) { done("sent", { deal: deal }); return; }
            if (response.ok) { done("refused", { reason: spoken(bad) }); return; }  // nothing to correct: said why
            say("refused", { reason: bad ? spoken(bad) : String(response.status) });
          });
        })
        .catch(function () { say("unsent"); });
    };
    choice.querySelector("[data-keep=drop]").onclick = function () { done("dropped", { deal: deal }); };
    var pad = document.getElementById("keypad");
    if (pad) { pad.classList.add("hidden"); }
    choice.scrollIntoView({ block: "center" });
    var title = document.getElementById("keep-choice-title");
    if (title) { title.focus({ preventScroll: true }); }
  }

  /* The server refused the part (someone else changed it, or the deal was recorded): its version goes in
     the form, this phone's stays kept, and both are shown; what was typed for a deal recorded since goes
     to the scorer as a correction, or is let go (``showRecorded``). */
  function conflict(doc, mine) {
    var fresh = doc.getElementById(form.id);
    var theirs = fresh ? keep.fields(fresh) : null;
    var sameDraft = theirs && theirs.deal === (form.querySelector("input[name=deal]") || {}).value;
    if (theirs && sameDraft && lastSent && keep.same(theirs, lastSent, SERVER_FIELDS) &&
        !keep.same(theirs, mine, SERVER_FIELDS)) {
      // the server holds this phone's own earlier save, whose answer never came: go on from its revision
      apply(doc, false);
      keepLocal();
      schedule();
      return;
    }
    if (theirs && mine.draft !== undefined && theirs.draft !== mine.draft) {  // the deal it was typed for is recorded
      apply(doc, true);
      var old = { fields: mine, deal: mine.deal, draft: mine.draft, base: mine.revision };
      keep.put(keepKey, old);
      showRecorded(old);
      return;
    }
    apply(doc, true);
    var kept = keep.get(keepKey) || {};
    kept.fields = mine;
    kept.deal = (form.querySelector("input[name=deal]") || {}).value;
    kept.draft = (form.querySelector("input[name=draft]") || {}).value;
    kept.base = revisionInput ? revisionInput.value : "0";
    keep.put(keepKey, kept);
    var said = doc.getElementById("conflict");
    showChoice(mine, said ? spoken(said) : null);
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
  function tidy(text) { return String(text == null ? "" : text).replace(/\s+/g, " ").trim(); }
  function spoken(el) { return el ? tidy(el.textContent) : ""; }
  function shownText(selector) { return spoken(document.querySelector(selector)); }
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
    schedule();
  });

  /* -- the way hands are entered ------------------------------------------------------------- */

  /* The session's way (its settings on the session page): a seated phone follows a change as the draft comes. */
  function setHandMode(mode) {
    var field = form.querySelector("input[name=hand_mode]");
    if (field) { field.value = mode; }
    form.setAttribute("data-hand-mode", mode);
    Array.prototype.forEach.call(form.querySelectorAll(".hand-text"), function (el) { el.hidden = mode === "counts"; });
    Array.prototype.forEach.call(form.querySelectorAll(".hand-counts"), function (el) { el.hidden = mode !== "counts"; });
    Array.prototype.forEach.call(form.querySelectorAll("input[data-keypad-kind=hand]"), function (el) {
      if (mode === "points") { el.setAttribute("data-keypad-points", ""); } else { el.removeAttribute("data-keypad-points"); }
      if (mode === "ranks") { el.setAttribute("data-keypad-ranks", ""); } else { el.removeAttribute("data-keypad-ranks"); }
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
      input.dispatchEvent(new Event("input", { bubbles: true }));  // kept on the phone, checked, as typing is
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

  /* One Save on the screen: the footer's hides while the form's own Check and Save are in sight above it. */
  var footerSave = document.getElementById("footer-save");
  var ownButtons = form.querySelector(".form-buttons");
  var footerBar = document.getElementById("deal-footer");
  function oneSave() {
    if (!footerSave || !ownButtons || !footerBar) { return; }
    var inSight = ownButtons.getBoundingClientRect().bottom <= footerBar.getBoundingClientRect().top + 1;
    if (inSight) { footerSave.setAttribute("data-form-buttons-shown", ""); } else { footerSave.removeAttribute("data-form-buttons-shown"); }
  }
  window.addEventListener("scroll", oneSave, { passive: true });
  window.addEventListener("resize", oneSave);
  if (window.ResizeObserver && footerBar) { new window.ResizeObserver(oneSave).observe(footerBar); }

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
    // the target reached: the page opens without the keypad up (the scorer ends the game, or the table plays on)
    show(0, general || form.hasAttribute("data-finished") ? false : undefined);
    if (general) { general.scrollIntoView({ block: "center" }); }
  }
  /* -- what this phone kept, brought back ------------------------------------------------------ */

  /* The reason a deal form's page gives for not recording it (problems, a conflict), or "". */
  function pageReason() {
    return shownText("#conflict, #form-errors li, #override-box .errors li, .field .errors li");
  }

  function restore() {
    var kept = keep.get(keepKey);
    var page = keep.fields(form);
    if (autosave) {
      if (!kept || !kept.fields) { sayStored(); return; }
      var sameDraft = kept.draft ? kept.draft === page.draft : kept.deal === page.deal;  // a delete renumbers, not redrafts
      if (keep.same(kept.fields, page, SERVER_FIELDS)) {  // the server has exactly this
        keep.drop(keepKey);
        sayStored();
      } else if (sameDraft && Number(kept.base) >= Number(page.revision)) {
        // typed here, not sent yet: send it now. A page older than what this phone last heard from the server
        // (the service worker's copy, opened offline) takes the phone's revision too.
        keep.fill(form, kept.fields, Number(kept.base) > Number(page.revision) ? ["deal", "draft"] : SERVER_FIELDS);
        schedule();
      } else if (sameDraft) {
        showChoice(kept.fields, null);
      } else {  // typed for a deal recorded since: a correction of that deal, never this deal's part
        showRecorded(kept);
      }
      return;
    }
    if (form.hasAttribute("data-posted")) {  // the server's answer to a Save or Check: the page is the truth
      keepLocal();
      // a Save the server refused says so, with its reason where the page shows one: never "tap Save" as if
      // nothing had been tried (issue 48)
      var reason = pageReason() || form.getAttribute("data-refused");
      if (reason) { say("refused", { reason: reason }); } else { say("local"); }
      return;
    }
    if (!kept || !kept.fields || keep.same(kept.fields, page, SERVER_FIELDS)) {  // nothing typed that the page lacks
      keep.drop(keepKey);
      say(keep.waiting(keepKey) ? "sending" : edit ? "edit" : "new");
      return;
    }
    if (kept.fields.expected !== page.expected && !keep.waiting(keepKey)) {
      // the session (or this deal) changed since this was typed: both versions, and the person chooses; a new
      // deal's copy never brings back its old form key (that key may have recorded a deal since)
      showChoice(kept.fields, choice && choice.getAttribute(edit ? "data-words-edited" : "data-words-recorded-since"));
      return;
    }
    keep.fill(form, kept.fields, []);  // (a Save that waits for the connection keeps its own key and version)
    var mode = form.querySelector("input[name=hand_mode]");
    if (mode) { setHandMode(mode.value); }
    wentOutTouched = !!(wentOut && wentOut.value) && !(wentOutAuto && wentOutAuto.value === "1");
    say(keep.waiting(keepKey) ? "sending" : "local");
    schedule();
  }

  /* Send the form as a plain POST (the page the server answers shows why it refused a Save, or storage on
     this phone is unavailable): the Save button's own name goes with it. */
  function postPlainly() {
    native = true;
    var save = document.getElementById("save");
    if (form.requestSubmit && save) { form.requestSubmit(save); return; }
    var flag = document.createElement("input");
    flag.type = "hidden";
    flag.name = "save";
    flag.value = "1";
    form.appendChild(flag);
    form.submit();
  }

  /* The deal form's Save goes through the outbox: sent now, and kept (and sent again) while the server
     cannot be reached. The server's own answer to a Save it refused is shown by sending the form as a plain
     POST again (a refused Save stored nothing, so nothing is stored twice). */
  function saveKept() {
    var entry = keepLocal();
    var csrf = form.querySelector("input[name=csrf_token]");
    var kept = keep.save(keepKey, {
      url: form.getAttribute("action"),
      page: window.location.href.split("#")[0],
      next: (document.getElementById("back-link") || window.location).href,
      fields: entry.fields,
      csrf: csrf ? csrf.value : "",
      button: "save"
    });
    if (!kept) { postPlainly(); }  // this phone cannot keep it: the browser sends it as it always did
  }

  if (keep && keepKey && !autosave) {
    var pressed = null;  // the button that sends the form (event.submitter is missing in older browsers)
    form.addEventListener("click", function (event) {
      var button = event.target.closest && event.target.closest("button[type=submit], input[type=submit]");
      pressed = button || pressed;
    });
    form.addEventListener("submit", function (event) {
      var button = event.submitter || pressed;
      pressed = null;
      if (native || !button || button.name !== "save") { return; }
      event.preventDefault();
      saveKept();
    });
    keep.listen(function (key, outcome, detail) {
      if (key !== keepKey) { return; }
      if (outcome === "stored") { window.location.href = detail.url || window.location.href; return; }
      if (outcome === "sending") { say("sending"); return; }
      if (outcome === "local") { say("local-save", detail); return; }
      postPlainly();  // refused: the page the server answers shows why, and keeps the form as it shows it
    });
    form.addEventListener("input", function () {
      if (choosing) { return; }
      var entry = keepLocal();
      if (keep.waiting(keepKey)) { keep.amend(keepKey, entry.fields); } else { say("local"); }
    });
    form.addEventListener("change", function () {
      if (choosing) { return; }
      var entry = keepLocal();
      if (keep.waiting(keepKey)) { keep.amend(keepKey, entry.fields); }
    });
    if (discard) {
      discard.addEventListener("click", function () {
        keep.drop(keepKey);
        keep.drop("outbox:" + keepKey);
        window.location.href = window.location.href.split("#")[0];
      });
    }
  }
  if (keep && keepKey && autosave) {
    window.addEventListener("online", function () { if (keep.get(keepKey) && !choosing) { failures = 0; check(); } });
    // what is typed is on this phone only until its save is answered: the line says so at once, not "stored"
    form.addEventListener("input", function () { if (keeping()) { keepLocal(); if (!choosing) { say("sending"); } } });
    // leaving the page (Back to the scores, another tab) within the pause before a save: it is sent now, by a
    // request the browser finishes after the page has gone (its copy stays on the phone until an answer says)
    window.addEventListener("pagehide", function () {
      if (!timer || inflight || choosing || !keeping() || !navigator.sendBeacon) { return; }
      window.clearTimeout(timer);
      timer = null;
      lastSent = keepLocal().fields;  // this phone's own save, should the page come back from the browser's cache
      var body = new FormData(form);
      body.delete("save");
      body.set("autosave", "1");
      navigator.sendBeacon(form.getAttribute("action"), body);
    });
  }
  if (keep && keepKey && keeping()) { restore(); }

  /* static/draft.js brings the page as it is now when the draft changes elsewhere: the part's
     fields are taken only when its revision moved and nothing typed here is waiting to be saved. */
  window.kunkenEntry = {
    busy: function () { return !!timer || inflight || choosing || !!retry; },
    apply: function (doc, askedAt) {
      var fresh = doc.querySelector("#saved-state");
      var mine = document.querySelector("#saved-state");
      var moved = !!(fresh && mine && fresh.getAttribute("data-revision") !== mine.getAttribute("data-revision"));
      // a page asked for before this phone's last save was answered (a slow poll) would take back what it stored
      // since; the next poll brings the page as it is now
      if (moved && askedAt !== undefined && askedAt < answeredAt) { return; }
      var kept = keep && keepKey ? keep.get(keepKey) : null;
      var freshForm = doc.getElementById(form.id);
      var way = freshForm && freshForm.getAttribute("data-hand-mode");
      if (way && way !== form.getAttribute("data-hand-mode")) { setHandMode(way); }
      if (moved && kept && freshForm && !keep.same(kept.fields, keep.fields(freshForm), SERVER_FIELDS)) {
        conflict(doc, kept.fields);  // changed elsewhere while this phone holds typing the server lacks
        return;
      }
      apply(doc, moved && !timer && !inflight);
    }
  };
  form.setAttribute("data-ready", "true");
})();
