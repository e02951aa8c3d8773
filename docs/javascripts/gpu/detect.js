/* The reader's GPU as the browser names it: WebGL's unmasked renderer string and WebGPU's adapter info, read
 * into the adapter's name and PCI IDs, or into why the browser does not say. Pure functions, no page: the
 * chooser's pages load this file (docs/javascripts/gpu/propose.js asks the reader to confirm what it finds);
 * Node's test runner loads it in tests/js/gpu_detect.test.js (node --test tests/js/).
 *
 * It never guesses and never names a table row: the name goes into the chooser's GPU field only when the
 * reader says it is theirs, and the chooser's own matcher reads it there. Nothing here leaves the browser.
 *
 * A reading is {vendor: "amd" | "intel" | "nvidia" | null, vendorId, deviceId, name, architecture, status,
 * source}, status one of
 *   found     the browser names the adapter (its name, and where recent Chromium adds it, its PCI device ID:
 *             "(0x00002520)" in Chrome 126's strings, pmndrs/detect-gpu#121)
 *   masked    the browser hides it: a generic string ("WebKit WebGL", "Mozilla"), Firefox's stand-in
 *             (", or similar"), or WebGPU's vendor and architecture without a name
 *   software  drawing without a GPU driver: SwiftShader, WARP ("Microsoft Basic Render Driver"), llvmpipe
 *   unknown   nothing to read, or a string of no known form
 * vendorId and deviceId are four lower-case hex digits ("1002", "73bf"), as in pci.ids and lspci; Windows
 * writes the same digits in the adapter's PNPDeviceID (PCI\VEN_1002&DEV_73BF).
 */
(function (root, factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.guideGpuDetect = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var VENDOR_IDS = { amd: "1002", intel: "8086", nvidia: "10de" };
  // The vendor a name or an ANGLE vendor field says, by the brand words each vendor puts in its adapters' names.
  var VENDOR_WORDS = [
    ["amd", /\b(AMD|ATI|Radeon|Advanced Micro Devices)\b/i],
    ["intel", /\bIntel\b/i],
    ["nvidia", /\b(NVIDIA|GeForce|Quadro)\b/i]
  ];
  // Renderers that draw on the CPU: the browser's own fallback (SwiftShader, whose PCI device ID is 0xC0DE),
  // Windows' WARP adapter, Mesa's llvmpipe and softpipe.
  var SOFTWARE = /SwiftShader|\(0x0000C0DE\)|Basic Render Driver|Software Adapter|Software Rasterizer|llvmpipe|softpipe/i;
  // What browsers answer instead of the adapter: WebGL's masked RENDERER, Firefox with resistFingerprinting,
  // Safari's one name for every Apple GPU.
  var GENERIC = /^(WebKit WebGL|WebKit|Mozilla|Generic Renderer|Apple GPU|Google Inc\.?|ANGLE)$/i;
  // Firefox 92+ replaces the adapter by a representative of its class and says so: "ANGLE (NVIDIA, NVIDIA
  // GeForce GTX 980 Direct3D11 vs_5_0 ps_5_0), or similar" (gecko-dev's test_renderer_strings.html).
  var STAND_IN = /, or similar$/i;
  // The back-end field that ends an ANGLE string: "D3D11", "D3D11-27.20.100.8681", "OpenGL 4.5.0 ...",
  // a driver file ("igdumd64.dll -9.17.10.4459"), or a Vulkan driver's name.
  var BACKEND = /^(D3D\d|Direct3D|OpenGL|Vulkan|Metal)|\.dll\b/i;

  function vendorOf(text) {
    for (var i = 0; i < VENDOR_WORDS.length; i++) if (VENDOR_WORDS[i][1].test(text || "")) return VENDOR_WORDS[i][0];
    return null;
  }

  function reading(fields) {
    var vendor = fields.vendor || null;
    return {
      vendor: vendor,
      vendorId: fields.vendorId || (vendor ? VENDOR_IDS[vendor] : null),
      deviceId: fields.deviceId || null,
      name: fields.name || null,
      architecture: fields.architecture || null,
      status: fields.status,
      source: fields.source || null
    };
  }

  // "0x000073BF", "0x73bf", "73BF" -> "73bf"; anything else -> null.
  function hexId(text) {
    var m = /^(?:0x)?0*([0-9a-f]{1,4})$/i.exec(String(text || "").trim());
    return m ? ("000" + m[1].toLowerCase()).slice(-4) : null;
  }

  // The fields of "ANGLE (a, b (c), d)", split at the commas outside parentheses.
  function fields(body) {
    var out = [], depth = 0, start = 0;
    for (var i = 0; i < body.length; i++) {
      var ch = body[i];
      if (ch === "(") depth++;
      else if (ch === ")") depth--;
      else if (ch === "," && depth === 0) { out.push(body.slice(start, i).trim()); start = i + 1; }
    }
    out.push(body.slice(start).trim());
    return out;
  }

  // The adapter's name out of ANGLE's device field: "AMD Radeon RX 6800 XT (0x000073BF) Direct3D11 vs_5_0
  // ps_5_0", "Vulkan 1.3.260 (AMD Radeon RX 6800 XT (0x000073BF))", "NVIDIA GeForce RTX 3060/PCIe/SSE2".
  function device(text) {
    var vulkan = /^Vulkan [\d.]+ \((.*)\)$/.exec(text);
    if (vulkan) text = vulkan[1];
    var id = /\((0x[0-9a-f]{1,8})\)/i.exec(text);
    var name = text
      .replace(/\s*\(0x[0-9a-f]{1,8}\)/i, "")
      .replace(/\s*\(Microsoft Corporation[^)]*\)/i, "") // "(Microsoft Corporation - WDDM 1.1)"
      .replace(/\s+Direct3D\w*(\s+vs_\d_\d\s+ps_\d_\d)?\s*$/i, "")
      .replace(/\/PCIe?\/SSE2$/i, "")
      .replace(/\s+OpenGL Engine$/i, "")
      .replace(/\s+/g, " ")
      .trim()
      .replace(/^(\S+) \1 /i, "$1 "); // Vulkan on Linux: "NVIDIA NVIDIA GeForce RTX 5080"
    return { name: name, deviceId: id ? hexId(id[1]) : null };
  }

  /** One WebGL renderer string (UNMASKED_RENDERER_WEBGL, or RENDERER where the extension is missing). */
  function parseRenderer(renderer) {
    var text = typeof renderer === "string" ? renderer.trim() : "";
    if (!text) return reading({ status: "unknown", source: "webgl" });
    if (STAND_IN.test(text) || GENERIC.test(text)) return reading({ status: "masked", source: "webgl" });
    var angle = /^ANGLE \((.*)\)$/.exec(text);
    var vendorField = "", devicePart = text;
    if (angle) {
      var parts = fields(angle[1]);
      // "ANGLE (vendor, device, back-end)" since 2021 (iTwin/itwinjs-core#2673); before, "ANGLE (device)" or
      // "ANGLE (device, back-end)".
      if (parts.length >= 3 || (parts.length === 2 && !BACKEND.test(parts[1]))) {
        vendorField = parts[0];
        devicePart = parts[1];
      } else {
        devicePart = parts[0];
      }
    }
    var found = device(devicePart);
    if (SOFTWARE.test(text)) return reading({ status: "software", name: found.name, source: "webgl" });
    // ANGLE's vendor "Google" without SwiftShader: a browser's own stand-in, never a GPU.
    if (/^Google\b/i.test(vendorField)) return reading({ status: "masked", source: "webgl" });
    var vendor = vendorOf(vendorField) || vendorOf(found.name);
    // A name from ANGLE is the adapter's own whatever its vendor (Qualcomm's Adreno on Windows on Arm);
    // a bare string is a name only with a vendor's brand word in it.
    if (!found.name || (!angle && !vendor)) return reading({ status: "unknown", source: "webgl" });
    return reading({ status: "found", vendor: vendor, deviceId: found.deviceId, name: found.name, source: "webgl" });
  }

  /** One WebGPU adapter's GPUAdapterInfo (adapter.info; requestAdapterInfo() in older browsers). Chromium
   * gives vendor and architecture ("nvidia blackwell": Kitware/trame-vtklocal#86); device and description may
   * be empty strings, which the spec allows (MDN, GPUAdapterInfo). isFallbackAdapter: a software adapter. */
  function parseAdapterInfo(info, isFallback) {
    if (!info) return reading({ status: "unknown", source: "webgpu" });
    var vendorName = String(info.vendor || "").toLowerCase();
    var description = String(info.description || "").trim();
    var architecture = String(info.architecture || "").trim() || null;
    if (isFallback || info.isFallbackAdapter || SOFTWARE.test(description) || /swiftshader/i.test(architecture || ""))
      return reading({ status: "software", name: description || null, architecture: architecture, source: "webgpu" });
    var vendor = VENDOR_IDS[vendorName] ? vendorName : vendorOf(description);
    var deviceId = hexId(info.device);
    if (description && !GENERIC.test(description))
      return reading({ status: "found", vendor: vendor, deviceId: deviceId, name: description, architecture: architecture, source: "webgpu" });
    // Vendor and architecture name a family, never the GPU: the reader types the name.
    return reading({ status: "masked", vendor: vendor, deviceId: deviceId, architecture: architecture, source: "webgpu" });
  }

  // Two readings of one adapter: the same PCI device, or the same vendor where one of them has no device.
  function sameAdapter(a, b) {
    if (a.deviceId && b.deviceId) return a.deviceId === b.deviceId && a.vendor === b.vendor;
    if (a.name && b.name) return a.name.toLowerCase() === b.name.toLowerCase();
    return !!a.vendor && a.vendor === b.vendor;
  }

  /** What the page may say from several readings (WebGL's and each WebGPU adapter's):
   *   {status: "found", ...the named reading, others: [readings of other GPUs the browser sees]}
   *   {status: "masked" | "software" | "unknown", vendor, architecture, others: []}
   * The named reading comes first in the order given; a hybrid laptop's second GPU is among others, named or
   * by vendor only, so that the page can ask which one instead of picking. */
  function choose(readings) {
    var list = (readings || []).filter(Boolean);
    var named = list.filter(function (r) { return r.status === "found"; });
    var vendorOnly = list.filter(function (r) { return r.status === "masked" && r.vendor; });
    if (named.length) {
      var best = named[0], others = [];
      named.slice(1).concat(vendorOnly).forEach(function (r) {
        if (sameAdapter(r, best)) {
          if (!best.architecture && r.architecture) best = Object.assign({}, best, { architecture: r.architecture });
          return;
        }
        if (!others.some(function (o) { return sameAdapter(o, r); })) others.push(r);
      });
      return Object.assign({}, best, { others: others });
    }
    var status = list.some(function (r) { return r.status === "software"; }) ? "software"
      : list.some(function (r) { return r.status === "masked"; }) ? "masked" : "unknown";
    var hint = vendorOnly[0] || {};
    var software = list.filter(function (r) { return r.status === "software"; })[0] || {};
    return Object.assign(reading({ status: status, vendor: hint.vendor, architecture: hint.architecture, name: software.name }), { others: [] });
  }

  // ------------------------------------------------------------------ reading the browser (the page only)

  var UNMASKED_RENDERER_WEBGL = 0x9246;

  function webglReading(doc) {
    try {
      var gl = doc.createElement("canvas").getContext("webgl");
      if (!gl) return reading({ status: "unknown", source: "webgl" });
      var ext = gl.getExtension("WEBGL_debug_renderer_info");
      var text = ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL || UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
      var lose = gl.getExtension("WEBGL_lose_context");
      if (lose) lose.loseContext(); // a page may hold only a few contexts: give this one back
      return parseRenderer(text);
    } catch (e) {
      return reading({ status: "unknown", source: "webgl" });
    }
  }

  function within(promise, ms) {
    return Promise.race([promise, new Promise(function (resolve) { setTimeout(function () { resolve(null); }, ms); })]);
  }

  // Both power preferences: on a laptop with two GPUs the browser may hand each one out.
  function webgpuReadings(nav, ms) {
    if (!nav || !nav.gpu || typeof nav.gpu.requestAdapter !== "function") return Promise.resolve([]);
    var one = function (preference) {
      return within(Promise.resolve(nav.gpu.requestAdapter({ powerPreference: preference })).then(function (adapter) {
        if (!adapter) return null;
        var info = adapter.info || (typeof adapter.requestAdapterInfo === "function" ? adapter.requestAdapterInfo() : null);
        return Promise.resolve(info).then(function (i) { return parseAdapterInfo(i, adapter.isFallbackAdapter); });
      }), ms).catch(function () { return null; });
    };
    return Promise.all([one("high-performance"), one("low-power")]).then(function (r) { return r.filter(Boolean); });
  }

  /** The browser's readings, WebGL's first: a promise that settles within about ms milliseconds. */
  function read(win, ms) {
    var wait = ms || 1500;
    var first = webglReading(win.document);
    return webgpuReadings(win.navigator, wait).then(function (more) { return [first].concat(more); });
  }

  /** read() and choose() in one: what the page proposes. */
  function detect(win, ms) {
    return read(win, ms).then(choose);
  }

  return {
    VENDOR_IDS: VENDOR_IDS,
    parseRenderer: parseRenderer, parseAdapterInfo: parseAdapterInfo, choose: choose,
    read: read, detect: detect
  };
});
