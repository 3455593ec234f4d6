// The summary's Print button: shown only when JavaScript runs (the page says how to print without it).
document.querySelectorAll("[data-print]").forEach(function (button) {
  button.classList.remove("hidden");
  button.addEventListener("click", function () { window.print(); });
});
