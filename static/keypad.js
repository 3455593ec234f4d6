/* Tap-to-pick card keypad (templates/_keypad.html): the DOM glue of static/keypad_grammar.js (loaded first).
   It types card tokens in the page's notation (K♠ 10♥ JK, or К♠ 10♥ Дж on Russian pages) into the last focused
   <input>/<textarea> that has a data-keypad attribute. Pages work without it.

   What a tap does is the grammar's (its header has every rule): a set by rank then suits (A ♠ ♥ ♦), a run by its
   ends (6 ♥ … 10, from the run's lowest card), a suit first then ranks (♥ 5 6 7), a new meld on its own line
   after a complete one (a rank after a set, a card after a run's end, another suit after a complete run: the
   grammar reads the line's text, so a field entered again or restored after a reload goes on the same way), a
   complete meld never broken by a later tap (10 ♠ ♥ ♦ 2 3 asks for the 2's suit), digits in points mode (40 Дж),
   the picks row's names ("Борис 1: ") on a line of their own in the current player's vists or swaps field.
   This file reads the field's text and caret into the grammar's state, writes the result back (with an input
   event), lights the keys from the state's picked rank, suit and "…", and shows the grammar's hint when a tap
   did nothing: the key shakes (the keypad-shake class, 400 ms) and one line says why (#keypad-hint, a polite
   live region, its words in data-hint-* attributes; "last-field" is this file's own, for ↵ in a one-line field
   with no field after it on screen). Typing with the phone's keyboard, ↵, a name key and another field clear
   the picks. */
(function () {
  "use strict";
  var pad = document.getElementById("keypad");
  var G = window.KunkenKeypadGrammar;
  if (!pad || !G) { return; }
  var FIELDS = "input[data-keypad], textarea[data-keypad]";
  var STORE = "kunken-keypad-mode";
  var PICKS = ["rank", "suit", "ranging", "back", "typed", "bare"];
  var russian = pad.getAttribute("data-lang") === "ru";
  var target = null;
  var picks = G.initial({});  // the picked rank and suit, "…", what ⌫ gives back: kept between taps
  var label = document.getElementById("keypad-target");
  var hintBox = document.getElementById("keypad-hint");
  var hintTimer = null;
  var writing = false;  // the input event is the keypad's own
  var quiet = false;    // focus given back to the field by closing the keypad: it stays closed

  function fields() { return Array.prototype.slice.call(document.querySelectorAll(FIELDS)); }

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
  function light() {
    Array.prototype.forEach.call(pad.querySelectorAll("[data-rank]"), function (b) { press(b, b.getAttribute("data-rank") === picks.rank); });
    Array.prototype.forEach.call(pad.querySelectorAll("[data-suit]"), function (b) { press(b, b.getAttribute("data-suit") === picks.suit); });
    press(pad.querySelector('[data-action="range"]'), picks.ranging);
  }

  function clearPending() {
    picks = G.initial({});
    light();
  }

  /* A tap that did nothing: the key shakes and one line says why (read out by the live region). */
  function hint(button, code, about) {
    var words = (hintBox && hintBox.getAttribute("data-hint-" + code)) || "";
    words = words.replace(/\{rank\}|\{suit\}|\{run\}/g, about || "");
    if (button) {
      button.classList.remove("keypad-shake");
      void button.offsetWidth;  // the animation starts again on a second refused tap
      button.classList.add("keypad-shake");
      window.setTimeout(function () { button.classList.remove("keypad-shake"); }, 400);
    }
    if (!hintBox) { return; }
    pad.setAttribute("data-hint", code);
    if (hintBox.textContent === words) {  // the same words again: emptied first, so they are read again
      hintBox.textContent = "";
      window.setTimeout(function () { hintBox.textContent = words; }, 50);
    } else {
      hintBox.textContent = words;
    }
    window.clearTimeout(hintTimer);
    hintTimer = window.setTimeout(clearHint, 4000);
  }

  function clearHint() {
    window.clearTimeout(hintTimer);
    if (hintBox && hintBox.textContent) { hintBox.textContent = ""; }
    pad.removeAttribute("data-hint");
  }

  function kind(el) { return (el && el.getAttribute("data-keypad-kind")) || "cards"; }

  /* What the keypad shows depends on its field: ranks and suits, digits, vist or swap targets. */
  function describe(el) {
    if (label) { label.textContent = el.getAttribute("data-keypad") || ""; }
    pad.setAttribute("data-kind", kind(el));
    pad.setAttribute("data-digits", el.hasAttribute("data-keypad-points") ? "true" : "false");
    pad.setAttribute("data-hand-ranks", el.hasAttribute("data-keypad-ranks") ? "true" : "false");
    fields().forEach(function (f) { f.classList.toggle("keypad-target-field", f === el); });
  }

  function setTarget(el) {
    if (target !== el) { clearPending(); clearHint(); }
    target = el;
    pad.classList.remove("hidden");
    describe(el);
    cover();
    reveal(el);
  }

  /* Hide the keypad (✕, Escape, or the focus leaving the card fields), as a phone's keyboard goes down. */
  function hide() {
    clearPending();
    clearHint();
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
    writing = true;
    try { el.dispatchEvent(event); } finally { writing = false; }
  }

  function ensureTarget() {
    if (target && document.body.contains(target)) { return target; }
    var first = fields()[0];
    if (first) { setTarget(first); }
    return first || null;
  }

  /* The grammar's state: the field's text around the caret, its kind, and the picks kept between taps. */
  function stateOf(el) {
    var v = el.value;
    var s = typeof el.selectionStart === "number" ? el.selectionStart : v.length;
    var e = typeof el.selectionEnd === "number" ? el.selectionEnd : v.length;
    var field = el.hasAttribute("data-keypad-points") ? "points" : el.hasAttribute("data-keypad-ranks") ? "ranks"
      : el.tagName === "TEXTAREA" ? "lines" : "line";
    var state = G.initial({ before: v.slice(0, s), selected: v.slice(s, e), after: v.slice(e), field: field, russian: russian });
    PICKS.forEach(function (k) { state[k] = picks[k]; });
    return state;
  }

  function put(el, before, after) {
    el.value = before + after;
    try { el.setSelectionRange(before.length, before.length); } catch (e) { /* not a text field */ }
    changed(el);
    // a key pressed from the keyboard keeps the focus (the next suit is one key away); a tap never had it
    if (document.activeElement !== el && !pad.contains(document.activeElement)) { el.focus(); }
  }

  /* One key into one field: the grammar says what it does; a refused key shakes and says why. */
  function apply(el, key, button) {
    var was = stateOf(el);
    var result = G.press(was, key);
    if (result.hint) { hint(button, result.hint, result.about); return; }
    clearHint();
    var now = result.state;
    PICKS.forEach(function (k) { picks[k] = now[k]; });
    if (now.before !== was.before || now.after !== was.after || now.selected !== was.selected) { put(el, now.before, now.after); }
    light();
    if (result.next) { nextField(el, button); }
  }

  /* ↵ in a one-line field goes on to the next field on screen. */
  function nextField(el, button) {
    var all = fields().filter(function (f) { return f.offsetParent !== null; });
    var next = all[all.indexOf(el) + 1];
    if (next) { setTarget(next); next.focus(); } else { hint(button, "last-field"); }
  }

  /* A pick (vist or swap target) goes into the current player's vists or swaps field. */
  function pick(el, button) {
    var field = el;
    var wanted = button.getAttribute("data-kind");
    if (wanted && kind(el) !== wanted) {
      var scope = el.closest("fieldset") || document;
      field = scope.querySelector('[data-keypad-kind="' + wanted + '"]') || el;
      if (field !== el) { setTarget(field); field.focus(); }
    }
    apply(field, { insert: button.getAttribute("data-insert"), kind: wanted }, button);
  }

  function keyOf(button) {
    var action = button.getAttribute("data-action");
    if (button.hasAttribute("data-rank")) { return { rank: button.getAttribute("data-rank") }; }
    if (button.hasAttribute("data-suit")) { return { suit: button.getAttribute("data-suit") }; }
    if (button.hasAttribute("data-digit")) { return { digit: button.getAttribute("data-digit") }; }
    if (button.hasAttribute("data-hand-joker")) { return { handJoker: true }; }
    if (button.hasAttribute("data-joker")) { return { joker: button.getAttribute("data-joker") || "JK" }; }
    return action ? { action: action } : null;
  }

  function tap(button) {
    var action = button.getAttribute("data-action");
    if (action === "keyboard") {
      try { window.localStorage.setItem(STORE, mode() === "keypad" ? "keyboard" : "keypad"); } catch (e) { /* private mode */ }
      applyMode();
      if (target) { target.blur(); target.focus(); }
      return;
    }
    if (action === "close") { close(); return; }
    var el = ensureTarget();
    if (!el) { return; }
    if (button.hasAttribute("data-insert")) { pick(el, button); return; }
    var key = keyOf(button);
    if (key) { apply(el, key, button); }
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
    } else if (event.type === "click" && !pad.classList.contains("hidden") && el.closest(OFF_FIELDS) &&
               !el.closest(".deal-footer, #draft-footer")) {
      hide();  // a stepper, the Express box, who went out: tapped, and then the keypad goes (issue 48)
    }
  }
  // Only the Tab key hides the keypad on focusing something else: a tap on the footer's buttons must not move
  // them (the footer shrinks with the keypad) between the finger going down and the click. A tap on a control
  // of the form that is no card field hides it once the tap is done (on its click): nothing moves under it.
  var OFF_FIELDS = ".stepper, input[type=checkbox], select";
  var tabbing = false;
  document.addEventListener("keydown", function (event) {
    tabbing = event.key === "Tab";
    var inside = pad.contains(event.target) || event.target === target;
    if (event.key === "Escape" && inside && !pad.classList.contains("hidden")) { close(); }
  }, true);
  document.addEventListener("pointerdown", function () { tabbing = false; }, true);
  document.addEventListener("focusin", onField);
  // Text typed with the phone's keyboard (or put back by a script) leaves the keypad's picks behind.
  document.addEventListener("input", function (event) {
    if (!writing && event.target === target) { clearPending(); clearHint(); }
  });
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
