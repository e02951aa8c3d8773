// The GPU reading of docs/javascripts/gpu/detect.js, with Node's own test runner: node --test tests/js/
// Every renderer string below was seen on a real machine and is quoted from the public page next to it; the
// expected reading is typed here, not computed. The last tests break the parser on purpose, one rule at a
// time, and require that every case turns red under at least one of those breakages.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const fs = require("node:fs");

const FILE = path.join(__dirname, "..", "..", "docs/javascripts/gpu/detect.js");
const detect = require(FILE);

const DETECT_GPU_DATA = "https://github.com/pmndrs/detect-gpu/blob/aaae5b5af0240c45b8d51f9a9d8ddea160509f98/test/data.ts";
const GECKO_TEST = "https://github.com/mozilla/gecko-dev/blob/43cf3b0904a9ec675db352a1f2bcdd578e8cdeb8/dom/canvas/test/webgl-mochitest/test_renderer_strings.html";

// Windows, as Chromium (and Firefox's about:support, the same ANGLE) reports WebGL's unmasked renderer.
// [renderer, where it was seen, what kind of GPU, expected {status, vendor, name, deviceId}]
const WINDOWS = [
  ["ANGLE (NVIDIA, NVIDIA Quadro GV100 (0x00001DBA) Direct3D11 vs_5_0 ps_5_0, D3D11)",
    "https://github.com/pmndrs/detect-gpu/issues/121", "NVIDIA workstation, Chrome 126 on Windows",
    { status: "found", vendor: "nvidia", name: "NVIDIA Quadro GV100", deviceId: "1dba" }],
  ["ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Laptop GPU (0x00002520) Direct3D11 vs_5_0 ps_5_0, D3D11)",
    "https://github.com/pmndrs/detect-gpu/issues/121", "NVIDIA laptop (mobile), Chrome 126 on Windows",
    { status: "found", vendor: "nvidia", name: "NVIDIA GeForce RTX 3060 Laptop GPU", deviceId: "2520" }],
  ["ANGLE (Intel, Intel(R) HD Graphics 620 Direct3D11 vs_5_0 ps_5_0, D3D11-27.20.100.8681)",
    "https://github.com/iTwin/itwinjs-core/pull/2673", "Intel integrated, ANGLE's form since 2021",
    { status: "found", vendor: "intel", name: "Intel(R) HD Graphics 620", deviceId: null }],
  ["ANGLE (Intel(R) HD Graphics 620 Direct3D11 vs_5_0 ps_5_0, D3D11-27.20.100.8681)",
    "https://github.com/iTwin/itwinjs-core/pull/2673", "Intel integrated, the older form without a vendor field",
    { status: "found", vendor: "intel", name: "Intel(R) HD Graphics 620", deviceId: null }],
  ["ANGLE (Intel, Intel(R) HD Graphics Direct3D9Ex vs_3_0 ps_3_0, igdumd64.dll -9.17.10.4459)",
    "https://github.com/felixrieseberg/clippy/issues/129", "Intel integrated on ANGLE's Direct3D 9 back-end",
    { status: "found", vendor: "intel", name: "Intel(R) HD Graphics", deviceId: null }],
  ["ANGLE (Intel, Intel(R) HD Graphics 3000 Direct3D9Ex vs_3_0 ps_3_0, igdumd64.dll -9.17.10.4459)",
    "https://github.com/felixrieseberg/clippy/issues/130", "Intel integrated (Sandy Bridge), Direct3D 9",
    { status: "found", vendor: "intel", name: "Intel(R) HD Graphics 3000", deviceId: null }],
  ["ANGLE (Intel, Intel(R) Arc(TM) B570 Graphics Direct3D11 vs_5_0 ps_5_0, D3D11-32.0.101.8826)",
    "https://github.com/zen-browser/desktop/issues/8932", "Intel Arc desktop card",
    { status: "found", vendor: "intel", name: "Intel(R) Arc(TM) B570 Graphics", deviceId: null }],
  ["ANGLE (NVIDIA GeForce GTX 750 Direct3D11 vs_5_0 ps_5_0)",
    "https://github.com/kkapsner/CanvasBlocker/issues/48", "NVIDIA desktop, Firefox before its sanitising",
    { status: "found", vendor: "nvidia", name: "NVIDIA GeForce GTX 750", deviceId: null }],
  ["ANGLE (NVIDIA GeForce GTX 750 Ti Direct3D11 vs_5_0 ps_5_0)",
    "https://github.com/BrowserWorks/waterfox/issues/793", "NVIDIA desktop (Waterfox's about:support)",
    { status: "found", vendor: "nvidia", name: "NVIDIA GeForce GTX 750 Ti", deviceId: null }],
  ["ANGLE (AMD Radeon R9 200 Series Direct3D11 vs_5_0 ps_5_0)",
    "https://github.com/BrowserWorks/waterfox/issues/806", "AMD desktop (adapter 0x1002:0x6810)",
    { status: "found", vendor: "amd", name: "AMD Radeon R9 200 Series", deviceId: null }],
  ["ANGLE (NVIDIA, NVIDIA Tesla M60 Direct3D11 vs_5_0 ps_5_0, D3D11-31.0.15.3815)",
    GECKO_TEST, "NVIDIA data-centre card, Mozilla's Windows 11 CI machine",
    { status: "found", vendor: "nvidia", name: "NVIDIA Tesla M60", deviceId: null }],
  ["ANGLE (NVIDIA, NVIDIA GeForce RTX 3070 Direct3D11 vs_5_0 ps_5_0, D3D11-27.21.14.5751)",
    GECKO_TEST, "NVIDIA desktop, Mozilla's example of an unsanitised string",
    { status: "found", vendor: "nvidia", name: "NVIDIA GeForce RTX 3070", deviceId: null }],
  ["GeForce GT 650M/PCIe/SSE2",
    "https://github.com/toji/chrome-webvr-issues/issues/52", "hybrid laptop's NVIDIA GPU, once Chromium was made to use it (before it named the Intel HD 4000)",
    { status: "found", vendor: "nvidia", name: "GeForce GT 650M", deviceId: null }],
  ["ANGLE (AMD Radeon(TM) R5 Graphics Direct3D11 vs_5_0 ps_5_0)",
    DETECT_GPU_DATA, "AMD APU (integrated), from detect-gpu's collected renderers",
    { status: "found", vendor: "amd", name: "AMD Radeon(TM) R5 Graphics", deviceId: null }],
  ["ANGLE (Radeon RX 580 Series Direct3D11 vs_5_0 ps_5_0)",
    DETECT_GPU_DATA, "AMD desktop without the vendor's name in it",
    { status: "found", vendor: "amd", name: "Radeon RX 580 Series", deviceId: null }],
  ["ANGLE (Radeon (TM) RX 480 Graphics Direct3D11 vs_5_0 ps_5_0)",
    DETECT_GPU_DATA, "AMD desktop, the (TM) form",
    { status: "found", vendor: "amd", name: "Radeon (TM) RX 480 Graphics", deviceId: null }],
];

// The same adapters elsewhere: ANGLE on Vulkan and on OpenGL (Linux), which the parser reads too.
const OTHER_FORMS = [
  ["ANGLE (NVIDIA, Vulkan 1.2.175 (NVIDIA NVIDIA GeForce GTX 970 (0x000013C2)), NVIDIA)",
    "https://github.com/pmndrs/detect-gpu/issues/100", "Chrome 105 on Linux, ANGLE on Vulkan",
    { status: "found", vendor: "nvidia", name: "NVIDIA GeForce GTX 970", deviceId: "13c2" }],
  ["ANGLE (NVIDIA Corporation, NVIDIA GeForce GTX 970/PCIe/SSE2, OpenGL 4.5.0)",
    "https://github.com/pmndrs/detect-gpu/issues/100", "Chromium 104 on Linux, ANGLE on OpenGL",
    { status: "found", vendor: "nvidia", name: "NVIDIA GeForce GTX 970", deviceId: null }],
  ["ANGLE (NVIDIA, Vulkan 1.4.312 (NVIDIA NVIDIA GeForce RTX 5080 (0x00002C02)), NVIDIA)",
    "https://github.com/Kitware/trame-vtklocal/pull/86", "Linux CI, ANGLE on Vulkan",
    { status: "found", vendor: "nvidia", name: "NVIDIA GeForce RTX 5080", deviceId: "2c02" }],
];

// Where the browser hides the GPU or draws without one: the page must ask, never propose.
const HIDDEN = [
  ["ANGLE (NVIDIA, NVIDIA GeForce GTX 980 Direct3D11 vs_5_0 ps_5_0), or similar",
    GECKO_TEST, "Firefox 92+: a stand-in of the adapter's class, not the adapter", { status: "masked" }],
  ["ANGLE (NVIDIA, NVIDIA GeForce 8800 GTX Direct3D11 vs_5_0 ps_5_0), or similar",
    GECKO_TEST, "Firefox's stand-in on Mozilla's Windows CI", { status: "masked" }],
  ["Mozilla", GECKO_TEST, "Firefox with privacy.resistFingerprinting", { status: "masked" }],
  ["WebKit WebGL", "https://github.com/pmndrs/detect-gpu/issues/42", "WebGL's masked RENDERER", { status: "masked" }],
  ["ANGLE (Microsoft Basic Render Driver Direct3D11 vs_5_0 ps_5_0)",
    DETECT_GPU_DATA, "Windows' WARP software adapter (no GPU driver)", { status: "software" }],
  ["ANGLE (Software Adapter Direct3D11 vs_5_0 ps_5_0)", DETECT_GPU_DATA, "a software adapter", { status: "software" }],
  ["Google SwiftShader", DETECT_GPU_DATA, "Chromium's own CPU renderer", { status: "software" }],
  ["llvmpipe (LLVM 17.0.6, 256 bits)", GECKO_TEST, "Mesa's CPU renderer (Linux)", { status: "software" }],
];

// Strings with no public page to quote: what this project's test machine showed (Debian's Chromium without
// a GPU, 2026-12-05; tests/site/test_gpu_detect.py reads it live), the form issue 46 quotes for an AMD card
// with its device ID (no public page with one was found), and ANGLE's "Google" vendor without SwiftShader, a browser's stand-in (constructed).
const UNQUOTED = [
  ["ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)",
    "this machine", "Chromium's SwiftShader fallback", { status: "software", name: "SwiftShader Device (Subzero)" }],
  ["ANGLE (AMD, AMD Radeon RX 6800 XT (0x000073BF) Direct3D11 vs_5_0 ps_5_0, D3D11)",
    "issue 46", "AMD desktop, with the device ID",
    { status: "found", vendor: "amd", name: "AMD Radeon RX 6800 XT", deviceId: "73bf" }],
  ["ANGLE (Google, Vulkan 1.3.0 (Example Device (0x00001234)), Google driver)",
    "constructed", "ANGLE's vendor Google: never a GPU of the reader's", { status: "masked" }],
];

const CASES = [...WINDOWS, ...OTHER_FORMS, ...HIDDEN, ...UNQUOTED];

// The fields a case names must equal the reading's; a hidden case must carry no name to propose.
function mismatch(parse, [renderer, , , expected]) {
  const got = parse(renderer);
  for (const [k, v] of Object.entries(expected)) if (got[k] !== v) return `${k}: ${JSON.stringify(got[k])}`;
  if (expected.status !== "found" && got.status === "found") return "proposes a name";
  return null;
}

test("at least 10 real Windows strings, of AMD, Intel and NVIDIA, each with its source", () => {
  assert.ok(WINDOWS.length >= 10, `${WINDOWS.length} Windows strings`);
  for (const vendor of ["amd", "intel", "nvidia"]) assert.ok(WINDOWS.some((c) => c[3].vendor === vendor), vendor);
  for (const [renderer, source] of [...WINDOWS, ...OTHER_FORMS, ...HIDDEN]) assert.match(source, /^https:\/\/github\.com\//, renderer);
});

for (const c of CASES) {
  test(`${c[2]}: ${c[0]}`, () => {
    assert.equal(mismatch(detect.parseRenderer, c), null, `seen at ${c[1]}`);
  });
}

test("the vendor's PCI ID comes with the vendor", () => {
  assert.equal(detect.parseRenderer(WINDOWS[0][0]).vendorId, "10de");
  assert.equal(detect.parseRenderer(WINDOWS[2][0]).vendorId, "8086");
  assert.equal(detect.parseRenderer(WINDOWS[9][0]).vendorId, "1002");
  assert.equal(detect.parseRenderer("Mozilla").vendorId, null);
});

test("nothing to read is unknown, never a name", () => {
  for (const value of [null, undefined, "", "   ", 42, "Apple M2"]) {
    const r = detect.parseRenderer(value);
    assert.equal(r.status, "unknown", String(value));
    assert.equal(r.name, null);
  }
});

// ------------------------------------------------------------------ WebGPU and several adapters

// Chromium's GPUAdapterInfo gives vendor and architecture only ("nvidia blackwell": trame-vtklocal#86).
const WEBGPU_NVIDIA = { vendor: "nvidia", architecture: "blackwell", device: "", description: "" };

test("WebGPU's vendor and architecture name a family, not the GPU: masked, with the vendor", () => {
  const r = detect.parseAdapterInfo(WEBGPU_NVIDIA);
  assert.deepEqual([r.status, r.vendor, r.vendorId, r.architecture, r.name], ["masked", "nvidia", "10de", "blackwell", null]);
});

test("a WebGPU fallback adapter is software; a description (developer features) is a name", () => {
  assert.equal(detect.parseAdapterInfo({ vendor: "google", architecture: "swiftshader" }).status, "software");
  assert.equal(detect.parseAdapterInfo({ vendor: "", architecture: "" }, true).status, "software");
  assert.equal(detect.parseAdapterInfo({ vendor: "", isFallbackAdapter: true }).status, "software");
  const named = detect.parseAdapterInfo({ vendor: "amd", architecture: "rdna-2", device: "0x73bf", description: "AMD Radeon RX 6800 XT" });
  assert.deepEqual([named.status, named.name, named.deviceId], ["found", "AMD Radeon RX 6800 XT", "73bf"]);
  assert.equal(detect.parseAdapterInfo(null).status, "unknown");
});

test("a hybrid laptop: WebGL names the Intel iGPU, WebGPU sees an NVIDIA GPU too: both are offered", () => {
  // The laptop of WebGL_Compute_shader#3 (MX150 beside UHD Graphics 610); the Intel string is clippy#129's form.
  const intel = detect.parseRenderer(WINDOWS[2][0]);
  const chosen = detect.choose([intel, detect.parseAdapterInfo(WEBGPU_NVIDIA), detect.parseAdapterInfo({ vendor: "intel", architecture: "gen-9" })]);
  assert.equal(chosen.status, "found");
  assert.equal(chosen.name, "Intel(R) HD Graphics 620");
  assert.equal(chosen.architecture, "gen-9"); // WebGPU's reading of the same adapter, merged
  assert.deepEqual(chosen.others.map((o) => [o.vendor, o.name, o.architecture]), [["nvidia", null, "blackwell"]]);
});

test("one GPU seen by WebGL and WebGPU is one GPU", () => {
  const chosen = detect.choose([detect.parseRenderer(WINDOWS[1][0]), detect.parseAdapterInfo({ vendor: "nvidia", architecture: "ampere" })]);
  assert.deepEqual([chosen.status, chosen.name, chosen.others.length], ["found", "NVIDIA GeForce RTX 3060 Laptop GPU", 0]);
});

test("two named GPUs are both offered, in the order read", () => {
  const chosen = detect.choose([detect.parseRenderer(WINDOWS[2][0]), detect.parseRenderer(WINDOWS[1][0])]);
  assert.deepEqual([chosen.name, chosen.others.map((o) => o.name)], ["Intel(R) HD Graphics 620", ["NVIDIA GeForce RTX 3060 Laptop GPU"]]);
});

test("without a named GPU the page asks: masked (with WebGPU's vendor), software, unknown", () => {
  const masked = detect.choose([detect.parseRenderer("Mozilla"), detect.parseAdapterInfo(WEBGPU_NVIDIA)]);
  assert.deepEqual([masked.status, masked.name, masked.vendor, masked.architecture], ["masked", null, "nvidia", "blackwell"]);
  const software = detect.choose([detect.parseRenderer(HIDDEN[4][0]), detect.parseRenderer("WebKit WebGL")]);
  assert.deepEqual([software.status, software.name, software.vendor], ["software", "Microsoft Basic Render Driver", null]);
  assert.equal(detect.choose([]).status, "unknown");
  assert.equal(detect.choose([detect.parseRenderer("")]).status, "unknown");
});

// ------------------------------------------------------------------ reading a browser (stand-ins)

function fakeWindow({ renderer, extension = true, adapters = {}, hang = false }) {
  const gl = {
    RENDERER: 0x1f01,
    getExtension: (name) =>
      name === "WEBGL_debug_renderer_info" ? (extension ? { UNMASKED_RENDERER_WEBGL: 0x9246 } : null)
        : name === "WEBGL_lose_context" ? { loseContext() { gl.lost = true; } } : null,
    getParameter: (p) => (p === 0x9246 ? renderer : p === 0x1f01 ? "WebKit WebGL" : null),
  };
  const gpu = {
    requestAdapter: ({ powerPreference }) =>
      hang ? new Promise(() => {}) : Promise.resolve(adapters[powerPreference] ? { info: adapters[powerPreference] } : null),
  };
  return { gl, window: { document: { createElement: () => ({ getContext: (k) => (k === "webgl" ? gl : null) }) }, navigator: { gpu } } };
}

test("read() takes WebGL's unmasked renderer and both WebGPU power preferences", async () => {
  const { gl, window } = fakeWindow({
    renderer: WINDOWS[2][0],
    adapters: { "high-performance": WEBGPU_NVIDIA, "low-power": { vendor: "intel", architecture: "gen-9" } },
  });
  const found = await detect.detect(window, 200);
  assert.equal(found.name, "Intel(R) HD Graphics 620");
  assert.deepEqual(found.others.map((o) => o.vendor), ["nvidia"]);
  assert.equal(gl.lost, true, "the WebGL context is given back");
});

test("read() without the debug extension reads the masked RENDERER: it asks", async () => {
  const { window } = fakeWindow({ renderer: WINDOWS[0][0], extension: false });
  assert.equal((await detect.detect(window, 200)).status, "masked");
});

test("a WebGPU that never answers does not hold the page", async () => {
  const { window } = fakeWindow({ renderer: WINDOWS[9][0], hang: true });
  const started = Date.now();
  const found = await detect.detect(window, 100);
  assert.equal(found.name, "AMD Radeon R9 200 Series");
  assert.ok(Date.now() - started < 1000);
});

// ------------------------------------------------------------------ each case red on a broken parser

const SOURCE = fs.readFileSync(FILE, "utf8");
// [what breaks, text of detect.js, its broken replacement]
const BREAKAGES = [
  ["no device ID", "deviceId: id ? hexId(id[1]) : null };", "deviceId: null };"],
  ["Firefox's stand-in read as the GPU", "if (STAND_IN.test(text) || GENERIC.test(text))", "if (GENERIC.test(text))"],
  ["generic strings read as names", "if (STAND_IN.test(text) || GENERIC.test(text))", "if (STAND_IN.test(text))"],
  ["software renderers read as GPUs", "if (SOFTWARE.test(text)) return", "if (false) return"],
  ["ANGLE's vendor field taken for the device", "if (parts.length >= 3 || (parts.length === 2 && !BACKEND.test(parts[1]))) {", "if (false) {"],
  ["a back-end field taken for the device", "var BACKEND = /^(D3D\\d|Direct3D|OpenGL|Vulkan|Metal)|\\.dll\\b/i;", "var BACKEND = /^$/;"],
  ["the shader model left in the name", '.replace(/\\s+Direct3D\\w*(\\s+vs_\\d_\\d\\s+ps_\\d_\\d)?\\s*$/i, "")', ""],
  ["Vulkan's wrapper left in the name", "if (vulkan) text = vulkan[1];", ""],
  ["OpenGL's bus suffix left in the name", '.replace(/\\/PCIe?\\/SSE2$/i, "")', ""],
  ["Vulkan's doubled vendor left in the name", '.replace(/^(\\S+) \\1 /i, "$1 ")', ""],
  ["AMD not recognised", '["amd", /\\b(AMD|ATI|Radeon|Advanced Micro Devices)\\b/i],', ""],
  ["Intel not recognised", '["intel", /\\bIntel\\b/i],', ""],
  ["NVIDIA not recognised", '["nvidia", /\\b(NVIDIA|GeForce|Quadro)\\b/i]', '["nvidia", /^$/]'],
  ["ANGLE's Google vendor read as a GPU", "if (/^Google\\b/i.test(vendorField))", "if (false)"],
];

function broken(find, replace) {
  assert.ok(SOURCE.includes(find), `detect.js no longer holds ${find}: update this breakage`);
  const module = { exports: {} };
  new Function("module", SOURCE.replace(find, replace))(module);
  return module.exports;
}

test("every case turns red under some breakage of the parser, and every breakage turns some case red", () => {
  const killed = new Set();
  for (const [what, find, replace] of BREAKAGES) {
    const parse = broken(find, replace).parseRenderer;
    const red = CASES.filter((c) => mismatch(parse, c) !== null);
    assert.ok(red.length > 0, `breaking "${what}" fails no case`);
    red.forEach((c) => killed.add(c[0]));
  }
  const never = CASES.filter((c) => !killed.has(c[0])).map((c) => c[0]);
  assert.deepEqual(never, [], "cases no breakage turns red");
});

test("the hybrid-laptop rule turns red when other GPUs are dropped", () => {
  const choose = broken("if (!others.some(function (o) { return sameAdapter(o, r); })) others.push(r);", "").choose;
  const chosen = choose([detect.parseRenderer(WINDOWS[2][0]), detect.parseAdapterInfo(WEBGPU_NVIDIA)]);
  assert.equal(chosen.others.length, 0);
});
