// Client-side search over window.VGC_INDEX ([{t: title, u: url, k: kind}]): filters on every keystroke, and on
// load from the page's `#q=<query>` fragment. Works offline from file:// (no fetch).
(function () {
  var root = document.body.getAttribute("data-root") || "";
  var input = document.getElementById("q");
  var list = document.getElementById("results");
  function render(q) {
    list.innerHTML = "";
    q = (q || "").trim().toLowerCase();
    if (!q) { return; }
    var shown = 0;
    (window.VGC_INDEX || []).forEach(function (e) {
      if (shown >= 50 || e.t.toLowerCase().indexOf(q) < 0) { return; }
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = root + e.u;
      a.textContent = e.t;
      li.appendChild(a);
      li.appendChild(document.createTextNode(" " + e.k));
      list.appendChild(li);
      shown++;
    });
  }
  input.addEventListener("input", function () { render(input.value); });
  var m = /[#&]q=([^&]*)/.exec(location.hash);
  if (m) { input.value = decodeURIComponent(m[1]); render(input.value); }
})();
