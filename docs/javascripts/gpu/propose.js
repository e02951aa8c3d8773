// The GPU the browser names, proposed to the reader (the home page and choose/; the box and its English or
// Chinese sentences come from docs/hooks/guide/gpu_pages.py's detect()). gpu/detect.js reads the browser;
// this script only asks. The name goes into the page's GPU field when the reader clicks "Use it": the field's
// own input event then does what typing does (chooser.js answers on choose/; the home form sends it on).
// Before that input event the field fires "guide:gpu-detected" with the reading used ({name, vendor, vendorId,
// deviceId, ...}, gpu/detect.js), for a matcher that reads PCI IDs. Where the browser hides the GPU, a
// software renderer draws, or it sees two GPUs, the box says so and asks. Nothing is sent anywhere: the
// reading stays in this page.
(() => {
  const detector = window.guideGpuDetect;
  if (!detector) return;
  const VENDOR = { amd: "AMD", intel: "Intel", nvidia: "NVIDIA" };
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => (k in values ? values[k] : "{" + k + "}"));
  const el = (tag, text, cls) => { const e = document.createElement(tag); if (text) e.textContent = text; if (cls) e.className = cls; return e; };
  // A sentence with **bold** in it (the name).
  function sentence(text) {
    const p = el("p");
    text.split(/\*\*([^*]+)\*\*/).forEach((part, i) => p.append(i % 2 ? el("strong", part) : part));
    return p;
  }
  const vendorLabel = (r) => (VENDOR[r.vendor] || r.vendor || "?") + (r.architecture ? " " + r.architecture : "");

  function propose(box, field, T, found) {
    const use = (reading) => {
      field.value = reading.name;
      field.dispatchEvent(new CustomEvent("guide:gpu-detected", { bubbles: true, detail: reading }));
      field.dispatchEvent(new Event("input", { bubbles: true }));
      box.replaceChildren();
      field.focus();
    };
    const button = (label, action, primary) => {
      const b = el("button", label, primary ? "gpu-detect-use" : "gpu-detect-refuse");
      b.type = "button";
      b.addEventListener("click", action);
      return b;
    };
    if (found.status !== "found") {
      const text = found.status === "software" ? fill(T.software, { name: found.name || "SwiftShader" })
        : found.vendor ? fill(T.masked_vendor, { vendor: vendorLabel(found) }) : T.masked;
      box.replaceChildren(sentence(text));
      return;
    }
    const parts = [sentence(fill(T.found, { name: found.name }))];
    const actions = el("p", "", "gpu-detect-actions");
    actions.append(button(T.use, () => use(found), true));
    if (found.others.length) {
      const list = found.others.map((o) => o.name || fill(T.unnamed, { vendor: vendorLabel(o) }));
      parts.push(sentence(fill(T.others, { list: [found.name].concat(list).join("; ") })));
      found.others.filter((o) => o.name).forEach((o) => actions.append(" ", button(fill(T.use_other, { name: o.name }), () => use(o), true)));
    } else {
      parts.push(sentence(T.laptop));
    }
    actions.append(" ", button(T.refuse, () => { box.replaceChildren(); field.focus(); }, false));
    box.replaceChildren(...parts, actions);
  }

  document.querySelectorAll(".gpu-detect[data-field]").forEach((box) => {
    const field = document.getElementById(box.dataset.field);
    // A name already there, typed or in a shared link's ?gpu= (chooser.js, which runs after this script,
    // puts it into the field), is the reader's: propose nothing.
    const named = () => field.value.trim() || new URLSearchParams(location.search).get(field.name);
    if (!field || named()) return;
    const T = JSON.parse(box.dataset.text);
    detector.detect(window).then((found) => {
      if (!named()) propose(box, field, T, found);
    });
  });
})();
