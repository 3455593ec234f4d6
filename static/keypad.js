/* Tap-to-pick card keypad (templates/_keypad.html). Types card tokens in the page's notation
   (K♠ 10♥ JK, or К♠ 10♥ Дж on Russian pages) into the last focused <input>/<textarea> that has a
   data-keypad attribute. Pages work without it.

   Fast entry:
   - a set by rank and suits: tap a rank, then each suit (A ♠ ♥ ♦): the rank stays picked;
   - a run by its ends: a card, "…", the last rank (6 ♥ … 10 gives 6♥…10♥);
   - a suit first keeps the suit picked for the ranks that follow (♥ 5 6 7);
   - a new meld starts on its own line when the rank changes after a set, or after a run's end;
   - hand fields in points mode get digits (40 Дж);
   - vists and swaps: the picks row inserts "Борис 1: " into the current player's field. */
(function () {
  "use strict";
  var pad = document.getElementById("keypad");
  if (!pad) { return; }
  var FIELDS = "input[data-keypad], textarea[data-keypad]";
  var STORE = "kunken-keypad-mode";
  var RU = { J: "В", Q: "Д", K: "К", A: "Т", JK: "Дж" };
  var russian = pad.getAttribute("data-lang") === "ru";
  var target = null;
  var rank = null;     // a picked rank: each suit tapped adds a card of it
  var suit = null;     // a picked suit (no rank picked first): each rank tapped adds a card of it
  var ranging = false; // "…" tapped: the next rank ends a run from the last card
  var lineDone = false; // a run's end was tapped: the next rank starts a new meld
  var label = document.getElementById("keypad-target");
  var quiet = false;    // focus given back to the field by closing the keypad: it stays closed

  function fields() { return Array.prototype.slice.call(document.querySelectorAll(FIELDS)); }
  function text(token) { return russian && RU[token] ? RU[token] : token; }

  function mode() {
    try { return window.localStorage.getItem(STORE) || "keypad"; } catch (e) { return "keypad"; }
  }

  function applyMode() {
    // In keypad mode the phone's own keyboard stays down on card fields.
    var keypad = mode() === "keypad";
    fields().forEach(function (el) {
      if (keypad) { el.setAttribute("inputmode", "none"); } else { el.removeAttribute("inputmode"); }
    });
    pad.setAttribute("data-mode", mode());
    press(pad.querySelector('[data-action="keyboard"]'), !keypad);  // a toggle: pressed while the phone's keyboard is on
  }

  function press(button, on) { if (button) { button.setAttribute("aria-pressed", on ? "true" : "false"); } }
  function pressAll(selector, on) {
    Array.prototype.forEach.call(pad.querySelectorAll(selector), function (b) { press(b, on); });
  }

  function clearPending(keepSuit) {
    rank = null;
    ranging = false;
    pressAll("[data-rank]", false);
    press(pad.querySelector('[data-action="range"]'), false);
    if (!keepSuit) {
      suit = null;
      pressAll("[data-suit]", false);
    }
  }

  function kind(el) { return (el && el.getAttribute("data-keypad-kind")) || "cards"; }

  /* What the keypad shows depends on its field: ranks and suits, digits, vist or swap targets. */
  function describe(el) {
    if (label) { label.textContent = el.getAttribute("data-keypad") || ""; }
    pad.setAttribute("data-kind", kind(el));
    pad.setAttribute("data-digits", el.hasAttribute("data-keypad-points") ? "true" : "false");
    fields().forEach(function (f) { f.classList.toggle("keypad-target-field", f === el); });
  }

  function setTarget(el) {
    if (target !== el) { clearPending(false); lineDone = false; }
    target = el;
    pad.classList.remove("hidden");
    describe(el);
    cover();
    reveal(el);
  }

  /* Hide the keypad (✕, Escape, or the focus leaving the card fields), as a phone's keyboard goes down. */
  function hide() {
    clearPending(false);
    pad.classList.add("hidden");
    cover();
  }

  /* The footer holding the keypad sits over the bottom of the screen: the page keeps a control the Tab key
     reaches above it (scroll-padding). The keypad's own height is left out: the Tab key closes it on leaving
     the card fields, and a card field is kept above it by reveal(). */
  function cover() {
    var bar = pad.closest(".deal-footer");
    var open = pad.classList.contains("hidden") ? 0 : pad.getBoundingClientRect().height;
    var height = bar ? bar.getBoundingClientRect().height - open : 0;
    document.documentElement.style.scrollPaddingBottom = height > 0 ? Math.ceil(height) + 8 + "px" : "";
  }

  function reveal(el) {
    // Keep the field above the keypad (and the footer holding it), which sit over the bottom of the screen.
    var cover = pad.closest(".deal-footer") || pad;
    var limit = window.innerHeight - cover.getBoundingClientRect().height - 8;
    var rect = el.getBoundingClientRect();
    if (rect.bottom > limit) { window.scrollBy(0, Math.min(rect.bottom - limit, Math.max(rect.top - 8, 0))); }
  }

  function changed(el) {
    var event;
    try { event = new Event("input", { bubbles: true }); } catch (e) {
      event = document.createEvent("Event"); event.initEvent("input", true, true);
    }
    el.dispatchEvent(event);
  }

  function ensureTarget() {
    if (target && document.body.contains(target)) { return target; }
    var first = fields()[0];
    if (first) { setTarget(first); }
    return first || null;
  }

  function caret(el) {
    var v = el.value;
    var s = typeof el.selectionStart === "number" ? el.selectionStart : v.length;
    var e = typeof el.selectionEnd === "number" ? el.selectionEnd : v.length;
    return { before: v.slice(0, s), after: v.slice(e) };
  }

  function put(el, before, after) {
    el.value = before + after;
    try { el.setSelectionRange(before.length, before.length); } catch (e) { /* not a text field */ }
    changed(el);
    // a key pressed from the keyboard keeps the focus (the next suit is one key away); a tap never had it
    if (document.activeElement !== el && !pad.contains(document.activeElement)) { el.focus(); }
  }

  function insert(token, opts) {
    var el = ensureTarget();
    if (!el) { return; }
    var c = caret(el);
    var before = c.before;
    if (opts && opts.line && el.tagName === "TEXTAREA" && before && !/\n\s*$/.test(before)) {
      before = before.replace(/[ \t]+$/, "") + "\n";
    } else if (before && !/[\s]$/.test(before) && !(opts && opts.raw)) {
      before += " ";
    }
    put(el, before + token, c.after);
  }

  function card(token) { insert(token + " "); }

  /* The tokens of the line the caret is on, up to the caret. */
  function lineTokens(el) {
    var before = caret(el).before;
    var line = before.slice(before.lastIndexOf("\n") + 1);
    return line.split(/\s+/).filter(Boolean);
  }

  function rankOf(token) { return /…|\.\./.test(token) ? null : token.slice(0, -1).toUpperCase(); }

  /* True when the line ends with two or more cards of the picked rank (jokers among them): a set. */
  function inSet(el, r) {
    var tokens = lineTokens(el);
    var count = 0;
    for (var i = tokens.length - 1; i >= 0; i--) {
      if (/^(JK|ДЖ|\*)/i.test(tokens[i])) { continue; }
      if (rankOf(tokens[i]) !== text(r).toUpperCase()) { break; }
      count++;
    }
    return count >= 2;
  }

  function startMeld(el) {
    if (el.tagName !== "TEXTAREA") { return; }
    var c = caret(el);
    if (!c.before || /\n\s*$/.test(c.before)) { return; }
    put(el, c.before.replace(/[ \t]+$/, "") + "\n", c.after);
  }

  function tapRank(r) {
    var el = ensureTarget();
    if (!el) { return; }
    if (ranging) {
      // End the run: "6♥ " becomes "6♥…10♥ ".
      var c = caret(el);
      var last = /(\S+)\s*$/.exec(c.before);
      ranging = false;
      press(pad.querySelector('[data-action="range"]'), false);
      if (last) {
        var suitOf = last[1].slice(-1);
        put(el, c.before.replace(/\s+$/, "") + "…" + text(r) + suitOf + " ", c.after);
        clearPending(true);
        lineDone = true;
      }
      return;
    }
    if (lineDone || (rank && rank !== r && inSet(el, rank))) { startMeld(el); }
    lineDone = false;
    if (suit) { card(text(r) + suit); return; }
    pressAll("[data-rank]", false);
    rank = r;
    press(pad.querySelector('[data-rank="' + r + '"]'), true);
  }

  function tapSuit(s, button) {
    ranging = false;
    press(pad.querySelector('[data-action="range"]'), false);
    if (rank) { card(text(rank) + s); return; }  // the rank stays picked: A ♠ ♥ ♦
    var again = suit === s;
    clearPending(false);
    if (!again) { suit = s; press(button, true); }
  }

  function tapRange(button) {
    var el = ensureTarget();
    if (!el) { return; }
    var tokens = lineTokens(el);
    var last = tokens[tokens.length - 1];
    if (!last || !rankOf(last) || /^(JK|ДЖ|\*)/i.test(last)) { return; }  // a run starts at a natural card
    ranging = !ranging;
    press(button, ranging);
  }

  function digit(d) {
    var el = ensureTarget();
    if (!el) { return; }
    var c = caret(el);
    var before = /\d$/.test(c.before) || !c.before ? c.before : c.before.replace(/\s*$/, " ");
    put(el, before + d, c.after);
  }

  function backspace() {
    var el = ensureTarget();
    if (!el) { return; }
    if (ranging) { clearPending(true); return; }
    var tokens = lineTokens(el);
    var last = tokens[tokens.length - 1];
    if (rank && (!last || rankOf(last) !== text(rank).toUpperCase())) {
      clearPending(true);  // a rank picked, none of its cards typed yet: un-pick it
      return;
    }
    var c = caret(el);
    if (el.selectionStart !== el.selectionEnd && typeof el.selectionStart === "number") {
      put(el, c.before, c.after);
      return;
    }
    var before = /\n[ \t]*$/.test(c.before) ? c.before.replace(/\n[ \t]*$/, "")
      : /\d$/.test(c.before) ? c.before.slice(0, -1)
      : c.before.replace(/\S+[ \t]*$|[ \t]+$/, "");
    lineDone = false;
    put(el, before, c.after);
  }

  function newline() {
    var el = ensureTarget();
    if (!el) { return; }
    clearPending(false);
    lineDone = false;
    if (el.tagName === "TEXTAREA") {
      var c = caret(el);
      put(el, c.before.replace(/[ \t]+$/, "") + "\n", c.after);
      return;
    }
    var all = fields().filter(function (f) { return f.offsetParent !== null; });
    var next = all[all.indexOf(el) + 1];
    if (next) { setTarget(next); next.focus(); }
  }

  /* A pick (vist or swap target) goes into the current player's vists or swaps field. */
  function pick(button) {
    var el = ensureTarget();
    var field = el;
    var wanted = button.getAttribute("data-kind");
    if (wanted && kind(el) !== wanted) {
      var scope = (el && el.closest("fieldset")) || document;
      field = scope.querySelector('[data-keypad-kind="' + wanted + '"]') || el;
      if (field !== el) { setTarget(field); field.focus(); }
    }
    clearPending(false);
    lineDone = false;
    insert(button.getAttribute("data-insert"), { line: true, raw: true });
  }

  function tap(button) {
    var r = button.getAttribute("data-rank");
    var s = button.getAttribute("data-suit");
    var action = button.getAttribute("data-action");
    if (r) { tapRank(r); return; }
    if (s) { tapSuit(s, button); return; }
    if (button.hasAttribute("data-digit")) { digit(button.getAttribute("data-digit")); return; }
    if (button.hasAttribute("data-hand-joker")) { insert(text("JK"), {}); return; }
    if (button.hasAttribute("data-joker")) {
      // A joker goes into the meld being laid: a picked rank or suit stays picked (A ♠ ♥ JK ♦).
      ranging = false;
      press(pad.querySelector('[data-action="range"]'), false);
      lineDone = false;
      card(text(button.getAttribute("data-joker") || "JK"));
      return;
    }
    if (button.hasAttribute("data-insert")) { pick(button); return; }
    if (action === "range") { tapRange(button); return; }
    if (action === "space") { insert(" ", { raw: true }); return; }
    if (action === "newline") { newline(); return; }
    if (action === "backspace" || action === "erase") { backspace(); return; }
    if (action === "keyboard") {
      try { window.localStorage.setItem(STORE, mode() === "keypad" ? "keyboard" : "keypad"); } catch (e) { /* private mode */ }
      applyMode();
      if (target) { target.blur(); target.focus(); }
      return;
    }
    if (action === "close") { close(); }
  }

  /* Close the keypad and give the focus back to its field (a keyboard user would be left nowhere). */
  function close() {
    hide();
    if (target && document.body.contains(target)) {
      quiet = true;
      target.focus();
      quiet = false;
    }
  }

  function onField(event) {
    var el = event.target;
    if (quiet || !el || !el.matches) { return; }
    if (el.matches(FIELDS)) {
      setTarget(el);
    } else if (event.type === "focusin" && tabbing && !pad.contains(el) && !pad.classList.contains("hidden")) {
      hide();  // Tab went on to a select, a box or a button: nothing left for the keypad to type into
    }
  }
  // Only the Tab key hides the keypad on leaving the card fields: a tap on the footer's buttons must not move
  // them (the footer shrinks with the keypad) between the finger going down and the click.
  var tabbing = false;
  document.addEventListener("keydown", function (event) {
    tabbing = event.key === "Tab";
    var inside = pad.contains(event.target) || event.target === target;
    if (event.key === "Escape" && inside && !pad.classList.contains("hidden")) { close(); }
  }, true);
  document.addEventListener("pointerdown", function () { tabbing = false; }, true);
  document.addEventListener("focusin", onField);
  window.addEventListener("resize", function () { if (!pad.classList.contains("hidden")) { cover(); } });
  document.addEventListener("click", onField);  // a tap on the focused field brings a hidden keypad back
  // Keep the focus (and the caret) in the card field while keys are tapped.
  ["mousedown", "pointerdown"].forEach(function (type) {
    pad.addEventListener(type, function (event) {
      if (event.target.closest && event.target.closest("button")) { event.preventDefault(); }
    });
  });
  pad.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button");
    if (button && pad.contains(button)) { event.preventDefault(); tap(button); }
  });
  /* Other scripts (entry.js) ask for a field: window.kunkenKeypad.focus(el). */
  window.kunkenKeypad = {
    focus: function (el) { setTarget(el); el.focus(); },
    refresh: function () { applyMode(); if (target && document.body.contains(target)) { describe(target); } }
  };
  applyMode();
  pad.setAttribute("data-ready", "true");
})();
