// Niceties that need JavaScript; everything works without them.
document.addEventListener("DOMContentLoaded", function () {
  // A copy button next to a secret (the secret is in a read-only field, selectable by hand).
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
  // On a phone a table's rows are stacks of cells labelled from data-label (style.css).
  // The templates write the labels; a cell without one takes its column's heading.
  document.querySelectorAll("main table").forEach(function (table) {
    var heads = table.querySelectorAll("thead th");
    if (!heads.length) return;
    table.querySelectorAll("tbody tr").forEach(function (row) {
      Array.prototype.forEach.call(row.children, function (cell, i) {
        if (cell.tagName === "TD" && !cell.hasAttribute("data-label") && heads[i]) {
          cell.setAttribute("data-label", heads[i].textContent.trim());
        }
      });
    });
  });
});
