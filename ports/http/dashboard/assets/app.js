// The one nicety that needs JavaScript: a copy button next to a secret. Everything
// works without it (the secret is in a read-only field, selectable by hand).
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field || !navigator.clipboard) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(field.value).then(function () {
        button.textContent = "Copied";
      });
    });
  });
});
