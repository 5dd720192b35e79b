// Client-side search over window.VGC_INDEX ([{t: title, u: url, k: kind}]): filters on every keystroke, and on
// load from the page's `#q=<query>` fragment. Works offline from file:// (no fetch).
// With `#vgc-layout` in the fragment (the site's layout test), the page records its layout on <body
// data-layout="…"> (and posts it to its parent frame): the viewport and document widths and the elements that stick
// out of the viewport.
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
  function scrolls(el) {
    for (var p = el.parentElement; p; p = p.parentElement) {
      var o = getComputedStyle(p).overflowX;
      if (o === "auto" || o === "scroll" || o === "hidden") { return true; }
    }
    return false;
  }
  function layout() {
    var w = window.innerWidth, out = [];
    document.querySelectorAll("body *").forEach(function (el) {
      var r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > w + 0.5 && !scrolls(el) && out.length < 10) {
        out.push(el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + " " + Math.round(r.right));
      }
    });
    var td = document.querySelector("main td");
    var record = JSON.stringify({
      viewport: w,
      scrollWidth: document.documentElement.scrollWidth,
      cellDisplay: td ? getComputedStyle(td).display : "",
      overflowing: out
    });
    document.body.setAttribute("data-layout", record);
    // Headless Chromium's window is at least 500 px wide: the test loads the page in a narrower frame.
    if (window.parent !== window) { window.parent.postMessage(record, "*"); }
  }
  input.addEventListener("input", function () { render(input.value); });
  var m = /[#&]q=([^&]*)/.exec(location.hash);
  if (m) { input.value = decodeURIComponent(m[1]); render(input.value); }
  if (/[#&]vgc-layout/.test(location.hash)) { layout(); }
})();
