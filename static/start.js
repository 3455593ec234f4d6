/* The start form: picking another game shows that game's house-rule defaults at once.
   A rule the table already changed by hand is left as typed; the server treats a rule left as shown
   as the chosen game's default either way (the hidden field defaults_for says which game was shown). */
(function () {
  "use strict";
  var form = document.getElementById("start-form");
  var game = document.getElementById("game");
  if (!form || !game) { return; }
  var presets = JSON.parse(form.getAttribute("data-presets") || "{}");
  var shown = form.querySelector("input[name=defaults_for]");
  var note = document.getElementById("defaults-of");

  function field(name) { return form.querySelector("[name='rules-" + name + "']"); }
  function same(input, wanted) {
    return input.type === "checkbox" ? input.checked === (wanted === true) : input.value === String(wanted);
  }
  function set(input, wanted) {
    if (input.type === "checkbox") { input.checked = wanted === true; } else { input.value = String(wanted); }
  }

  game.addEventListener("change", function () {
    var before = presets[shown.value], after = presets[game.value];
    if (!before || !after) { return; }
    Object.keys(after.rules).forEach(function (name) {
      var input = field(name);
      if (input && same(input, before.rules[name])) { set(input, after.rules[name]); }
    });
    shown.value = game.value;
    if (note) { note.textContent = after.note; }
  });
})();
