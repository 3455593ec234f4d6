// The summary's Print button: shown only when JavaScript runs (the page says how to print without it).
document.querySelectorAll("[data-print]").forEach(function (button) {
  button.classList.remove("hidden");
  button.addEventListener("click", function () { window.print(); });
});

// A printout shows each deal's warnings: a closed <details> would print its summary alone. Opened for printing,
// closed again after (only those this opened).
window.addEventListener("beforeprint", function () {
  document.querySelectorAll("details.warnings:not([open])").forEach(function (details) {
    details.open = true;
    details.dataset.printOpened = "";
  });
});
window.addEventListener("afterprint", function () {
  document.querySelectorAll("details.warnings[data-print-opened]").forEach(function (details) {
    details.open = false;
    delete details.dataset.printOpened;
  });
});
